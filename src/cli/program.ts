/**
 * The commander program. Only the module of the command being run is loaded: `udcli --help`
 * lists the COMMANDS table without importing any command module, and nothing here imports
 * undici, chalk, cli-table3, ora, fastify, yaml or better-sqlite3 (test/e2e/startup.test.ts checks).
 */
import { packageVersion } from '../package-paths.js';
import { Command, Help } from './commander.js';
import { COMMANDS, type CommandEntry } from './commands.js';
import type { Factory, IOStreams } from '../ops/factory.js';
import { addGlobalOptions, globalsFor, parseGlobals, scanArgv, typedGlobals, verbToRun } from './global-options.js';
import { setVerbToRun } from './running-verb.js';
import type { GlobalOptions } from '../ops/factory.js';
import { UsageError } from '../errors.js';
import { NOT_COMMANDS } from './batch-help.js';
import { formatHelpItem, wrapHelpText } from './help-wrap.js';

export const PROGRAM_EXAMPLES = `
Examples:
  $ udcli user demo_player                      look a user up on the local sandbox
  $ udcli friends 01e528d59829836fd23b09085b56edab --all -o csv
  $ udcli achievements reset @testers.txt FIRST_WIN --journal run.jsonl
  $ udcli profile add live --base-url https://api.example.com --api-key KEY --signing-secret S
  $ udcli --profile live doctor

Run 'udcli help <command>' for the options of a command.`;

export interface ProgramHooks {
  /**
   * Called with the validated global options before any action runs, and the game the command
   * names with its own --game (outside `sandbox`, where --game is the game to serve).
   */
  onGlobals(globals: GlobalOptions, commandGame?: string): void;
}

/**
 * Help wraps at the terminal's width, as commander's own wrapping does; off a terminal at 80
 * columns. The root help is rendered once at build time at 80 (scripts/render-root-help.js):
 * bin/udcli.js prints it only where it is what this would print.
 */
export const HELP_WIDTH = 80;

function helpWidth(isTTY: boolean, stream: NodeJS.WritableStream): number {
  const columns = isTTY ? (stream as { columns?: number }).columns : undefined;
  return columns && columns > 0 ? columns : HELP_WIDTH;
}

/**
 * Subcommand help laid out as gh does: the command's own options and subcommands first, the
 * global options every command inherits last; and none twice: a global option the command also
 * defines itself (`profile add --base-url`, `audit --profile`) is listed once, as the command's.
 */
const HELP_LAYOUT: Partial<Help> = {
  showGlobalOptions: true,
  visibleGlobalOptions(this: Help, cmd) {
    const own = new Set(cmd.options.map((o) => o.long));
    return Help.prototype.visibleGlobalOptions.call(this, cmd).filter((o) => !own.has(o.long));
  },
  formatHelp(this: Help, cmd, helper) {
    return globalOptionsLast(Help.prototype.formatHelp.call(this, cmd, helper));
  },
  formatItem(this: Help, term, termWidth, description) {
    return formatHelpItem(term, termWidth, description, this.helpWidth ?? HELP_WIDTH);
  },
};

/** Moves the "Global Options:" section (its heading to the blank line after it) to the end. */
export function globalOptionsLast(text: string): string {
  const lines = text.split('\n');
  const start = lines.indexOf('Global Options:');
  if (start < 0) return text;
  const end = lines.indexOf('', start);
  if (end < 0) return text;
  const section = lines.splice(start, end - start + 1);
  return [...lines, ...section].join('\n');
}

