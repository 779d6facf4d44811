/**
 * Two rules of docs/ARCHITECTURE.md that no linter here checks (issue 55): no import circle among src/'s modules
 * (a module that needs another's values, at load or later through `import()`, is never needed back by it), and no
 * file in src/ over 400 lines without a one-line reason at its top. The one kind of lazy edge left out of the circle
 * check is the command registry's (`load` in src/cli/commands.ts): it is how a command is found, and a command that
 * reads the program's own tree (completion, help) necessarily leads back to it.
 *
 * And three checks of the lint (docs/ARCHITECTURE.md) that Biome has no rule for, over every file Biome lints: lines of
 * at most 120 characters (ESLint's max-len as this project had it: a line with a string, template or regular expression
 * literal, or a URL, is let be, since splitting it would change what is printed or matched, or hide it from a search;
 * the formatter breaks the rest of the code at 120, so what is left is mostly comments), and typescript-eslint's
 * ban-ts-comment beyond Biome's noTsIgnore (no `@ts-nocheck`; a `@ts-expect-error` says why), and ESLint's
 * no-invalid-regexp. They read tokens through TypeScript's scanner alone (no parse), and only of the files that
 * could fail.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as TypeScript from 'typescript';
import { describe, expect, it } from 'vitest';

// Node's own require: through vitest's module runner, loading TypeScript's 9 MB cost this file about 0.6 CPU-s more.
const ts = createRequire(import.meta.url)('typescript') as typeof TypeScript;

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const REGISTRY = join(SRC, 'cli', 'commands.ts');
const LIMIT = 400;
/** The reason line a long file carries in its first lines. */
const REASON = /over 400 lines:/i;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const STATIC = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"](\.[^'"]+)['"]/g;
const DYNAMIC = /import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** The modules a file needs at run time: its imports and re-exports of values, and its `import()`s. */
export function runtimeImports(file: string, text: string): string[] {
  const target = (spec: string) => resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
  const found: string[] = [];
  for (const m of text.matchAll(STATIC)) {
    const names = m[2]!.trim();
    const typeNames = /^\{([^}]*)\}$/
      .exec(names)?.[1]
      ?.split(',')
      .map((n) => n.trim())
      .filter(Boolean);
    const typeOnly =
      m[1] !== undefined ||
      (typeNames !== undefined && typeNames.length > 0 && typeNames.every((n) => n.startsWith('type ')));
    if (!typeOnly) found.push(target(m[3]!));
  }
  // The registry's lazy `load` entries are how a command is found (above).
  if (file !== REGISTRY) for (const m of text.matchAll(DYNAMIC)) found.push(target(m[1]!));
  return found;
}

/** The circles of a graph (its strongly connected parts of more than one module), by Tarjan's algorithm. */
export function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const part: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1) found.push(part.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("src/'s structure", () => {
  const files = sources(SRC);
  const texts = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));

  it('has no import circle among its modules', () => {
    const graph = new Map(files.map((f) => [f, runtimeImports(f, texts.get(f)!)]));
    expect(circles(graph).map((part) => part.map((f) => relative(SRC, f)))).toEqual([]);
  });

  it('finds a circle when there is one, a lazy one included, and not through types', () => {
    const a = join(SRC, 'a.ts');
    const b = join(SRC, 'b.ts');
    const c = join(SRC, 'c.ts');
    const graph = new Map([
      [a, runtimeImports(a, "import { x } from './b.js';\n")],
      [b, runtimeImports(b, "export const y = () => import('./a.js');\nimport type { Z } from './c.js';\n")],
      [c, runtimeImports(c, "import { type W } from './b.js';\n")],
    ]);
    expect(circles(graph)).toEqual([[a, b].sort()]);
  });

  it(`has no file over ${LIMIT} lines without a one-line reason at its top ("Over 400 lines: …")`, () => {
    const lines = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    const long = files.filter((f) => lines(texts.get(f)!) > LIMIT);
    const unexplained = long.filter((f) => !REASON.test(texts.get(f)!.split('\n').slice(0, 12).join('\n')));
    expect(unexplained.map((f) => relative(SRC, f))).toEqual([]);
  });
});

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WIDTH = 120;
/** What Biome lints, read from biome.json's files.includes: its patterns of an extension, less its `!FOLDER` ones. */
const BIOME = JSON.parse(readFileSync(join(ROOT, 'biome.json'), 'utf8')) as { files: { includes: string[] } };
const INCLUDES = BIOME.files.includes;
const EXTENSIONS = INCLUDES.flatMap((pattern) => /^\*\*\/\*(\.\w+)$/.exec(pattern)?.[1] ?? []);
/** The folders left out, and .git and node_modules at any depth, which Biome never reads. */
const NOT_LINTED = new Set(['.git', ...INCLUDES.filter((p) => p.startsWith('!')).map((p) => p.slice(1))]);

