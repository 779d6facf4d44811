/**
 * Debian's headless chromium for the browser tests (play page, dashboard), driven by
 * playwright-core: installed with apt-get when it is missing and the tests run as root.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants as fsConstants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/**
 * Browser UI that headless Chromium builds for every window and never shows: the WebUI omnibox popup
 * (`chrome://omnibox-popup.top-chrome/`, two pages of it). Playwright opens a window for each context,
 * and that popup's renderer took about 1.2 CPU-s of the 2 a new context and its first page cost here
 * (probed per process); a page's own renderer takes a tenth of that.
 */
export const UNSHOWN_UI_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'] as const;

/**
 * The arguments Playwright gives Chromium, read by launching a script in its place that writes them
 * down and exits (no browser starts). Chromium takes the last --disable-features it is given, so ours
 * must carry Playwright's list too. Undefined where there is no POSIX shell to run the script.
 */
export async function playwrightChromiumArgs(): Promise<string[] | undefined> {
  if (process.platform === 'win32') return undefined;
  const { chromium } = await import('playwright-core');
  const dir = mkdtempSync(join(tmpdir(), 'udcli-chromium-args-'));
  try {
    const script = join(dir, 'record-args');
    // "$0.args": beside the script, whatever characters the temporary directory's path holds.
    writeFileSync(script, '#!/bin/sh\nprintf \'%s\\n\' "$@" > "$0.args"\n', { mode: 0o700 });
    await chromium.launch({ executablePath: script, timeout: 10_000 }).catch(() => undefined);
    return readFileSync(`${script}.args`, 'utf8')
      .split('\n')
      .filter((arg) => arg !== '');
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Playwright's --disable-features list with the unshown UI added (just ours if its list cannot be read). */
export async function disabledFeatures(): Promise<string> {
  const given = (await playwrightChromiumArgs())?.find((arg) => arg.startsWith('--disable-features='));
  const theirs = given === undefined ? [] : given.slice('--disable-features='.length).split(',');
  return `--disable-features=${[...theirs.filter((f) => f !== ''), ...UNSHOWN_UI_FEATURES].join(',')}`;
}

/** Headless chromium; no sandbox, as the tests may run as root in a container. */
async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', await disabledFeatures(), ...extraArgs],
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
