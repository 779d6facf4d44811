/**
 * The fish script: `complete` rules whose conditions (-n) ask __udcli_state where on the
 * command line the cursor is. __udcli_state walks the tokens as commander parses them (see
 * posix.ts); the tables it consults are generated from the tree.
 */
import {
  allCommands,
  flagsOf,
  globalsShadowedBy,
  isDynamic,
  pathKey,
  shadowedGlobals,
  type CompletionTree,
  type OptionNode,
  type ValueSource,
} from './tree.js';

/** A word in single quotes, for fish. */
export function fq(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

function switchBlock(subject: string, entries: Array<{ patterns: string[]; body: string[] }>): string[] {
  if (entries.length === 0) return [];
  return [
    `    switch ${subject}`,
    ...entries.flatMap((e) => [`        case ${e.patterns.join(' ')}`, ...e.body.map((l) => `            ${l}`)]),
    '    end',
  ];
}

function subFunction(tree: CompletionTree): string[] {
  const entries = allCommands(tree).flatMap((node) =>
    node.subcommands.map((sub) => ({
      patterns: [sub.name, ...sub.aliases].map((n) => fq(`${pathKey(node)} ${n}`)),
      body: [`echo ${fq(pathKey(sub))}`],
    })),
  );
  return [
    '# The command path a word leads to from a command path, if it names a subcommand.',
    'function __udcli_sub --argument-names cmdpath word',
    ...switchBlock('"$cmdpath $word"', [...entries, { patterns: ["'*'"], body: ['return 1'] }]),
    'end',
  ];
}

function takesValueFunction(tree: CompletionTree): string[] {
  const own: Array<{ patterns: string[]; body: string[] }> = [];
  for (const node of allCommands(tree)) {
    for (const option of node.options) {
      const patterns = flagsOf(option).map((f) => fq(`${pathKey(node)} ${f}`));
      if (option.takesValue) own.push({ patterns, body: ['return 0'] });
      // a flag here, though a global option of that name takes a value
      else if (globalsShadowedBy(tree, option).some((g) => g.takesValue)) own.push({ patterns, body: ['return 1'] });
    }
  }
  const globals = tree.globalOptions.filter((o) => o.takesValue).flatMap(flagsOf);
  return [
    '# Whether an option at a command path takes the next token as its value.',
    'function __udcli_takes_value --argument-names cmdpath opt',
    ...switchBlock('"$cmdpath $opt"', own),
    // `contains --`: a switch on a bare option word could be taken for the switch's own --help
    `    contains -- $opt ${globals.map(fq).join(' ')}`,
    'end',
  ];
}

const STATE = `# Prints the command path the tokens before the cursor lead to, the number of operands after
# it, and 1 when the token being completed is an option's value (else 0).
# Every rule's condition asks, so the answer is kept for the line it was worked out for.
function __udcli_state
    set -l line (commandline -cp)
    if set -q __udcli_state_line; and test "$line" = "$__udcli_state_line"
        printf '%s\\n' $__udcli_state_cache
        return
    end
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l cmdpath udcli
    set -l nargs 0
    set -l skip 0
    for w in $tokens
        if test $skip = 1
            set skip 0
            continue
        end
        if test "x$w" = x--
            set nargs -1
            break
        else if string match -qr -- '^--.*=' $w
            continue
        else if string match -qr -- '^-.' $w
            if __udcli_takes_value $cmdpath $w
                set skip 1
            end
        else
            set -l next
            if test $nargs = 0
                set next (__udcli_sub $cmdpath $w)
            end
            if test -n "$next"
                set cmdpath $next
            else
                set nargs (math $nargs + 1)
            end
        end
    end
    set -g __udcli_state_line $line
    set -g __udcli_state_cache $cmdpath $nargs $skip
    printf '%s\\n' $__udcli_state_cache
end

# At one of these command paths (options are offered there).
function __udcli_in
    set -l state (__udcli_state)
    contains -- $state[1] $argv
end

# At this command path, before any operand: its subcommands are offered.
function __udcli_subcommand_of --argument-names cmdpath
    set -l state (__udcli_state)
    test "$state[1]" = "$cmdpath" -a "$state[2]" = 0 -a "$state[3]" = 0
end

# At this command path, completing operand N (from 0; N+ for N and every later one).
function __udcli_argument --argument-names cmdpath n
    set -l state (__udcli_state)
    test "$state[1]" = "$cmdpath" -a "$state[3]" = 0; or return 1
    if string match -q -- '*+' $n
        test "$state[2]" -ge (string trim -r -c + -- $n)
    else
        test "$state[2]" = $n
    end
end

# Profile names (the config file), snapshot names (the sandbox's data directory): asked of
# udcli itself; quiet and empty when anything goes wrong.
function __udcli_values
    set -l cmd (commandline -opc)[1]
    set cmd (string replace -r '^~/' "$HOME/" -- $cmd)
    $cmd __complete $argv[1] 2>/dev/null
end`;

/** The -x/-r/-F/-a part of a `complete` rule for an option or operand. */
function valueArgs(takesValue: boolean, values: ValueSource | undefined): string {
  if (!takesValue) return '';
  if (!values) return ' -x';
  if (values.kind === 'files') return ' -r -F';
  if (isDynamic(values)) return ` -x -a '(__udcli_values ${values.kind})'`;
  return ` -x -a ${fq(values.values.join(' '))}`;
}

/** The -F/-a part of a `complete` rule for an operand. */
function argumentValues(values: ValueSource): string {
  if (values.kind === 'files') return ' -F';
  if (isDynamic(values)) return ` -a '(__udcli_values ${values.kind})'`;
  return ` -a ${fq(values.values.join(' '))}`;
}

function optionRule(option: OptionNode, condition: string | undefined): string {
  const flags = [
    option.short ? ` -s ${option.short.slice(1)}` : '',
    // --no-color: fish takes -l no-color
    option.long ? ` -l ${option.long.slice(2)}` : '',
  ].join('');
  const n = condition ? ` -n ${fq(condition)}` : '';
  return `complete -c udcli${n}${flags}${valueArgs(option.takesValue, option.values)} -d ${fq(option.description)}`;
}

function rules(tree: CompletionTree): string[] {
  const lines: string[] = ['# No file names unless a value is a file.', 'complete -c udcli -f', ''];
  // Global options everywhere, except where a command's own option of the same name decides.
  lines.push('# Options of the program, accepted after any command.');
  for (const option of tree.globalOptions) {
    const shadowedAt = allCommands(tree)
      .filter((n) => shadowedGlobals(tree, n).includes(option))
      .map((n) => `"${pathKey(n)}"`);
    lines.push(optionRule(option, shadowedAt.length ? `not __udcli_in ${shadowedAt.join(' ')}` : undefined));
  }
  for (const node of allCommands(tree)) {
    const key = pathKey(node);
    const block: string[] = [];
    for (const sub of node.subcommands) {
      block.push(
        `complete -c udcli -n ${fq(`__udcli_subcommand_of "${key}"`)} -a ${fq(sub.name)} -d ${fq(sub.description)}`,
      );
    }
    for (const option of node.options) block.push(optionRule(option, `__udcli_in "${key}"`));
    node.arguments.forEach((arg, i) => {
      if (!arg.values) return;
      const n = arg.variadic ? `${i}+` : String(i);
      block.push(`complete -c udcli -n ${fq(`__udcli_argument "${key}" ${n}`)}${argumentValues(arg.values)}`);
    });
    if (block.length) lines.push('', `# ${key}`, ...block);
  }
  return lines;
}

export function fishScript(tree: CompletionTree): string {
  return [
    '# fish completion for udcli. Generated from the command tree by',
    '# `udcli completion fish` (npm run completions); do not edit by hand.',
    '#',
    '# Install: udcli completion fish > ~/.config/fish/completions/udcli.fish',
    '',
    ...subFunction(tree),
    '',
    ...takesValueFunction(tree),
    '',
    STATE,
    '',
    ...rules(tree),
    '',
  ].join('\n');
}
