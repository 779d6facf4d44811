/**
 * Reads the shell blocks of a Markdown manual as a reader would type them, for the test that
 * runs them (doc-commands.test.ts). The conventions the docs keep (README, "For contributors"):
 *
 * - a fenced block whose info string is `sh`, `bash`, `console` or empty is read; inside it a
 *   line is a command (a leading `$ ` dropped), `\` at the end of a line joins the next one, and
 *   an unquoted `#` after a space starts a comment;
 * - `#  TEXT` (the `#` in column 1, then two spaces) right after a command is that command's
 *   output as shown (`#  …` stands for lines left out); in a block whose commands are written
 *   `$ udcli …`, the lines after a command up to the next `$ ` are its output;
 * - a line with a `<placeholder>`, an `[option]` or `a | b` alternatives is a synopsis: it is not
 *   run, its options are looked up in the command's `--help`;
 * - `cat > FILE <<'EOF'` … `EOF` writes FILE; `mkdir DIR`, `cd DIR` and `&&` do what they say;
 *   `eval "$(udcli …)"` runs the command and exports the `export K=V` lines it prints; `< FILE`
 *   is standard input; a pipe into a filter (`| wc -l`) runs the command with its output piped.
 *   Any other program (npm, cp, curl) is not run.
 */

export interface DocCommand {
  kind: 'command';
  /** The command as written (comment and `$ ` dropped, continuations joined). */
  text: string;
  /** Arguments after `udcli`. */
  argv: string[];
  stdinFile?: string;
  /** Its output goes to a pipe (`| wc -l`, `$(…)`) rather than the terminal. */
  piped: boolean;
  /** The programs its output is piped through, each as its words (`[['wc', '-l']]`). */
  through: string[][];
  /** `eval "$(udcli …)"`: its `export K=V` lines set the environment of what follows. */
  evaluated: boolean;
  /** The output the doc shows for it, line by line (`…` for lines left out). */
  shown: string[];
}

export interface DocSynopsis {
  kind: 'synopsis';
  text: string;
  /** Each alternative's command path (`sandbox status`, `sandbox stop`, …) and the options it names. */
  forms: Array<{ path: string[]; options: string[] }>;
}

export type DocStep =
  | DocCommand
  | DocSynopsis
  | { kind: 'file'; path: string; content: string }
  | { kind: 'mkdir'; path: string }
  | { kind: 'cd'; path: string };

export interface DocBlock {
  /** 1-based line of the opening fence. */
  line: number;
  steps: Array<DocStep & { line: number }>;
}

const SHELL_FENCES = new Set(['', 'sh', 'bash', 'console', 'shell']);
/** Programs a `|` may lead into; anything else after ` | ` makes the line a synopsis. */
const FILTERS = new Set(['wc', 'head', 'tail', 'jq', 'grep', 'sort', 'less', 'cat', 'tee']);

type Token = { word: string } | { op: '|' | '<' | '>' | '&&' | '<<' };

/** Shell words of one line: quotes, backslashes, operators, and a comment dropped. */
export function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  let word: string | null = null;
  const end = () => {
    if (word !== null) tokens.push({ word });
    word = null;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const close = line.indexOf("'", i + 1);
      if (close === -1) throw new Error(`unclosed ' in: ${line}`);
      word = (word ?? '') + line.slice(i + 1, close);
      i = close;
    } else if (c === '"') {
      let value = '';
      let depth = 0;
      for (i++; i < line.length; i++) {
        const d = line[i]!;
        if (d === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) value += line[++i];
        else if (d === '$' && line[i + 1] === '(') {
          depth++;
          value += d;
        } else if (d === ')' && depth > 0) {
          depth--;
          value += d;
        } else if (d === '"' && depth === 0) break;
        else value += d;
      }
      if (i >= line.length) throw new Error(`unclosed " in: ${line}`);
      word = (word ?? '') + value;
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else if (c === ' ' || c === '\t') {
      end();
    } else if (c === '#' && word === null) {
      break;
    } else if (c === '|' || c === '<' || c === '>' || (c === '&' && line[i + 1] === '&')) {
      end();
      if (c === '&') {
        tokens.push({ op: '&&' });
        i++;
      } else if (c === '<' && line[i + 1] === '<') {
        tokens.push({ op: '<<' });
        i++;
      } else tokens.push({ op: c });
    } else {
      word = (word ?? '') + c;
    }
  }
  end();
  return tokens;
}

