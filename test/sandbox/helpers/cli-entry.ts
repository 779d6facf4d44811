// `udcli` for child processes in tests, with only the sandbox command:
// `node --import register-ts.mjs cli-entry.ts sandbox start ...`.
import { Command } from 'commander';
import { register } from '../../../src/cli/commands/sandbox/index.js';
import { processIO } from '../../../src/cli/default-factory.js';
import type { Factory } from '../../../src/ops/factory.js';
import { SANDBOX_COMMAND_GLOBALS } from './factory.js';

const factory: Factory = {
  io: {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    env: process.env,
    // Real signals: the tests stop this process with SIGTERM/SIGINT.
    onSignals: processIO().onSignals,
  },
  globals: () => ({ ...SANDBOX_COMMAND_GLOBALS }),
  settings: () => Promise.reject(new Error('unused')),
  client: () => Promise.reject(new Error('unused')),
  output: () => Promise.reject(new Error('unused')),
  dispose: async () => undefined,
};

const program = new Command('udcli').exitOverride();
register(program, factory);
try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.stderr.write(`udcli: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