/** Applies the settings every command shares; commander copies them only to `.command()` children. */
function configure(cmd: Command, io: IOStreams): void {
  cmd
    .exitOverride()
    .configureOutput({
      // Help (and --version) only: every line fits the width, wrapped at a space (help-wrap.ts).
      writeOut: (s) => io.stdout.write(wrapHelpText(s, helpWidth(io.stdoutIsTTY, io.stdout))),
      writeErr: (s) => io.stderr.write(wrapHelpText(s, helpWidth(io.stderrIsTTY, io.stderr))),
      getOutHelpWidth: () => helpWidth(io.stdoutIsTTY, io.stdout),
      getErrHelpWidth: () => helpWidth(io.stderrIsTTY, io.stderr),
      // main prints the error (one line); commander's own copy is dropped.
      outputError: () => {},
    })
    .showSuggestionAfterError(true)
    .configureHelp(HELP_LAYOUT);
}

function configureTree(cmd: Command, io: IOStreams): void {
  for (const sub of cmd.commands) {
    configure(sub, io);
    configureTree(sub, io);
  }
}

/** An entry's line of `udcli --help`; a noun's mutating verbs as the change registry declares them. */
async function summaryOf(entry: CommandEntry): Promise<string> {
  if (typeof entry.summary === 'string') return entry.summary;
  const { changeVerbs } = await import('./change-registry.js');
  return entry.summary(await changeVerbs(entry.name));
}

/** The entry whose module must be loaded for this argv, if any. */
export function entryFor(
  argv: readonly string[],
  commands: readonly CommandEntry[] = COMMANDS,
): CommandEntry | undefined {
  const scan = scanArgv(argv);
  const name = scan.command === 'help' ? scan.helpTarget : scan.command;
  return name === undefined ? undefined : commands.find((c) => c.name === name);
}

/** The pointer for a name that is no command but is often tried (`udcli batch`, `udcli help batch`). */
function notCommand(argv: readonly string[]): string | undefined {
  const scan = scanArgv(argv);
  const name = scan.command === 'help' ? scan.helpTarget : scan.command;
  return name !== undefined && Object.hasOwn(NOT_COMMANDS, name) ? NOT_COMMANDS[name] : undefined;
}

/**
 * The argv to parse: `help <name>` for a name that is no command becomes `<name>`, so the
 * answer is commander's "unknown command ... (did you mean ...?)" rather than the full help.
 */
export function argvToParse(argv: readonly string[], commands: readonly CommandEntry[] = COMMANDS): string[] {
  const scan = scanArgv(argv);
  if (scan.command !== 'help' || scan.helpTarget === undefined || scan.commandIndex === undefined) return [...argv];
  if (commands.some((c) => c.name === scan.helpTarget)) return [...argv];
  return argv.filter((_, i) => i !== scan.commandIndex);
}

export async function buildProgram(
  argv: readonly string[],
  factory: Factory,
  hooks: ProgramHooks,
  commands: readonly CommandEntry[] = COMMANDS,
): Promise<Command> {
  const program = new Command('udcli');
  configure(program, factory.io);
  program
    .description('Command-line tool and local sandbox for the User Data REST Service')
    .usage('<command> [options]')
    .version(packageVersion(), '--version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command]', 'show help for a command')
    .addHelpText('after', PROGRAM_EXAMPLES);
  addGlobalOptions(program, globalsFor(argv));

  const entry = entryFor(argv, commands);
  const pointer = entry ? undefined : notCommand(argv);
  if (pointer !== undefined) throw new UsageError(pointer);
  if (entry) {
    setVerbToRun(program, verbToRun(argv));
    const module = await entry.load();
    await module.register(program, factory);
  } else {
    // Help, no command, or an unknown one (commander suggests the nearest name): list them all but the hidden ones.
    for (const c of commands) if (!c.hidden) program.command(c.name).description(await summaryOf(c));
  }
  configureTree(program, factory.io);

  program.hook('preAction', (_root, action) => {
    const game: unknown = action.opts().game;
    // `sandbox diff --game` names the game to read, as outside `sandbox`.
    const underSandbox =
      action.parent !== null &&
      action.parent !== program &&
      action.parent.name() === 'sandbox' &&
      action.name() !== 'diff';
    hooks.onGlobals(parseGlobals(typedGlobals(program)), typeof game === 'string' && !underSandbox ? game : undefined);
  });
  return program;
}
