/**
 * The global options of docs/CLI.md, defined on the program. They work before or after the
 * subcommand: without positional options, commander lets the program take its own options
 * anywhere on the line (up to `--`) and hands the rest to the subcommand. Values are taken
 * only where the user typed them (value source 'cli') and validated here, once, before any
 * command runs.
 */
import type { Command } from 'commander';
import { Option } from './commander.js';
import { normalizeApiKeyValue, normalizeUrl } from '../config/keys.js';
import { UsageError } from '../errors.js';
import { parseInteger } from '../ops/args.js';
import type { GlobalOptions } from '../ops/factory.js';
import type { OutputFormat } from '../output/types.js';

export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'json', 'ndjson', 'csv'];
export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_RETRIES = 2;

export interface GlobalSpec {
  flags: string;
  description: string;
  /** Commander's attribute name. */
  name: string;
  /** Takes a value (used to skip it while looking for the command name in argv). */
  takesValue: boolean;
}

export const GLOBAL_OPTIONS: readonly GlobalSpec[] = [
  {
    flags: '--profile <name>',
    description: 'use this profile (default: UDCLI_PROFILE, the current one, or sandbox)',
    name: 'profile',
    takesValue: true,
  },
  {
    flags: '-o, --output <format>',
    description: `output format: ${OUTPUT_FORMATS.join('|')} (default: table on a terminal, json otherwise)`,
    name: 'output',
    takesValue: true,
  },
  { flags: '--json', description: 'same as --output json', name: 'json', takesValue: false },
  { flags: '--raw', description: 'print the reply body exactly as received', name: 'raw', takesValue: false },
  {
    flags: '--fields <list>',
    description: 'comma-separated fields to show, e.g. uid,username',
    name: 'fields',
    takesValue: true,
  },
  {
    flags: '--base-url <url>',
    description: 'service base URL (overrides UDCLI_BASE_URL and the profile)',
    name: 'baseUrl',
    takesValue: true,
  },
  {
    flags: '--api-key <key>',
    description: 'api key, 32 hex digits or a UUID (overrides UDCLI_API_KEY and the profile)',
    name: 'apiKey',
    takesValue: true,
  },
  {
    flags: '--timeout <ms>',
    description: `request timeout in milliseconds (default: ${DEFAULT_TIMEOUT_MS})`,
    name: 'timeout',
    takesValue: true,
  },
  {
    flags: '--retries <n>',
    description: `retries for requests safe to repeat (default: ${DEFAULT_RETRIES})`,
    name: 'retries',
    takesValue: true,
  },
  {
    flags: '-v, --verbose',
    description: 'print requests and replies on stderr, secrets redacted',
    name: 'verbose',
    takesValue: false,
  },
  { flags: '--no-color', description: 'no colour (also NO_COLOR)', name: 'color', takesValue: false },
  { flags: '-q, --quiet', description: 'no status messages on stderr', name: 'quiet', takesValue: false },
  { flags: '-y, --yes', description: 'do not ask for confirmation', name: 'yes', takesValue: false },
  {
    flags: '--har <file>',
    description:
      "add every HTTP exchange to FILE as HAR 1.2, secrets and players' emails and birthdays replaced by placeholders (also UDCLI_HAR)",
    name: 'har',
    takesValue: true,
  },
  {
    flags: '--har-keep-personal',
    description: "with --har: record players' emails and birthdays as they came",
    name: 'harKeepPersonal',
    takesValue: false,
  },
];

/** Defines the global options on the program: all of them, or those globalsFor(argv) names. */
export function addGlobalOptions(program: Command, specs: readonly GlobalSpec[] = GLOBAL_OPTIONS): void {
  for (const spec of specs) program.addOption(new Option(spec.flags, spec.description));
}

/**
 * The global options a command line needs defined: only those it types, when every option on it (up to `--`) is a
 * global one and it runs a verb. An option not typed changes nothing of the parse (no global has a commander
 * default: parseGlobals fills them in), and commander builds each for a share of every start-up (issue 43). All of
 * them otherwise: help lists them, and for an option it does not know commander suggests the nearest, globals
 * included (the command's own options are not known yet, so any other option counts as unknown here).
 */
export function globalsFor(argv: readonly string[]): readonly GlobalSpec[] {
  if (verbToRun(argv) === undefined) return GLOBAL_OPTIONS;
  const typed = new Set<GlobalSpec>();
  for (const arg of argv) {
    if (arg === '--') break;
    if (!arg.startsWith('-') || arg === '-') continue;
    const flag = arg.startsWith('--') ? arg.split('=', 1)[0]! : arg;
    const spec = GLOBAL_OPTIONS.find((g) => g.flags.split(/[ ,]+/).includes(flag));
    if (spec === undefined) return GLOBAL_OPTIONS;
    typed.add(spec);
  }
  return GLOBAL_OPTIONS.filter((g) => typed.has(g));
}

/** What the user typed for the global options (the program holds them wherever they were typed). */
export function typedGlobals(program: Command): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const spec of GLOBAL_OPTIONS) {
    if (program.getOptionValueSource(spec.name) === 'cli') raw[spec.name] = program.getOptionValue(spec.name);
  }
  return raw;
}