const isWord = (t: Token | undefined): t is { word: string } => t !== undefined && 'word' in t;
const words = (ts: Token[]): string[] => ts.filter(isWord).map((t) => t.word);

function splitOn(tokens: Token[], op: string): Token[][] {
  const parts: Token[][] = [[]];
  for (const t of tokens) {
    if ('op' in t && t.op === op) parts.push([]);
    else parts.at(-1)!.push(t);
  }
  return parts;
}

/**
 * The arguments after `udcli` (or `npx udcli`, or a clone's `node bin/udcli.js`), or undefined when the words run
 * something else.
 */
function udcliArgs(ws: string[]): string[] | undefined {
  if (ws[0] === 'udcli') return ws.slice(1);
  if (ws[0] === 'npx' && ws[1] === 'udcli') return ws.slice(2);
  if (ws[0] === 'node' && ws[1] === 'bin/udcli.js') return ws.slice(2);
  return undefined;
}

const PLACEHOLDER = /<[A-Za-z][\w-]*>|\[|\]/;

function synopsisForms(text: string): DocSynopsis['forms'] {
  const body = text.replace(/^(npx\s+udcli|node\s+bin\/udcli\.js|udcli)\s+/, '');
  const alternatives = body.split(/\s+\|\s+/);
  const first = alternatives[0]!.split(/\s+/);
  const pathOf = (ws: string[]) => {
    const path: string[] = [];
    for (const w of ws) {
      if (!/^[a-z][a-z-]*$/.test(w)) break;
      path.push(w);
    }
    return path;
  };
  const base = pathOf(first);
  const optionsOf = (s: string) => [...s.matchAll(/(?:^|[\s[|])(--?[a-zA-Z][\w-]*)/g)].map((m) => m[1]!);
  const forms = [{ path: base, options: optionsOf(alternatives[0]!) }];
  for (const alt of alternatives.slice(1)) {
    const ws = alt.split(/\s+/);
    // `status | stop | info [--json]`: each alternative a sibling of the first form's last word;
    // `--seed demo|none`-like alternatives of a value (no word of a path) belong to the first form.
    if (!/^[a-z][a-z-]*$/.test(ws[0]!) || base.length < 2) {
      forms[0]!.options.push(...optionsOf(alt));
      continue;
    }
    forms.push({ path: [...base.slice(0, -1), ...pathOf(ws)], options: optionsOf(alt) });
  }
  return forms;
}

/** The steps of one logical line (continuations joined). */
function stepsOfLine(text: string, rest: string[]): { steps: DocStep[]; consumed: number } {
  const tokens = tokenize(text);
  const ws = words(tokens);
  // A heredoc: cat > FILE <<'EOF' … EOF
  const heredoc = tokens.findIndex((t) => 'op' in t && t.op === '<<');
  if (heredoc !== -1) {
    const delimiter = (tokens[heredoc + 1] as { word: string }).word;
    const target = tokens.findIndex((t) => 'op' in t && t.op === '>');
    const end = rest.indexOf(delimiter);
    if (ws[0] !== 'cat' || target === -1 || end === -1)
      throw new Error(`a heredoc this reader does not follow: ${text}`);
    const path = (tokens[target + 1] as { word: string }).word;
    return {
      steps: [
        {
          kind: 'file',
          path,
          content: rest
            .slice(0, end)
            .map((l) => `${l}\n`)
            .join(''),
        },
      ],
      consumed: end + 1,
    };
  }
  const steps: DocStep[] = [];
  for (const part of splitOn(tokens, '&&')) {
    const pw = words(part);
    if (pw[0] === 'mkdir') steps.push({ kind: 'mkdir', path: pw.at(-1)! });
    else if (pw[0] === 'cd') steps.push({ kind: 'cd', path: pw[1]! });
    else if (pw[0] === 'eval' && pw[1]?.startsWith('$(') && pw[1].endsWith(')')) {
      const inner = pw[1].slice(2, -1);
      const argv = udcliArgs(words(tokenize(inner)));
      if (argv)
        steps.push({
          kind: 'command',
          text: `eval "$(${inner})"`,
          argv,
          piped: true,
          through: [],
          evaluated: true,
          shown: [],
        });
    } else {
      const pipes = splitOn(part, '|');
      const head = pipes[0]!;
      const argv = udcliArgs(words(head));
      if (argv === undefined) continue;
      const plain = text.replace(/\s+#\s.*$/, '').trim();
      const synopsis = PLACEHOLDER.test(plain) || pipes.slice(1).some((p) => !FILTERS.has(words(p)[0] ?? ''));
      if (synopsis) {
        steps.push({
          kind: 'synopsis',
          text: plain.replace(/^\$\s+/, ''),
          forms: synopsisForms(plain.replace(/^\$\s+/, '')),
        });
        continue;
      }
      const redirect = head.findIndex((t) => 'op' in t && t.op === '<');
      const args = redirect === -1 ? argv : udcliArgs(words(head.slice(0, redirect)))!;
      const stdinFile = redirect === -1 ? undefined : (head[redirect + 1] as { word: string }).word;
      steps.push({
        kind: 'command',
        text: plain.replace(/^\$\s+/, ''),
        argv: args,
        ...(stdinFile === undefined ? {} : { stdinFile }),
        piped: pipes.length > 1,
        through: pipes.slice(1).map(words),
        evaluated: false,
        shown: [],
      });
    }
  }
  return { steps, consumed: 0 };
}

/** Every shell block of a Markdown text, with the steps a reader would take. */
export function readDocBlocks(markdown: string): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(\s*)```(\S*)\s*$/.exec(lines[i]!);
    if (!fence) continue;
    const indent = fence[1]!.length;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]!); i++) body.push(lines[i]!.slice(indent));
    if (!SHELL_FENCES.has(fence[2]!)) continue;
    const dollarStyle = body.some((l) => l.startsWith('$ '));
    const block: DocBlock = { line: start + 1, steps: [] };
    let last: DocCommand | undefined;
    for (let j = 0; j < body.length; j++) {
      const lineNo = start + 2 + j;
      const raw = body[j]!;
      if (dollarStyle && !raw.startsWith('$ ')) {
        if (last && raw.trim() !== '') last.shown.push(raw);
        continue;
      }
      const out = /^# {2}(.*)$/.exec(raw);
      if (out) {
        // After a command of another program (curl, npm) the output shown is not ours to check.
        last?.shown.push(out[1]!);
        continue;
      }
      const previous = block.steps.at(-1);
      if (previous?.kind === 'synopsis' && /^\s+\[/.test(raw)) {
        // A synopsis carried on over the next lines, indented: `                    [--detach] ...`.
        previous.text = `${previous.text} ${raw.replace(/\s+#\s.*$/, '').trim()}`;
        previous.forms = synopsisForms(previous.text);
        continue;
      }
      let text = raw.replace(/^\$ /, '');
      while (text.endsWith('\\') && j + 1 < body.length) text = `${text.slice(0, -1)} ${body[++j]!.trim()}`;
      if (text.trim() === '' || text.trim().startsWith('#')) {
        if (text.trim() === '') last = undefined;
        continue;
      }
      const { steps, consumed } = stepsOfLine(text, body.slice(j + 1));
      j += consumed;
      last = undefined;
      for (const step of steps) {
        block.steps.push({ ...step, line: lineNo });
        if (step.kind === 'command') last = block.steps.at(-1) as DocCommand;
      }
    }
    if (block.steps.length > 0) blocks.push(block);
  }
  return blocks;
}

/** The data files a doc shows: ```yaml blocks that open with the schema line `sandbox init` writes. */
export function readDataFileBlocks(markdown: string): Array<{ line: number; text: string }> {
  const found: Array<{ line: number; text: string }> = [];
  const re = /^```yaml\n([\s\S]*?)^```$/gm;
  for (const m of markdown.matchAll(re)) {
    if (!m[1]!.startsWith('# yaml-language-server: $schema=')) continue;
    found.push({ line: markdown.slice(0, m.index).split('\n').length, text: m[1]! });
  }
  return found;
}
