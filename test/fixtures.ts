/**
 * The shared fixtures of command tests (vitest's test.extend): import `test` from here instead of
 * vitest and ask for what the test needs by name.
 * - `dirs`: a fresh temporary config and data directory, for one test (nothing of the user's).
 * - `sandbox`: the foreground sandbox on port 0 over a temporary database seeded with the demo
 *   data, once per file, with run() (main in-process) pointed at it; see test/e2e/harness.ts.
 * - `newSandbox(options)`: one more sandbox, for a describe block or a test that needs another one
 *   (no seed, a data file built in set-up, faults) beside the file's or a fresh one of its own.
 *   Each is closed when the file ends, or earlier by its own close().
 * - `until`: waits on a condition (test/until.ts), never a sleep or an elapsed-time bound.
 * A file whose one sandbox is another kind says so with `test.override('sandboxOptions', {...})`
 * at its top. Helpers at the top of a file that use the sandbox bind it once:
 * `let env: TestEnv; beforeAll(({ sandbox }) => { env = sandbox; });` (suite hooks get file fixtures).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base } from 'vitest';
import { runInProcess, startTestEnv, type CliResult, type RunOptions, type TestEnv } from './e2e/harness.js';
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

export const test = base
  .extend('sandboxOptions', { scope: 'file' }, {} as SandboxOptions)
  .extend('sandbox', { scope: 'file' }, async ({ sandboxOptions }, { onCleanup }): Promise<TestEnv> => {
    const env = await startTestEnv(sandboxOptions);
    onCleanup(() => env.close());
    return env;
  })
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from this pattern: none
  .extend('newSandbox', { scope: 'file' }, async ({}, { onCleanup }): Promise<NewSandbox> => {
    const open = new Set<TestEnv>();
    onCleanup(async () => {
      await Promise.all([...open].map((env) => env.close()));
    });
    return async (options = {}) => {
      const env = await startTestEnv(options);
      open.add(env);
      // A test may close its own early (to free the port or the database); the file's end then skips it.
      return { ...env, close: () => (open.delete(env) ? env.close() : Promise.resolve()) };
    };
  })
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from this pattern: none
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
  .extend('until', { scope: 'file' }, () => until);

export { describe, expect } from 'vitest';
export const it = test;
// The hooks of `test`, not vitest's own: only these are handed the fixtures (suite hooks the file's).
export const beforeAll: typeof test.beforeAll = test.beforeAll.bind(test);
export const afterAll: typeof test.afterAll = test.afterAll.bind(test);
export const beforeEach: typeof test.beforeEach = test.beforeEach.bind(test);
export const afterEach: typeof test.afterEach = test.afterEach.bind(test);
