/**
 * The shared fixtures of command tests (vitest's test.extend): import `test` from here instead of
 * vitest and ask for what the test needs by name.
 * - `dirs`: a fresh temporary config and data directory, for one test (nothing of the user's).
 * - `sandbox`: the foreground sandbox on port 0 over a temporary database seeded with the demo
 *   data, once per file, with run() (main in-process) pointed at it; see test/e2e/harness.ts.
 * - `until`: waits on a condition (test/until.ts), never a sleep or an elapsed-time bound.
 * A file that needs another sandbox (no seed, a data file, faults) says so with
 * `test.override('sandboxOptions', {...})` at its top.
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

export const test = base
  .extend('sandboxOptions', { scope: 'file' }, {} as SandboxOptions)
  .extend('sandbox', { scope: 'file' }, async ({ sandboxOptions }, { onCleanup }): Promise<TestEnv> => {
    const env = await startTestEnv(sandboxOptions);
    onCleanup(() => env.close());
    return env;
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
