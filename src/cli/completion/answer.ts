/**
 * What Tab offers for the words typed so far, worked out from the command tree of the udcli
 * that answers (`udcli __complete line -- WORDS`), so a new verb completes with no script to
 * regenerate. The words are walked as commander parses them: an operand that names a subcommand
 * of the current command (before any other operand) descends into it; an option that takes a
 * value takes the next word; after `--` come files.
 */
import {
  effectiveOptions,
  flagsOf,
  type CommandNode,
  type CompletionTree,
  type DynamicValues,
  type OptionNode,
  type ValueSource,
} from './tree.js';

export interface Candidate {
  value: string;
  description?: string;
}

/** Candidates (those that start with the word being completed), or: let the shell complete a file name. */
export type Answer = { kind: 'words'; candidates: Candidate[] } | { kind: 'files' };

/** Reads the values that are not in the tree (profile and snapshot names) when asked. */
export type DynamicReader = (source: DynamicValues) => string[];

const NOTHING: Answer = { kind: 'words', candidates: [] };
const FILES: Answer = { kind: 'files' };

function optionAt(tree: CompletionTree, node: CommandNode, flag: string): OptionNode | undefined {
  const has = (o: OptionNode) => flagsOf(o).includes(flag);
  return node.options.find(has) ?? tree.globalOptions.find(has);
}

function subcommand(node: CommandNode, word: string): CommandNode | undefined {
  return node.subcommands.find((s) => s.name === word || s.aliases.includes(word));
}

function valuesOf(source: ValueSource | undefined, current: string, dynamic: DynamicReader): Answer {
  if (source === undefined) return NOTHING;
  if (source.kind === 'files') return FILES;
  const values = source.kind === 'choices' ? source.values : dynamic(source);
  return { kind: 'words', candidates: values.filter((v) => v.startsWith(current)).map((value) => ({ value })) };
}

function described(value: string, description: string): Candidate {
  return description === '' ? { value } : { value, description };
}

/**
 * `typed`: the words after `udcli` before the one being completed, `current`. Bash splits
 * `--output=json` at `=` into three words; zsh and fish hand `--output=j` as the current word.
 */
export function answer(
  tree: CompletionTree,
  typed: readonly string[],
  current: string,
  dynamic: DynamicReader,
): Answer {
  let node = tree.root;
  let operands = 0;
  let awaiting: OptionNode | undefined;
  for (const word of typed) {
    if (awaiting !== undefined) {
      if (word !== '=') awaiting = undefined;
      continue;
    }
    if (word === '--') return FILES;
    if (/^--[^=]+=/.test(word)) continue;
    if (word.startsWith('-') && word !== '-') {
      const option = optionAt(tree, node, word);
      if (option?.takesValue) awaiting = option;
      continue;
    }
    const sub = operands === 0 ? subcommand(node, word) : undefined;
    if (sub !== undefined) node = sub;
    else operands++;
  }
  if (awaiting !== undefined) return valuesOf(awaiting.values, current === '=' ? '' : current, dynamic);
  const inline = /^(--[^=]+)=(.*)$/.exec(current);
  if (inline !== null) {
    const option = optionAt(tree, node, inline[1]!);
    const values = option?.takesValue ? valuesOf(option.values, inline[2]!, dynamic) : NOTHING;
    if (values.kind === 'files') return NOTHING;
    return { kind: 'words', candidates: values.candidates.map((c) => ({ value: `${inline[1]}=${c.value}` })) };
  }
  if (current.startsWith('-')) {
    const candidates = effectiveOptions(tree, node).flatMap((o) =>
      flagsOf(o)
        .filter((f) => f.startsWith(current))
        .map((f) => described(f, o.description)),
    );
    return { kind: 'words', candidates };
  }
  if (operands === 0 && node.subcommands.length > 0) {
    const candidates = node.subcommands
      .filter((s) => s.name.startsWith(current))
      .map((s) => described(s.name, s.description));
    return { kind: 'words', candidates };
  }
  const args = node.arguments;
  const last = args.at(-1);
  const argument = args[operands] ?? (last?.variadic ? last : undefined);
  return valuesOf(argument?.values, current, dynamic);
}

/** One candidate a line, `value<TAB>description` (bash keeps the value); `:files` for a file name. */
export function answerLines(result: Answer): string[] {
  if (result.kind === 'files') return [':files'];
  return result.candidates.map((c) => (c.description === undefined ? c.value : `${c.value}\t${c.description}`));
}
