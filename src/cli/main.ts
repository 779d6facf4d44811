/**
 * The entry point: builds the program, runs the one command, and is the only place that
 * prints errors and turns them into exit codes (via src/cli/exit-codes.ts).
 */
import { guardStdout } from '../output/pipe.js';
import { printable, printableLines } from '../printable.js';
import { DefaultFactory, processIO } from './default-factory.js';
import { describeError } from './exit-codes.js';
import type { IOStreams } from '../ops/factory.js';
import { scanArgv } from './global-options.js';
import { COMMANDS, type CommandEntry } from './commands.js';
import { argvToParse, buildProgram } from './program.js';

function report(error: unknown, io: IOStreams, factory: DefaultFactory, verbose: boolean): number {
  const baseUrl = factory.effectiveBaseUrl();
  const { code, message, hint, internal } = describeError(error, baseUrl ? { baseUrl } : {});
  if (message !== undefined) {
    // A message may quote a server's reply or a user's input: nothing in it a terminal acts on (our own line breaks
    // kept).
    io.stderr.write(`udcli: ${message.split('\n').map(printable).join('\n')}\n`);
    if (hint) io.stderr.write(`${hint.split('\n').map(printable).join('\n')}\n`);
    if (internal && verbose && error instanceof Error && error.stack)
      io.stderr.write(`${printableLines(error.stack)}\n`);
  }
  return code;
}

export function main(argv: string[], io: IOStreams = processIO()): Promise<number> {
  return runCommandLine(argv, io, COMMANDS);
}

/** main with the command table passed in (tests use their own commands). */
export async function runCommandLine(
  argv: string[],
  io: IOStreams,
  commands: readonly CommandEntry[],
): Promise<number> {
  guardStdout(io.stdout);
  const factory = new DefaultFactory(io);
  // --verbose as typed, for a stack trace even when the options themselves did not parse.
  const verbose = (): boolean => factory.globals().verbose || scanArgv(argv).verbose;
  let code = 0;
  try {
    const program = await buildProgram(
      argv,
      factory,
      { onGlobals: (g, game) => factory.setGlobals(g, game) },
      commands,
    );
    if (argv.length === 0) {
      program.outputHelp();
    } else {
      await program.parseAsync(argvToParse(argv, commands), { from: 'user' });
    }
  } catch (error) {
    code = report(await factory.explain(error), io, factory, verbose());
  }
  try {
    await factory.dispose();
  } catch (error) {
    const disposeCode = report(error, io, factory, verbose());
    if (code === 0) code = disposeCode;
  }
  return code;
}
