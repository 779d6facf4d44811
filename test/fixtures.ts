/**
 * The shared fixtures of command tests (vitest's test.extend): import `test` from here instead of
 * vitest and ask for what the test needs by name.
 * - `dirs`: a fresh temporary config and data directory, for one test (nothing of the user's).
 * - `sandbox`: the foreground sandbox on port 0 over a temporary database seeded with the demo
 *   data, once per file, with run() (main in-process) pointed at it; see test/e2e/harness.ts.
 * - `newSandbox(options)`: one more sandbox, for a describe block or a test that needs another one
 *   (no seed, a data file built in set-up, faults) beside the file's or a fresh one of its own.
 *   Each is closed when the file ends, or earlier by its own close().
 * - `sb`: the sandbox's app itself (test/sandbox/helpers/sandbox.ts: buildApp on port 0, its database, a
 *   movable clock), once per file, for the tests of the sandbox's own routes; `sbOptions` as `sandboxOptions`.
 * - `newSb(options)`: one more of those, for a describe block or a test that changes what others read
 *   (players, the clock, the request log) or needs other options; closed when the file ends.
 * - `browser`: headless chromium (test/sandbox/helpers/chromium.ts), the worker process's one, shared by
 *   its files (what a file leaves open is closed at its end); a test that asks for it is skipped,
 *   saying why, where chromium cannot run.
 * - `context`: a fresh browser context of that chromium for one test (no cookie or storage of
 *   another test), closed when the test ends.
 * - `sharedContext`: the file's one browser context, its cookies cleared for each test that asks for
 *   it, closed when the file ends: a context with its first page is most of a page load's CPU in
 *   Chromium, clearing cookies next to nothing. For tests whose assertions depend on no storage,
 *   service worker or history another test may leave (the file says why); the others ask for `context`.
 * - `until`: waits on a condition (test/until.ts), never a sleep or an elapsed-time bound.
 * A file whose one sandbox is another kind makes its own `test` with `withSandboxOptions({...})`
 * at its top (not vitest's `test.override` there: it replaces the shared `test`'s fixtures for good,
 * and with `isolate: false` every later file of the worker process would get that sandbox too).
 * Helpers at the top of a file that use the sandbox bind it once:
 * `let env: TestEnv; beforeAll(({ sandbox }) => { env = sandbox; });` (suite hooks get file fixtures).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base } from 'vitest';
import { runInProcess, startTestEnv, type CliResult, type RunOptions, type TestEnv } from './e2e/harness.js';
import type { Browser, BrowserContext } from 'playwright-core';
import { ensureChromium, releaseChromium, sharedChromium } from './sandbox/helpers/chromium.js';
import { startTestSandbox, type TestSandbox } from './sandbox/helpers/sandbox.js';
import { until } from './until.js';

export interface Dirs {
  configDir: string;
  dataDir: string;
  /** UDCLI_CONFIG_DIR and UDCLI_DATA_DIR naming them. */
  env: { UDCLI_CONFIG_DIR: string; UDCLI_DATA_DIR: string };
  /** main in-process with this environment (and `options.env` on top). */
  run(args: string[], options?: RunOptions): Promise<CliResult>;
}

export type SandboxOptions = NonNullable<Parameters<typeof startTestEnv>[0]>;
/** One more sandbox with these options, closed when the file ends (or by its own close()). */
export type NewSandbox = (options?: SandboxOptions) => Promise<TestEnv>;

export type SbOptions = NonNullable<Parameters<typeof startTestSandbox>[0]>;
/** One more app sandbox with these options, closed when the file ends (or by its own close()). */
export type NewSb = (options?: SbOptions) => Promise<TestSandbox>;

/** Starts what `start` makes on demand, and closes each still open when the file ends. */
function closedAtEnd<O, T extends { close(): Promise<void> }>(
  start: (options?: O) => Promise<T>,
  onCleanup: (fn: () => Promise<void>) => void,
): (options?: O) => Promise<T> {
  const open = new Set<T>();
  onCleanup(async () => {
    await Promise.all([...open].map((one) => one.close()));
  });
  return async (options) => {
    const one = await start(options);
    open.add(one);
    // A test may close its own early (to free the port or the database); the file's end then skips it.
    return { ...one, close: () => (open.delete(one) ? one.close() : Promise.resolve()) };
  };
}