function linted(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return NOT_LINTED.has(path) || entry.name === 'node_modules' ? [] : linted(path);
    return EXTENSIONS.some((extension) => entry.name.endsWith(extension)) ? [path] : [];
  });
}

const K = ts.SyntaxKind;
/** Tokens after which `/` divides; anywhere else it starts a regular expression literal. */
const OPERAND_END = new Set([
  K.Identifier,
  K.PrivateIdentifier,
  K.NumericLiteral,
  K.BigIntLiteral,
  K.StringLiteral,
  K.RegularExpressionLiteral,
  K.NoSubstitutionTemplateLiteral,
  K.TemplateTail,
  K.CloseParenToken,
  K.CloseBracketToken,
  K.CloseBraceToken,
  K.PlusPlusToken,
  K.MinusMinusToken,
  K.ThisKeyword,
  K.SuperKeyword,
  K.TrueKeyword,
  K.FalseKeyword,
  K.NullKeyword,
]);
const LITERAL = new Set([K.StringLiteral, K.RegularExpressionLiteral, K.NoSubstitutionTemplateLiteral, K.TemplateTail]);
const COMMENT = new Set([K.SingleLineCommentTrivia, K.MultiLineCommentTrivia]);

/** A file's string, template and regular expression literals (a template: head to tail), and its comments. */
function tokens(text: string): { literals: [number, number][]; comments: string[] } {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const literals: [number, number][] = [];
  const comments: string[] = [];
  const braces: number[] = []; // a template substitution's brace holds its template's start; a plain one -1
  let previous = K.Unknown;
  for (let kind = scanner.scan(); kind !== K.EndOfFileToken; kind = scanner.scan()) {
    if (COMMENT.has(kind)) {
      comments.push(scanner.getTokenText());
      continue;
    }
    if (kind === K.WhitespaceTrivia || kind === K.NewLineTrivia) continue;
    let start = scanner.getTokenStart();
    if ((kind === K.SlashToken || kind === K.SlashEqualsToken) && !OPERAND_END.has(previous)) {
      kind = scanner.reScanSlashToken();
    } else if (kind === K.OpenBraceToken) {
      braces.push(-1);
    } else if (kind === K.TemplateHead) {
      braces.push(start);
    } else if (kind === K.CloseBraceToken && (braces.at(-1) ?? -1) >= 0) {
      start = braces.pop()!;
      kind = scanner.reScanTemplateToken(false);
      if (kind === K.TemplateMiddle) braces.push(start);
    } else if (kind === K.CloseBraceToken) {
      braces.pop();
    }
    if (LITERAL.has(kind)) literals.push([start, scanner.getTokenEnd()]);
    previous = kind;
  }
  return { literals, comments };
}

/** The numbers of a text's lines over WIDTH characters that carry no string, template or regex literal, nor a URL. */
function overWidth(text: string): number[] {
  const lines = text.split('\n');
  const long = lines.flatMap((line, i) => (line.length > WIDTH && [...line].length > WIDTH ? [i] : []));
  if (long.length === 0) return [];
  const starts = [0];
  for (const line of lines) starts.push(starts.at(-1)! + line.length + 1);
  const lineOf = (pos: number) => {
    let [low, high] = [0, lines.length - 1];
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= pos) low = mid;
      else high = mid - 1;
    }
    return low;
  };
  const letBe = new Set<number>();
  for (const [start, end] of tokens(text).literals) for (let i = lineOf(start); i <= lineOf(end - 1); i++) letBe.add(i);
  return long.filter((i) => !letBe.has(i) && !/[^:/?#]:\/\/[^?#]/.test(lines[i]!)).map((i) => i + 1);
}

/** typescript-eslint's ban-ts-comment, as configured by default: the comments it refuses. */
function bannedTsComments(text: string): string[] {
  if (!text.includes('@ts-')) return [];
  return tokens(text).comments.filter((comment) => {
    const body = comment.startsWith('//') ? comment.slice(2) : comment.slice(2, -2).split('\n').at(-1)!;
    const directive = /^\/*\s*@ts-(expect-error|ignore|nocheck)(.*)$/.exec(body);
    if (!directive) return false;
    return directive[1] !== 'expect-error' || [...directive[2]!.replace(/^[\s:-]*/, '').trim()].length < 3;
  });
}

