/**
 * Debian's headless chromium for the browser tests (play page, dashboard), driven by
 * playwright-core: installed with apt-get when it is missing and the tests run as root.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants as fsConstants } from 'node:fs';
import type { Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Why chromium cannot run here, or null when it can (installing it with apt-get when allowed). */
export function ensureChromium(): string | null {
  const runnable = () => {
    try {
      accessSync(CHROMIUM, fsConstants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (runnable()) return null;
  if (process.platform !== 'linux' || process.getuid?.() !== 0)
    return `${CHROMIUM} is missing and this is not root on Linux, so it cannot be installed`;
  if (spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status !== 0)
    return `${CHROMIUM} is missing and there is no apt-get to install it`;
  const install = spawnSync('sh', ['-c', 'apt-get update && apt-get install -y --no-install-recommends chromium'], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    encoding: 'utf8',
    timeout: 9 * 60_000,
  });
  if (install.status !== 0 || !runnable()) {
    const tail = `${install.stdout ?? ''}${install.stderr ?? ''}`.trim().split('\n').slice(-3).join(' | ');
    return `${CHROMIUM} is missing and apt-get install chromium failed (${install.error?.message ?? `exit ${install.status}`}): ${tail}`;
  }
  return null;
}

/** Headless chromium; no sandbox, as the tests may run as root in a container. */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', ...extraArgs],
  });
}