/** Validates the raw values and fills in defaults. Throws UsageError (exit 2). */
export function parseGlobals(raw: Record<string, unknown>): GlobalOptions {
  const globals: GlobalOptions = {
    raw: raw.raw === true,
    timeoutMs:
      raw.timeout === undefined ? DEFAULT_TIMEOUT_MS : parseInteger(String(raw.timeout), '--timeout', { min: 1 }),
    retries: raw.retries === undefined ? DEFAULT_RETRIES : parseInteger(String(raw.retries), '--retries', { min: 0 }),
    verbose: raw.verbose === true,
    color: raw.color !== false,
    quiet: raw.quiet === true,
    yes: raw.yes === true,
  };
  if (typeof raw.profile === 'string') {
    if (!raw.profile.trim()) throw new UsageError('invalid --profile: expected a profile name');
    globals.profile = raw.profile.trim();
  }
  if (raw.output !== undefined) {
    const format = String(raw.output).trim().toLowerCase();
    if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) {
      throw new UsageError(
        `invalid --output ${JSON.stringify(String(raw.output))}: expected one of ${OUTPUT_FORMATS.join(', ')}`,
      );
    }
    globals.output = format as OutputFormat;
  }
  if (raw.json === true) {
    if (globals.output && globals.output !== 'json') {
      throw new UsageError(`--json conflicts with --output ${globals.output}`);
    }
    globals.output = 'json';
  }
  if (raw.fields !== undefined) {
    const fields = String(raw.fields)
      .split(',')
      .map((f) => f.trim())
      .filter((f) => f !== '');
    if (fields.length === 0)
      throw new UsageError('invalid --fields: expected a comma-separated list such as uid,username');
    globals.fields = fields;
  }
  if (raw.har !== undefined) {
    if (!String(raw.har).trim()) throw new UsageError('invalid --har: expected a file name');
    globals.har = String(raw.har);
  }
  if (raw.harKeepPersonal === true) globals.harKeepPersonal = true;
  if (raw.baseUrl !== undefined) globals.baseUrl = normalizeUrl(String(raw.baseUrl), '--base-url');
  if (raw.apiKey !== undefined) globals.apiKey = normalizeApiKeyValue(String(raw.apiKey), '--api-key');
  return globals;
}

export interface ArgvScan {
  /** The first operand: the top-level command name (or `help`). */
  command?: string;
  /** Where `command` is in argv. */
  commandIndex?: number;
  /** For `udcli help <command>`: the command asked about. */
  helpTarget?: string;
  verbose: boolean;
}

const VALUE_FLAGS = new Set<string>();
const SHORT_VALUE_FLAGS = new Set<string>();
for (const spec of GLOBAL_OPTIONS) {
  if (!spec.takesValue) continue;
  for (const flag of spec.flags.split(/[ ,]+/)) {
    if (flag.startsWith('--')) VALUE_FLAGS.add(flag);
    else if (/^-[A-Za-z]$/.test(flag)) SHORT_VALUE_FLAGS.add(flag[1]!);
  }
}

/**
 * Finds the command name without parsing, so that only its module is loaded. Global options
 * (and their values) before it are skipped; `--` ends the search.
 */
export function scanArgv(argv: readonly string[]): ArgvScan {
  const { operands, commandIndex, verbose } = scanOperands(argv);
  const scan: ArgvScan = { verbose };
  if (operands[0] !== undefined) scan.command = operands[0];
  if (commandIndex !== undefined) scan.commandIndex = commandIndex;
  if (operands[0] === 'help' && operands[1] !== undefined) scan.helpTarget = operands[1];
  return scan;
}

/**
 * The verb a noun's command line runs (`inc` of `udcli achievements inc UID X`), when it asks for no help: the one
 * subcommand the noun has to build. Undefined for help in any form, which lists them all.
 */
export function verbToRun(argv: readonly string[]): string | undefined {
  const end = argv.indexOf('--');
  const before = end < 0 ? argv : argv.slice(0, end);
  if (before.some((a) => a === '--help' || /^-[A-Za-z]*h/.test(a))) return undefined;
  const { operands } = scanOperands(argv);
  return operands[0] === 'help' ? undefined : operands[1];
}

/** The first two operands (global options and their values skipped), where the first is, and -v/--verbose. */
function scanOperands(argv: readonly string[]): { operands: string[]; commandIndex?: number; verbose: boolean } {
  const operands: string[] = [];
  let commandIndex: number | undefined;
  let verbose = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg === '--verbose') verbose = true;
    else if (/^-[A-Za-z]+$/.test(arg)) {
      // a group of short flags such as -vq or -ojson
      for (let j = 1; j < arg.length; j++) {
        const ch = arg[j]!;
        if (ch === 'v') verbose = true;
        if (SHORT_VALUE_FLAGS.has(ch)) {
          if (j === arg.length - 1) i++;
          break;
        }
      }
      continue;
    }
    if (arg.startsWith('-')) {
      if (VALUE_FLAGS.has(arg)) i++;
      continue;
    }
    if (operands.length === 0) commandIndex = i;
    if (operands.length < 2) operands.push(arg);
  }
  return commandIndex === undefined ? { operands, verbose } : { operands, commandIndex, verbose };
}