/** ESLint's no-invalid-regexp: the `RegExp(…)`s (with `new` or without) of a literal pattern that throw. */
function invalidRegExps(text: string): string[] {
  if (!text.includes('RegExp(')) return [];
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  const next = () => ({ kind: scanner.scan(), text: scanner.getTokenText(), value: scanner.getTokenValue() });
  const compiles = (source: string, flags?: string) => {
    try {
      new RegExp(source, flags);
      return true;
    } catch {
      return false;
    }
  };
  const invalid: string[] = [];
  let [before, last] = [next(), next()];
  for (let token = next(); token.kind !== K.EndOfFileToken; [before, last, token] = [last, token, next()]) {
    if (!(before.text === 'RegExp' && last.kind === K.OpenParenToken && token.kind === K.StringLiteral)) continue;
    const source = token.value;
    const after = next();
    let valid: boolean;
    if (after.kind === K.CloseParenToken) valid = compiles(source);
    else if (after.kind !== K.CommaToken)
      continue; // not a literal pattern: `'a' + b`
    else {
      const flags = next();
      // Flags not known here: the pattern has to be valid with some flags, as ESLint has it.
      valid =
        flags.kind === K.StringLiteral && next().kind === K.CloseParenToken
          ? compiles(source, flags.value)
          : compiles(source) || compiles(source, 'u') || compiles(source, 'v');
    }
    if (!valid) invalid.push(source);
    [before, last, token] = [last, token, after];
  }
  return invalid;
}

describe('the lint checks Biome has no rule for', () => {
  const files = linted('');
  const texts = new Map(files.map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));
  /** What `check` finds in the linted files, each after its file's path. */
  const found = (check: (text: string) => Array<string | number>, sep = ': ') =>
    files.flatMap((f) => check(texts.get(f)!).map((what) => `${f}${sep}${what}`));

  it(`has no line over ${WIDTH} characters that is not a string, template, regex or URL line`, () => {
    expect(found(overWidth, ':')).toEqual([]);
  });

  it('finds a long comment or code line, and lets long literals and URLs be', () => {
    const long = 'x'.repeat(WIDTH + 1);
    const text = [
      `// ${long}`,
      `const a = ${long};`,
      `const b = '${long}';`,
      `const c = \`\n${long}\n\${d}\n${long}\n\`;`,
      `const e = /${long}/.test(f) / 2;`,
      `const g = h / 2; // ${long}`,
      `// see https://example.com/${long}`,
      ` * ${long}`,
    ].join('\n');
    expect(overWidth(text)).toEqual([1, 2, 10, 12]);
    // The same lines in a comment: nothing in them is a literal any more.
    expect(overWidth(`/**\n${text}\n */`)).toEqual([2, 3, 4, 6, 8, 10, 11, 13]);
  });

  it('has no RegExp of literal strings that is not a valid regular expression', () => {
    expect(found(invalidRegExps)).toEqual([]);
  });

  it('finds an invalid RegExp of literal strings, flags included', () => {
    const text = [
      "new RegExp('[');",
      "RegExp('a', 'gg');",
      "new RegExp('\\\\d+', 'g');",
      "RegExp('(', flags);",
      "new RegExp('a' + b);",
    ].join('\n');
    expect(invalidRegExps(text)).toEqual(['[', 'a', '(']);
  });

  it('has no @ts-nocheck, and no @ts-expect-error without a reason', () => {
    expect(found(bannedTsComments)).toEqual([]);
  });

  it('finds a @ts-nocheck and a bare @ts-expect-error, and lets one with a reason be', () => {
    const text = [
      '// @ts-nocheck',
      '// @ts-expect-error',
      '/* @ts-expect-error: */',
      '// @ts-expect-error: the test hands a wrong type on purpose',
      "const s = '// @ts-nocheck';",
      '// @ts-check',
    ].join('\n');
    expect(bannedTsComments(text)).toEqual(['// @ts-nocheck', '// @ts-expect-error', '/* @ts-expect-error: */']);
  });
});