export const test = base
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern: none
  .extend('newSandbox', { scope: 'file' }, ({}, { onCleanup }): NewSandbox => closedAtEnd(startTestEnv, onCleanup))
  .extend('sandboxOptions', { scope: 'file' }, {} as SandboxOptions)
  .extend('sandbox', { scope: 'file' }, ({ sandboxOptions, newSandbox }) => newSandbox(sandboxOptions))
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern: none
  .extend('newSb', { scope: 'file' }, ({}, { onCleanup }): NewSb => closedAtEnd(startTestSandbox, onCleanup))
  .extend('sbOptions', { scope: 'file' }, {} as SbOptions)
  .extend('sb', { scope: 'file' }, ({ sbOptions, newSb }) => newSb(sbOptions))
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern: none
  .extend('dirs', async ({}, { onCleanup }): Promise<Dirs> => {
    const root = mkdtempSync(join(tmpdir(), 'udcli-dirs-'));
    onCleanup(() => rmSync(root, { recursive: true, force: true }));
    const env = { UDCLI_CONFIG_DIR: join(root, 'config'), UDCLI_DATA_DIR: join(root, 'data') };
    return {
      configDir: env.UDCLI_CONFIG_DIR,
      dataDir: env.UDCLI_DATA_DIR,
      env,
      run: (args, o = {}) => runInProcess(args, { ...env, ...o.env }, o.input === undefined ? {} : { input: o.input }),
    };
  })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern: none
  .extend('chromium', { scope: 'file' }, async ({}, { onCleanup }) => {
    const unavailable = ensureChromium();
    if (unavailable !== null) {
      console.warn(`skipping the browser tests: ${unavailable}`);
      return { browser: null, unavailable };
    }
    const browser = await sharedChromium();
    onCleanup(releaseChromium);
    return { browser, unavailable };
  })
  .extend('browser', ({ chromium, skip }): Browser => {
    skip(chromium.browser === null, chromium.unavailable ?? '');
    return chromium.browser!;
  })
  .extend('context', async ({ browser }, { onCleanup }): Promise<BrowserContext> => {
    const context = await browser.newContext();
    onCleanup(() => context.close());
    return context;
  })
  .extend('fileContext', { scope: 'file' }, async ({ chromium }, { onCleanup }): Promise<BrowserContext | null> => {
    if (chromium.browser === null) return null;
    const context = await chromium.browser.newContext();
    onCleanup(() => context.close());
    return context;
  })
  .extend('sharedContext', async ({ chromium, fileContext, skip }): Promise<BrowserContext> => {
    skip(fileContext === null, chromium.unavailable ?? '');
    await fileContext!.clearCookies();
    return fileContext!;
  })
  .extend('until', { scope: 'file' }, () => until);

/**
 * A `test` whose file sandbox is started with these options, for a file that needs another kind
 * (no seed, faults); `test` itself, which the worker process's other files share, is left as it is.
 */
export function withSandboxOptions(options: SandboxOptions): typeof test {
  return test.extend('sandboxOptions', { scope: 'file' }, options);
}

/**
 * The file's sandbox, for the helpers at the top of a file (they have no test context): the same
 * `sandbox` the tests get, bound in a beforeAll, so read it in tests and hooks only.
 */
export function fileSandbox(): TestEnv {
  let env: TestEnv | undefined;
  beforeAll(({ sandbox }) => {
    env = sandbox;
  });
  const bound = (): TestEnv => {
    if (env === undefined) throw new Error("fileSandbox(): the file's sandbox is read before its beforeAll ran");
    return env;
  };
  return new Proxy({} as TestEnv, {
    get: (_, key) => Reflect.get(bound(), key),
    has: (_, key) => Reflect.has(bound(), key),
    ownKeys: () => Reflect.ownKeys(bound()),
    getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(bound(), key),
  });
}

export { describe, expect } from 'vitest';
export const it = test;
// The hooks of `test`, not vitest's own: only these are handed the fixtures (suite hooks the file's).
export const beforeAll: typeof test.beforeAll = test.beforeAll.bind(test);
export const afterAll: typeof test.afterAll = test.afterAll.bind(test);
export const beforeEach: typeof test.beforeEach = test.beforeEach.bind(test);
export const afterEach: typeof test.afterEach = test.afterEach.bind(test);
