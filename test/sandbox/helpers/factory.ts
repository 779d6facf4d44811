/** A Factory for command tests: captured output, a given environment, nothing else. */
import { PassThrough } from 'node:stream';
import type { Factory, GlobalOptions } from '../../../src/ops/factory.js';

export interface TestFactory extends Factory {
  stdout(): string;
  stderr(): string;
}

/** The global options a sandbox command sees when none is given: plain output, no prompts. */
export const SANDBOX_COMMAND_GLOBALS: GlobalOptions = {
  raw: false,
  timeoutMs: 15_000,
  retries: 2,
  verbose: false,
  color: false,
  quiet: false,
  yes: false,
};

export function testFactory(env: NodeJS.ProcessEnv, globals: Partial<GlobalOptions> = {}): TestFactory {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  err.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const notHere = (what: string) => () => {
    throw new Error(`${what} is not used by sandbox commands`);
  };
  return {
    io: {
      stdin: new PassThrough(),
      stdout: out,
      stderr: err,
      stdinIsTTY: false,
      stdoutIsTTY: false,
      stderrIsTTY: false,
      env,
      onSignals: () => () => {},
    },
    globals: () => ({ ...SANDBOX_COMMAND_GLOBALS, ...globals }),
    settings: notHere('settings'),
    client: notHere('client'),
    output: notHere('output'),
    dispose: async () => undefined,
    stdout: () => stdout,
    stderr: () => stderr,
  };
}
