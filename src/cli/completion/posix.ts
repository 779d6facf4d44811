/**
 * The bash and zsh scripts. Both walk the words before the cursor the same way commander
 * parses them: from `udcli`, an operand that names a subcommand of the current command (before
 * any other operand) descends into it; an option that takes a value skips the next word;
 * everything after `--` is passed through. What to offer is then looked up in case tables
 * keyed by the command path (`udcli achievements list`), generated here from the tree.
 */
import {
  allCommands,
  effectiveOptions,
  flagsOf,
  globalsShadowedBy,
  isDynamic,
  pathKey,
  shadowedGlobals,
  type CommandNode,
  type CompletionTree,
  type OptionNode,
  type ValueSource,
} from './tree.js';

/** A word in single quotes, for bash and zsh. */
export function sq(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

interface Dialect {
  /** Shell code that offers these values; `cur` is the word being completed. */
  values(source: ValueSource | undefined): string;
  /** Body of `_udcli_commands` for a command with subcommands. */
  subcommands(node: CommandNode): string;
  /** The assignment of one command's own options (`own=...`), or of the globals left (`globals=...`). */
  optionList(variable: 'own' | 'globals', options: OptionNode[]): string;
  /** The end of `_udcli_options`: offer $own and $globals. */
  offerOptions: string;
}

interface CaseEntry {
  patterns: string[];
  body: string;
}

function caseBlock(subject: string, entries: CaseEntry[], indent = '  '): string[] {
  if (entries.length === 0) return [];
  return [
    `${indent}case ${subject} in`,
    ...entries.map((e) => `${indent}  ${e.patterns.join('|')}) ${e.body} ;;`),
    `${indent}esac`,
  ];
}

function fn(name: string, body: string[]): string {
  return [`${name}() {`, ...body, '}'].join('\n');
}

/** `_udcli_sub PATH WORD`: sets REPLY to the path WORD leads to, or fails. */
function subFunction(tree: CompletionTree): string {
  const entries: CaseEntry[] = [];
  for (const node of allCommands(tree)) {
    for (const sub of node.subcommands) {
      const patterns = [sub.name, ...sub.aliases].map((n) => sq(`${pathKey(node)} ${n}`));
      entries.push({ patterns, body: `REPLY=${sq(pathKey(sub))}` });
    }
  }
  return fn('_udcli_sub', [...caseBlock('"$1 $2"', [...entries, { patterns: ['*'], body: 'return 1' }]), '  return 0']);
}

function optionPatterns(node: CommandNode, option: OptionNode): string[] {
  return flagsOf(option).map((f) => sq(`${pathKey(node)} ${f}`));
}

/** `_udcli_takes_value PATH OPTION`: whether OPTION there takes the next word as its value. */
function takesValueFunction(tree: CompletionTree): string {
  const own: CaseEntry[] = [];
  for (const node of allCommands(tree)) {
    for (const option of node.options) {
      if (option.takesValue) own.push({ patterns: optionPatterns(node, option), body: 'return 0' });
      // a flag here, though a global option of that name takes a value
      else if (globalsShadowedBy(tree, option).some((g) => g.takesValue)) {
        own.push({ patterns: optionPatterns(node, option), body: 'return 1' });
      }
    }
  }
  const globals = tree.globalOptions.filter((o) => o.takesValue).flatMap(flagsOf);
  return fn('_udcli_takes_value', [
    ...caseBlock('"$1 $2"', own),
    ...caseBlock('$2', globals.length ? [{ patterns: globals, body: 'return 0' }] : []),
    '  return 1',
  ]);
}

/** `_udcli_option_values PATH OPTION`: offers the values of OPTION. */
function optionValuesFunction(tree: CompletionTree, dialect: Dialect): string {
  const own: CaseEntry[] = [];
  for (const node of allCommands(tree)) {
    for (const option of node.options) {
      // own values, or none where a global option of that name has some
      const needed = option.values !== undefined || globalsShadowedBy(tree, option).some((g) => g.values);
      if (!option.takesValue || !needed) continue;
      own.push({ patterns: optionPatterns(node, option), body: `${dialect.values(option.values)}; return` });
    }
  }
  const globals = tree.globalOptions
    .filter((o) => o.takesValue && o.values)
    .map((o) => ({ patterns: flagsOf(o), body: dialect.values(o.values) }));
  return fn('_udcli_option_values', [...caseBlock('"$1 $2"', own), ...caseBlock('$2', globals), '  return 0']);
}

/** `_udcli_commands PATH`: offers the subcommands of PATH, or fails when it has none. */
function commandsFunction(tree: CompletionTree, dialect: Dialect): string {
  const entries = allCommands(tree)
    .filter((n) => n.subcommands.length > 0)
    .map((n) => ({ patterns: [sq(pathKey(n))], body: dialect.subcommands(n) }));
  return fn('_udcli_commands', [...caseBlock('$1', [...entries, { patterns: ['*'], body: 'return 1' }]), '  return 0']);
}

/** `_udcli_options PATH`: offers the options accepted at PATH. */
function optionsFunction(tree: CompletionTree, dialect: Dialect): string {
  const own: CaseEntry[] = [];
  const globals: CaseEntry[] = [];
  for (const node of allCommands(tree)) {
    if (node.options.length > 0)
      own.push({ patterns: [sq(pathKey(node))], body: dialect.optionList('own', node.options) });
    if (shadowedGlobals(tree, node).length > 0) {
      const left = effectiveOptions(tree, node).slice(node.options.length);
      globals.push({ patterns: [sq(pathKey(node))], body: dialect.optionList('globals', left) });
    }
  }
  return fn('_udcli_options', [
    '  local -a own globals',
    `  ${dialect.optionList('globals', tree.globalOptions)}`,
    ...caseBlock('$1', own),
    ...caseBlock('$1', globals),
    `  ${dialect.offerOptions}`,
  ]);
}

/** `_udcli_argument_values PATH N`: offers the values of the Nth operand (from 0) at PATH. */
function argumentValuesFunction(tree: CompletionTree, dialect: Dialect): string {
  const entries: CaseEntry[] = [];
  for (const node of allCommands(tree)) {
    const args = node.arguments;
    const last = args.at(-1);
    if (last?.variadic && last.values) {
      // Every operand from the variadic one on: list the earlier ones first (first match wins).
      args.forEach((a, i) => {
        if (a !== last) entries.push({ patterns: [sq(`${pathKey(node)} ${i}`)], body: dialect.values(a.values) });
      });
      entries.push({ patterns: [`${sq(`${pathKey(node)} `)}*`], body: dialect.values(last.values) });
      continue;
    }
    args.forEach((a, i) => {
      if (a.values) entries.push({ patterns: [sq(`${pathKey(node)} ${i}`)], body: dialect.values(a.values) });
    });
  }
  return fn('_udcli_argument_values', [...caseBlock('"$1 $2"', entries), '  return 0']);
}

function tables(tree: CompletionTree, dialect: Dialect): string[] {
  return [
    subFunction(tree),
    takesValueFunction(tree),
    optionValuesFunction(tree, dialect),
    commandsFunction(tree, dialect),
    optionsFunction(tree, dialect),
    argumentValuesFunction(tree, dialect),
  ];
}

const BASH: Dialect = {
  values(source) {
    if (!source) return ':';
    if (source.kind === 'files') return '_udcli_files';
    if (isDynamic(source)) return `_udcli_words "$(_udcli_values ${source.kind})"`;
    return `_udcli_words ${sq(source.values.join(' '))}`;
  },
  subcommands: (node) => `_udcli_words ${sq(node.subcommands.map((s) => s.name).join(' '))}`,
  optionList: (variable, options) => `${variable}=(${options.flatMap(flagsOf).join(' ')})`,
  offerOptions: '_udcli_words "${own[*]} ${globals[*]}"',
};

/** `name:description` for zsh's _describe (a colon in the name is escaped). */
function described(name: string, description: string): string {
  return sq(`${name.replaceAll(':', '\\:')}:${description}`);
}

const ZSH: Dialect = {
  values(source) {
    if (!source) return ':';
    if (source.kind === 'files') return '_files';
    if (isDynamic(source)) return `compadd -- \${(f)"$(_udcli_values ${source.kind})"}`;
    return `compadd -- ${source.values.map(sq).join(' ')}`;
  },
  subcommands: (node) =>
    `local -a subs=(${node.subcommands.map((s) => described(s.name, s.description)).join(' ')}); _describe -t commands 'udcli command' subs`,
  optionList: (variable, options) =>
    `${variable}=(${options.flatMap((o) => flagsOf(o).map((f) => described(f, o.description))).join(' ')})`,
  offerOptions: `own+=("\${globals[@]}"); _describe -t options 'udcli option' own`,
};

const HEADER = (shell: string) => `# ${shell} completion for udcli. Generated from the command tree by
# \`udcli completion ${shell}\` (npm run completions); do not edit by hand.`;

/**
 * The walk over the words typed so far, the same in bash and zsh: `--` ends the options (files
 * follow: `afterDashes`), an option may take the next word, a word names a subcommand until the
 * first argument.
 */
function wordCase(afterDashes: string): string {
  return `    case $w in
      --) ${afterDashes} ;;
      --*=*) ;;
      -?*) _udcli_takes_value "$cmdpath" "$w" && skip=1 ;;
      *)
        if ((nargs == 0)) && _udcli_sub "$cmdpath" "$w"; then
          cmdpath=$REPLY
        else
          nargs=$((nargs + 1))
        fi
        ;;
    esac`;
}

export function bashScript(tree: CompletionTree): string {
  return `${HEADER('bash')}
#
# Install: add  eval "$(udcli completion bash)"  to ~/.bashrc, or save this file as
# ~/.local/share/bash-completion/completions/udcli (needs the bash-completion package).

# Profile names (the config file), snapshot names (the sandbox's data directory): asked of
# udcli itself; quiet and empty when anything goes wrong.
_udcli_values() {
  local cmd=\${COMP_WORDS[0]}
  [[ $cmd == '~/'* ]] && cmd=$HOME/\${cmd#'~/'}
  "$cmd" __complete "$1" 2>/dev/null
}

_udcli_words() {
  local IFS=$' \\t\\n'
  COMPREPLY=($(compgen -W "$1" -- "$cur"))
}

_udcli_files() {
  local IFS=$'\\n'
  COMPREPLY=($(compgen -f -- "$cur"))
  compopt -o filenames 2>/dev/null
  return 0
}

${tables(tree, BASH).join('\n\n')}

_udcli() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]}
  local cmdpath=udcli nargs=0 skip=0 i w REPLY
  COMPREPLY=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    if ((skip)); then
      # --output=json arrives as three words when = is in COMP_WORDBREAKS
      [[ $w == = ]] || skip=0
      continue
    fi
${wordCase('_udcli_files; return 0')}
  done
  if ((skip)); then
    [[ $prev == = ]] && prev=\${COMP_WORDS[COMP_CWORD-2]}
    [[ $cur == = ]] && cur=
    _udcli_option_values "$cmdpath" "$prev"
    return 0
  fi
  case $cur in
    -*) _udcli_options "$cmdpath"; return 0 ;;
  esac
  if ((nargs == 0)) && _udcli_commands "$cmdpath"; then
    return 0
  fi
  _udcli_argument_values "$cmdpath" "$nargs"
  return 0
}

complete -F _udcli udcli
`;
}

export function zshScript(tree: CompletionTree): string {
  return `#compdef udcli
${HEADER('zsh')}
#
# Install: save this file as _udcli in a directory on $fpath (before compinit runs), e.g.
#   udcli completion zsh > ~/.zfunc/_udcli   and in ~/.zshrc: fpath=(~/.zfunc $fpath); autoload -Uz compinit; compinit
# or, after compinit in ~/.zshrc:  source <(udcli completion zsh)

# Profile names (the config file), snapshot names (the sandbox's data directory): asked of
# udcli itself; quiet and empty when anything goes wrong.
_udcli_values() {
  local cmd=\${words[1]}
  [[ $cmd == '~/'* ]] && cmd=$HOME/\${cmd#'~/'}
  "$cmd" __complete "$1" 2>/dev/null
}

${tables(tree, ZSH).join('\n\n')}

_udcli() {
  local cur=\${words[CURRENT]} prev=\${words[CURRENT-1]}
  local cmdpath=udcli nargs=0 skip=0 i w opt REPLY
  for ((i = 2; i < CURRENT; i++)); do
    w=\${words[i]}
    if ((skip)); then
      skip=0
      continue
    fi
${wordCase('_files; return')}
  done
  if ((skip)); then
    _udcli_option_values "$cmdpath" "$prev"
    return
  fi
  case $cur in
    --*=*)
      opt=\${cur%%=*}
      if _udcli_takes_value "$cmdpath" "$opt"; then
        compset -P '*='
        _udcli_option_values "$cmdpath" "$opt"
      fi
      return
      ;;
    -*) _udcli_options "$cmdpath"; return ;;
  esac
  if ((nargs == 0)) && _udcli_commands "$cmdpath"; then
    return
  fi
  _udcli_argument_values "$cmdpath" "$nargs"
}

if [[ \${funcstack[1]} == _udcli ]]; then
  # autoloaded from $fpath: this file is the body of _udcli; run the function just defined
  _udcli "$@"
else
  compdef _udcli udcli
fi
`;
}
