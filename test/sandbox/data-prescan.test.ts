/**
 * A data file is bounded before it is parsed (issue 31, 3): the audit's nesting bombs are one
 * line naming the limit, from the raw text, with no parser run; tricks that would hide brackets
 * from the scan (quotes the yaml package reads otherwise, block scalars, anchors) do not; and a
 * property over random text: whatever the scan lets through, the yaml package parses no deeper
 * than the limit, and the reader's answer is a value or one DataFileError, never anything else.
 */
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { DATA_LIMITS } from '../../src/sandbox/data/limits.js';
import { prescanData } from '../../src/sandbox/data/prescan.js';
import { DataFileError } from '../../src/sandbox/data/data-file-error.js';
import { parseDataText } from '../../src/sandbox/data/read.js';
import { dataFileErrorOf } from './helpers/data-file.js';

const scan = (text: string, json = false) => prescanData(text, json, DATA_LIMITS);

const errorOf = (text: string, json = false) => dataFileErrorOf(text, json);

/** Collections inside one another in a parsed value, the outermost counted. */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

const DEEP = 'nested deeper than 32 levels (the limit of a data file)';

describe('the prescan of a data file', () => {
  it("the audit's bombs: 20,000, 100,000 and 300,000 `[` are one line naming the limit", () => {
    for (const n of [20_000, 100_000, 300_000]) {
      expect(errorOf('['.repeat(n))).toBe(`qa.yaml: ${DEEP} (line 1)`);
      expect(errorOf(`users: ${'['.repeat(n)}`)).toBe(`qa.yaml: ${DEEP} (line 1)`);
      expect(errorOf(`{"users": ${'['.repeat(n)}`, true)).toBe(`qa.json: ${DEEP} (line 1)`);
    }
    expect(errorOf(`games:\n  - {a: ${'{b: '.repeat(50_000)}`)).toBe(`qa.yaml: ${DEEP} (line 2)`);
  });

  it('counts block nesting: indentation, compact entries and a sequence beside its key', () => {
    const keys = (n: number) => Array.from({ length: n }, (_, k) => `${' '.repeat(2 * k)}k${k}:`).join('\n') + ' 1\n';
    expect(scan(keys(32))).toBeUndefined();
    expect(scan(keys(33))).toEqual({ kind: 'depth', line: 33 });
    expect(scan(`${'- '.repeat(32)}x\n`)).toBeUndefined();
    expect(scan(`${'- '.repeat(33)}x\n`)).toEqual({ kind: 'depth', line: 1 });
    expect(scan(`a:\n${'- '.repeat(31)}x\n`)).toBeUndefined();
    expect(scan(`a:\n${'- '.repeat(32)}x\n`)).toEqual({ kind: 'depth', line: 2 });
    expect(errorOf(`users:\n${'  - '.repeat(10_000)}x\n`)).toBe(`qa.yaml: ${DEEP} (line 2)`);
  });

  it('exact for flow collections and JSON: 32 levels pass, 33 do not', () => {
    expect(scan(`${'['.repeat(32)}${']'.repeat(32)}`)).toBeUndefined();
    expect(scan(`${'['.repeat(33)}${']'.repeat(33)}`)).toEqual({ kind: 'depth', line: 1 });
    expect(scan(`${'['.repeat(32)}${']'.repeat(32)}`, true)).toBeUndefined();
    expect(scan(`{"a": "${'['.repeat(100)}", "b": ${'['.repeat(31)}${']'.repeat(31)}}`, true)).toBeUndefined();
    expect(scan(`{"a": "\\"${'['.repeat(100)}", "b": ${'['.repeat(33)}`, true)).toEqual({ kind: 'depth', line: 1 });
    // Quoted text and comments are not structure.
    expect(scan(`a: "${'['.repeat(100)}"\nb: '${'{'.repeat(100)}' # ${'['.repeat(100)}\n`)).toBeUndefined();
  });

  it('what the yaml package reads as structure is not hidden by quotes, anchors, block scalars or documents', () => {
    const bomb = '['.repeat(1000);
    // A quote inside a plain scalar opens nothing; a quoted scalar the yaml package may end at a line break.
    expect(scan(`[don't, ${bomb}`)?.kind).toBe('depth');
    expect(scan(`[a"b, ${bomb}`)?.kind).toBe('depth');
    expect(scan(`{a:"b, ${bomb}`)?.kind).toBe('depth');
    expect(scan(`a: "x\n${bomb}\n"`)?.kind).toBe('depth');
    expect(scan(`a: 'x\n${bomb}\n'`)?.kind).toBe('depth');
    expect(scan(`a: "x\\\n${bomb}\n"`)?.kind).toBe('depth');
    // An anchor, a tag or an alias ends where a flow collection may start.
    expect(scan(`a: &x${bomb}`)?.kind).toBe('depth');
    expect(scan(`a: !t${bomb}`)?.kind).toBe('depth');
    // A block scalar's text ends at a line no more indented than its node, and at a new document.
    expect(scan(`- a: |\n    text\n  b: ${bomb}`)?.kind).toBe('depth');
    expect(scan(`--- |\n text\n---\n${bomb}`)?.kind).toBe('depth');
    expect(scan(`a: |2 ${bomb}`)?.kind).toBe('depth');
    // A comment needs a blank before it.
    expect(scan(`a: [x#${bomb}`)?.kind).toBe('depth');
  });

  it('aliases are counted before the yaml package expands any', () => {
    const text = `a: &x [1]\nb: [${Array.from({ length: DATA_LIMITS.aliases + 1 }, () => '*x').join(', ')}]\n`;
    expect(scan(text)).toEqual({ kind: 'aliases', line: 2 });
    expect(errorOf(text)).toBe('qa.yaml: not valid YAML: more than 1000 alias expansions (the limit of a data file)');
    expect(
      scan(`a: &x [1]\nb: [${Array.from({ length: DATA_LIMITS.aliases }, () => '*x').join(', ')}]\n`),
    ).toBeUndefined();
  });

  it('a flow collection going on at its parent’s indentation is refused, as the yaml package does', () => {
    const text = 'users:\n  - friends: [a,\n  b]\n';
    expect(() => parseYaml(text, { logLevel: 'error' })).toThrow();
    expect(errorOf(text)).toMatch(/^qa\.yaml: not valid YAML: a flow collection .* \(line 3\)$/);
    // At the top level, or more indented than its key, it is fine; so is the closing bracket beside the key.
    expect(scan('[a,\nb]\n')).toBeUndefined();
    expect(scan('users: [\n  a,\n  b\n]\n')).toBeUndefined();
  });
});

