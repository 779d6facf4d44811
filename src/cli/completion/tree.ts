/**
 * The command tree as completion sees it, read from a commander program on which every
 * command module has registered: commands and their aliases, options (own and global), the
 * values an option or argument takes. The shell generators (bash.ts, zsh.ts, fish.ts) only
 * read this model, so all three complete the same things.
 */
import { Help, type Argument, type Command, type Option } from '../commander.js';
import { buildProgram } from '../program.js';
import type { CommandEntry } from '../commands.js';
import type { Factory } from '../../ops/factory.js';
import { VALUE_HINTS, type ValueHint } from './hints.js';

/** Where the values of an option or argument come from. */
export type ValueSource =
  | { kind: 'choices'; values: readonly string[] }
  /** Profile names, read at completion time through `udcli __complete profiles`. */
  | { kind: 'profiles' }
  /** Snapshot names of the local sandbox, read through `udcli __complete snapshots`. */
  | { kind: 'snapshots' }
  | { kind: 'files' };

export interface OptionNode {
  /** `-o` */
  short?: string;
  /** `--output` */
  long?: string;
  description: string;
  takesValue: boolean;
  values?: ValueSource;
}

export interface ArgumentNode {
  name: string;
  variadic: boolean;
  values?: ValueSource;
}

export interface CommandNode {
  name: string;
  aliases: string[];
  description: string;
  /** From the program down, e.g. ['udcli', 'achievements', 'list']. */
  path: string[];
  /** The command's own options: not the global ones, not -h/--help. */
  options: OptionNode[];
  arguments: ArgumentNode[];
  /** Visible subcommands only (hidden ones such as `__complete` are left out). */
  subcommands: CommandNode[];
}

export interface CompletionTree {
  root: CommandNode;
  /** The program's options and -h/--help: accepted after any command. */
  globalOptions: OptionNode[];
  /** Hints in hints.ts that matched no option or argument (tests keep this empty). */
  unusedHints: ValueHint[];
}

/** Values asked of `udcli __complete KIND` while the user presses Tab. */
export type DynamicValues = Extract<ValueSource, { kind: 'profiles' | 'snapshots' }>;

export function isDynamic(source: ValueSource): source is DynamicValues {
  return source.kind === 'profiles' || source.kind === 'snapshots';
}

/** An option's flags as typed: `-o`, `--output`. */
export function flagsOf(option: OptionNode): string[] {
  return [option.short, option.long].filter((f): f is string => f !== undefined);
}

/** The space-separated path, e.g. `udcli achievements list`: the key the scripts use. */
export function pathKey(node: CommandNode): string {
  return node.path.join(' ');
}

/** Every command, the program first, parents before children. */
export function allCommands(tree: CompletionTree): CommandNode[] {
  const out: CommandNode[] = [];
  const visit = (node: CommandNode): void => {
    out.push(node);
    node.subcommands.forEach(visit);
  };
  visit(tree.root);
  return out;
}

/** The global options a command's own options shadow (same flag). */
export function shadowedGlobals(tree: CompletionTree, node: CommandNode): OptionNode[] {
  const own = new Set(node.options.flatMap(flagsOf));
  return tree.globalOptions.filter((g) => flagsOf(g).some((f) => own.has(f)));
}

/** The global options an own option shadows (those sharing a flag with it). */
export function globalsShadowedBy(tree: CompletionTree, option: OptionNode): OptionNode[] {
  const flags = new Set(flagsOf(option));
  return tree.globalOptions.filter((g) => flagsOf(g).some((f) => flags.has(f)));
}

/** Own options, then the global ones not shadowed. */
export function effectiveOptions(tree: CompletionTree, node: CommandNode): OptionNode[] {
  const shadowed = new Set(shadowedGlobals(tree, node));
  return [...node.options, ...tree.globalOptions.filter((g) => !shadowed.has(g))];
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').trim();
}

