/**
 * The change registry: every mutating verb is one declaration file in src/cli/changes/, named
 * `<noun>-<verb>.ts` and exporting `defineChange({...})` as its default. The registry finds them
 * by reading that folder when a noun registers its commands (the built file by the list the build
 * made of it: scripts/build.js), so no list of the verbs is kept by hand: the commander command
 * (arguments, options, examples, batch options) is made from the declaration, and the change
 * itself (src/batch/change.ts) is loaded only when the command runs.
 */
import type { Command } from 'commander';
import type { ChangeArgs, ChangeType } from '../batch/change-type.js';
import { addBatchOptions, type BatchFlags, type WhyFlags } from '../batch/flags.js';
import type { BatchSummary } from '../batch/runner.js';
import type { Factory } from '../ops/factory.js';
import { BATCH_USER_ARGUMENT, EXAMPLE_UID, batchExample } from './batch-help.js';
import { declarationFiles } from '../ops/args.js';
import { importDeclaration } from './change-modules.js';
import { verbToBuild } from './running-verb.js';

/** One argument after `<user>`: `developer_id` handed to the change as `developerId`. */
export interface ChangeArgument {
  name: string;
  /** Its name in the change's arguments (`developerId`). */
  key: string;
  description: string;
}

/** An option as commander takes it: `--by <n>`, its help, its default. */
export interface ChangeOption {
  flags: string;
  description: string;
  default?: string;
}

export interface ChangeSpec {
  /** `achievements inc`: the noun and the verb (the file name says the same). */
  command: string;
  /** The one line of `udcli <noun> --help`. */
  description: string;
  /** The arguments after `<user>`, in order. */
  arguments: readonly ChangeArgument[];
  /** The verb's own options, in the order help lists them (the batch options follow). */
  options?: readonly ChangeOption[];
  /**
   * The examples of its help: what follows `udcli <command>` (`UID FIRST_WIN --by 2`), or a
   * whole line that pipes into it (`{ line: 'jq -c . a.json | udcli saves set UID a -' }`).
   */
  examples: ReadonlyArray<string | { line: string }>;
  /** What follows `@users.txt` in the batch example (`LEVEL_10`). */
  batchExample?: string;
  /** Help's text before the examples, from its first line break. */
  about?: string;
  /** Where help lists the verb among its noun's subcommands (lower first; then by name). */
  order?: number;
}

/** A declaration as the registry holds it: the spec, and the change loaded when it runs. */
export interface ChangeDeclaration<Args extends ChangeArgs = ChangeArgs, Opts extends object = object>
  extends ChangeSpec {
  /** Runs the command: one user, or a batch (its summary). */
  run(factory: Factory, args: Args, opts: Opts & BatchFlags & WhyFlags): Promise<BatchSummary | undefined>;
}

/** The declaration with its change type kept typed (tests read it through `type()`). */
export type DeclaredChange<Args extends ChangeArgs, Opts extends object, I, P, S, T, A> = ChangeDeclaration<
  Args,
  Opts
> & {
  type(): Promise<ChangeType<Args, Opts, I, P, S, T, A>>;
};

/**
 * Declares one mutating verb. `type` loads the change (its client calls, audit and receipt) and
 * is called only when the command runs: registering the command loads none of that.
 */
export function defineChange<Args extends ChangeArgs, Opts extends object, I, P, S, T, A>(
  spec: ChangeSpec & { type(): Promise<ChangeType<Args, Opts, I, P, S, T, A>> },
): DeclaredChange<Args, Opts, I, P, S, T, A> {
  return {
    ...spec,
    async run(factory, args, opts) {
      const [{ runChange }, type] = await Promise.all([import('../batch/change.js'), spec.type()]);
      return runChange(factory, type, args, opts);
    },
  };
}

/** Declarations added by tests (`registerForTest`): a throwaway verb goes through the same path. */
const added: ChangeDeclaration[] = [];

/** Every declaration of a noun, in help's order; only `verb`'s when the noun has a declaration file of that name. */
export async function loadChanges(noun: string, verb?: string): Promise<ChangeDeclaration[]> {
  const ofNoun = declarationFiles().filter((m) => m[1] === noun);
  const files = ofNoun.some((m) => m[2] === verb) ? ofNoun.filter((m) => m[2] === verb) : ofNoun;
  const loaded = await Promise.all(files.map(async (m) => (await importDeclaration(m[0]!)).default));
  const all = [...loaded, ...added.filter((d) => d.command.split(' ')[0] === noun)];
  return all
    .map((d, i) => ({ d, i }))
    .sort((a, b) => (a.d.order ?? 100) - (b.d.order ?? 100) || a.i - b.i)
    .map(({ d }) => d);
}

/** The mutating verbs of a noun, in help's order (`inc`, `set`, ...): what help, completion and the tests list. */
export async function changeVerbs(noun: string): Promise<string[]> {
  return (await loadChanges(noun)).map((d) => d.command.split(' ').slice(1).join(' '));
}

/**
 * Registers a noun's mutating verbs under its commander command (`udcli achievements`): all of them, or, when the
 * command line runs one verb (src/cli/running-verb.ts), only that one: none for a verb the noun registered itself
 * (`achievements list`), just its own for a declared one (`achievements inc`), each without loading the others.
 */
export async function registerChanges(noun: Command, factory: Factory): Promise<void> {
  const verb = verbToBuild(noun);
  const own = verb !== undefined && noun.commands.some((c) => c.name() === verb || c.aliases().includes(verb));
  const declared = (d: ChangeSpec) => d.command === `${noun.name()} ${verb}`;
  if (own) return;
  const all = await loadChanges(noun.name(), verb);
  const chosen = verb !== undefined && all.some(declared) ? all.filter(declared) : all;
  for (const declaration of chosen) registerChange(noun, declaration, factory);
}

function registerChange(noun: Command, d: ChangeDeclaration, factory: Factory): void {
  const verb = d.command.split(' ').slice(1).join(' ');
  const cmd = noun.command(verb).description(d.description).argument('<user>', BATCH_USER_ARGUMENT);
  for (const a of d.arguments) cmd.argument(`<${a.name}>`, a.description);
  for (const o of d.options ?? []) {
    if (o.default === undefined) cmd.option(o.flags, o.description);
    else cmd.option(o.flags, o.description, o.default);
  }
  // Every declared change takes @FILE (the @FILE hint of other commands names them all: src/ops/args.ts).
  addBatchOptions(cmd);
  const examples = d.examples.map((e) =>
    `  $ ${typeof e === 'string' ? `udcli ${d.command} ${e}` : e.line}`.replaceAll('UID', EXAMPLE_UID),
  );
  if (d.batchExample !== undefined) examples.push(batchExample(d.command, d.batchExample));
  const heading = examples.length === 1 ? 'Example:' : 'Examples:';
  cmd.addHelpText('after', `${d.about ?? ''}\n${heading}\n${examples.join('\n')}`);
  cmd.action(async (user: string, ...rest: unknown[]) => {
    const args: Record<string, string> = { uid: user };
    d.arguments.forEach((a, i) => (args[a.key] = rest[i] as string));
    await d.run(factory, args as unknown as ChangeArgs, rest[d.arguments.length] as BatchFlags & WhyFlags);
  });
}

/**
 * For tests: a throwaway declaration registered under its noun, as a file in changes/ would be.
 * Returns what removes it again.
 */
export function registerForTest(declaration: ChangeDeclaration): () => void {
  added.push(declaration);
  return () => {
    const at = added.indexOf(declaration);
    if (at >= 0) added.splice(at, 1);
  };
}
