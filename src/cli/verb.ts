/**
 * A command as one declaration, as gh declares `issue close`: its words, help, arguments, options
 * and what it runs, together. A noun's index.ts lists its verbs; `addVerb` turns each into the
 * commander command, in the order written, so help text, option order and completions come out
 * as the declaration reads. `run` loads the handler when the command runs (start-up stays small).
 */
import { Argument, type Command } from './commander.js';
import type { Factory } from '../ops/factory.js';

/** `[flags, help]`, or with a parser for a repeatable option (`collect`). */
export type VerbOption = readonly [
  flags: string,
  help: string,
  parse?: (value: string, previous: string[]) => string[],
];

export interface Verb {
  name: string;
  alias?: string;
  description: string;
  usage?: string;
  /**
   * `[name, help]`, e.g. `['<game_id>', 'the game, e.g. 1001']`; with the values it may take, `[name, help, choices]`.
   */
  arguments?: ReadonlyArray<readonly [string, string, (readonly string[])?]>;
  options?: readonly VerbOption[];
  /** The example command lines, without `$ `. */
  examples?: readonly string[];
  /** Help after the option list, given whole (examples included), when more than examples. */
  after?: string;
  /** Commander's action arguments: the command's arguments, then its options. */
  run?: (factory: Factory, ...params: never[]) => Promise<void>;
  /** Verbs under this one (`sandbox clock now`). */
  verbs?: readonly Verb[];
  /** Left out of help and completion (`__complete`, which the completion scripts call). */
  hidden?: boolean;
  /** Takes any words and options as they come (`__complete line -- WORDS`): nothing is refused. */
  anyWords?: boolean;
}

/** Appends options to a list: for `--allow-game-dir a --allow-game-dir b`. */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** The `Examples:` block the commands end their help with. */
export function examplesText(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}`;
}

export function addVerb(parent: Command, factory: Factory, verb: Verb): Command {
  const command = parent.command(verb.name, verb.hidden === true ? { hidden: true } : {});
  if (verb.anyWords === true) command.allowExcessArguments().allowUnknownOption();
  if (verb.alias !== undefined) command.alias(verb.alias);
  command.description(verb.description);
  if (verb.usage !== undefined) command.usage(verb.usage);
  for (const [name, help, choices] of verb.arguments ?? []) {
    if (choices === undefined) command.argument(name, help);
    else command.addArgument(new Argument(name, help).choices(choices));
  }
  for (const [flags, help, parse] of verb.options ?? []) {
    if (parse === undefined) command.option(flags, help);
    else command.option(flags, help, parse);
  }
  const after = verb.after ?? (verb.examples === undefined ? undefined : examplesText(verb.examples));
  if (after !== undefined) command.addHelpText('after', after);
  const run = verb.run as ((factory: Factory, ...params: unknown[]) => Promise<void>) | undefined;
  if (run !== undefined) command.action((...params: unknown[]) => run(factory, ...params.slice(0, -1)));
  for (const child of verb.verbs ?? []) addVerb(command, factory, child);
  return command;
}

/** Adds a noun's verbs (or the noun itself, when it is one command) to the program. */
export function addVerbs(parent: Command, factory: Factory, verbs: readonly Verb[]): void {
  for (const verb of verbs) addVerb(parent, factory, verb);
}