/** `<file>` in `--journal <file>`. */
function placeholder(flags: string): string | undefined {
  return /[<[]([^>\]]+)[>\]]/.exec(flags)?.[1];
}

class HintTable {
  readonly #hints: readonly ValueHint[];
  readonly #used = new Set<ValueHint>();

  constructor(hints: readonly ValueHint[]) {
    this.#hints = hints;
  }

  find(command: string, match: (h: ValueHint) => boolean): ValueSource | undefined {
    const hint =
      this.#hints.find((h) => h.command === command && match(h)) ??
      this.#hints.find((h) => h.command === '*' && match(h));
    if (hint) this.#used.add(hint);
    return hint?.values;
  }

  unused(): ValueHint[] {
    return this.#hints.filter((h) => !this.#used.has(h));
  }
}

function optionNode(option: Option, command: string, hints: HintTable): OptionNode {
  const node: OptionNode = {
    description: firstLine(option.description),
    takesValue: option.required || option.optional,
  };
  if (option.short) node.short = option.short;
  if (option.long) node.long = option.long;
  if (node.takesValue) {
    const values: ValueSource | undefined = option.argChoices
      ? { kind: 'choices', values: [...option.argChoices] }
      : (hints.find(command, (h) => h.option !== undefined && flagsOf(node).includes(h.option)) ??
        (placeholder(option.flags) === 'file' ? { kind: 'files' } : undefined));
    if (values) node.values = values;
  }
  return node;
}

function argumentNode(argument: Argument, index: number, command: string, hints: HintTable): ArgumentNode {
  const node: ArgumentNode = { name: argument.name(), variadic: argument.variadic };
  const values: ValueSource | undefined = argument.argChoices
    ? { kind: 'choices', values: [...argument.argChoices] }
    : hints.find(command, (h) => h.argument === index);
  if (values) node.values = values;
  return node;
}

function commandNode(cmd: Command, path: string[], help: Help, hints: HintTable, siblings: string[]): CommandNode {
  const command = path.slice(1).join(' ');
  const isHelp = cmd.name() === 'help' && path.length > 1;
  const options =
    path.length === 1 ? [] : cmd.options.filter((o) => !o.hidden).map((o) => optionNode(o, command, hints));
  const args = cmd.registeredArguments.map((a, i) => argumentNode(a, i, command, hints));
  // `help [command]` (the program's and commander's implicit one on each group) names a sibling.
  if (isHelp && args[0] && !args[0].values) args[0].values = { kind: 'choices', values: siblings };
  const visible = help.visibleCommands(cmd);
  const names = visible.map((c) => c.name()).filter((n) => n !== 'help');
  return {
    name: cmd.name(),
    aliases: [...cmd.aliases()],
    description: firstLine(cmd.description()),
    path,
    options,
    arguments: args,
    subcommands: visible.map((c) => commandNode(c, [...path, c.name()], help, hints, names)),
  };
}

/** Reads the model from a program on which every command has registered. */
export function treeOf(program: Command, hints: readonly ValueHint[] = VALUE_HINTS): CompletionTree {
  const help = new Help();
  const table = new HintTable(hints);
  const root = commandNode(program, [program.name()], help, table, []);
  // The program's options work after any command; -h/--help is on every command.
  const globalOptions = help.visibleOptions(program).map((o) => optionNode(o, '', table));
  return { root, globalOptions, unusedHints: table.unused() };
}

/**
 * A fresh program (the same root as every run: global options, --version, help) with every
 * entry of the command table loaded and registered. Loads every command module: only
 * `udcli completion` does this.
 */
export async function loadProgram(commands: readonly CommandEntry[], factory: Factory): Promise<Command> {
  const program = await buildProgram([], factory, { onGlobals: () => {} }, []);
  for (const entry of commands) {
    const module = await entry.load();
    await module.register(program, factory);
  }
  return program;
}

export async function loadTree(commands: readonly CommandEntry[], factory: Factory): Promise<CompletionTree> {
  return treeOf(await loadProgram(commands, factory));
}