/** Fragments of YAML, hostile ones among them, put together at random. */
const FRAGMENTS = [
  '[',
  ']',
  '{',
  '}',
  ', ',
  ': ',
  '- ',
  '? ',
  '"',
  "'",
  '\\',
  '#',
  ' #',
  '\n',
  '\n  ',
  '\n    ',
  '  ',
  '&a ',
  '*a',
  '&a',
  '*a ',
  '!t ',
  '|',
  '|2',
  '>',
  '---',
  '\n---\n',
  '...',
  'key',
  'x',
  "don't",
  'a"b',
  '%YAML 1.2',
  '\t',
  '\r\n',
  '1',
  'null',
];
const fragment = fc.constantFrom(...FRAGMENTS);
/** Random text with runs of one fragment (how bombs are made). */
const hostileYaml = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fragment },
      { weight: 1, arbitrary: fc.tuple(fragment, fc.integer({ min: 2, max: 400 })).map(([f, n]) => f.repeat(n)) },
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''));

describe('the data-file reader under random text (fast-check)', () => {
  it('whatever the prescan lets through, the yaml package parses no deeper than the limit', () => {
    fc.assert(
      fc.property(hostileYaml, (text) => {
        if (scan(text) !== undefined) return;
        let value: unknown;
        try {
          value = parseYaml(text, { maxAliasCount: DATA_LIMITS.aliases, logLevel: 'error' });
        } catch (error) {
          // A syntax error or the alias bound, never the stack.
          expect((error as Error).message).not.toMatch(/call stack/i);
          return;
        }
        expect(depthOf(value)).toBeLessThanOrEqual(DATA_LIMITS.depth);
      }),
      { numRuns: 400 },
    );
  });

  it('the reader answers a value or one DataFileError, its first line naming the file', () => {
    fc.assert(
      fc.property(hostileYaml, fc.boolean(), (text, json) => {
        try {
          parseDataText('qa.yaml', text, json);
        } catch (error) {
          expect(error).toBeInstanceOf(DataFileError);
          expect((error as Error).message.split('\n')[0]).toMatch(/^qa\.yaml: /);
          expect((error as Error).message.length).toBeLessThan(8192);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('nested collections of every style: refused exactly past the limit when the scan is exact', () => {
    const level = fc.constantFrom('flow-seq', 'flow-map', 'json');
    fc.assert(
      fc.property(fc.array(level, { minLength: 1, maxLength: 45 }), (levels) => {
        const open = levels.map((l) => (l === 'flow-seq' ? '[' : l === 'flow-map' ? '{a: ' : '{"a": ')).join('');
        const close = levels
          .map((l) => (l === 'flow-seq' ? ']' : '}'))
          .reverse()
          .join('');
        const text = `${open}1${close}`;
        const verdict = scan(text);
        expect(verdict === undefined).toBe(levels.length <= DATA_LIMITS.depth);
        if (verdict === undefined) expect(depthOf(parseYaml(text, { logLevel: 'error' }))).toBe(levels.length);
      }),
      { numRuns: 200 },
    );
  });
});
