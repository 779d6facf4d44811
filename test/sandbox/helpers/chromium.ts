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
async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', ...extraArgs],
  });
}

/**
 * Names the browser alone resolves to 127.0.0.1, as it would a LAN name or a rebinding attacker's
 * name: session-cookie.test.ts's LAN name, dashboard.test.ts's rebound name. No other test uses them.
 */
export const BROWSER_ONLY_NAMES = ['udcli-lan.test', 'rebound.test'] as const;
export type BrowserOnlyName = (typeof BROWSER_ONLY_NAMES)[number];

let shared: Promise<Browser> | undefined;

/**
 * The worker process's one chromium (vitest runs file after file in a worker, isolate: false): a
 * launch costs about 1.5 s of CPU, paid once a worker instead of once a file. Tests take a context
 * of their own (a fixture's, browser.newContext() or browser.newPage()) and never the browser's
 * own state; releaseChromium() closes what a file left open. Playwright kills the browser when the
 * process exits.
 */
export function sharedChromium(): Promise<Browser> {
  if (shared === undefined) {
    const rules = BROWSER_ONLY_NAMES.map((name) => `MAP ${name} 127.0.0.1`).join(', ');
    const launching = launchChromium([`--host-resolver-rules=${rules}`]);
    const forget = (): void => {
      if (shared === launching) shared = undefined;
    };
    shared = launching;
    launching.then((browser) => browser.on('disconnected', forget), forget);
  }
  return shared;
}

/** At a file's end: the contexts (and their pages) it left open in the shared chromium, closed. */
export async function releaseChromium(): Promise<void> {
  if (shared === undefined) return;
  const browser = await shared.catch(() => undefined);
  await Promise.all((browser?.contexts() ?? []).map((context) => context.close()));
}
