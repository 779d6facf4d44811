/**
 * The bounds of a data file (issue 21, 4), checked after aliases are expanded and before the
 * schema: each refused with the limit named, the path and the line; and JSON's duplicate keys.
 */
import { describe, expect, it } from 'vitest';
import { firstDuplicateKey } from '../../src/sandbox/data/json-scan.js';
import { DATA_LIMITS } from '../../src/sandbox/data/limits.js';
import { dataFileErrorOf } from './helpers/data-file.js';

const errorOf = (text: string, json: boolean) => dataFileErrorOf(text, json);

describe('the bounds of a data file', () => {
  it('users: one past the limit is refused at the first one too many', () => {
    const text = `{"users":[\n${Array.from({ length: DATA_LIMITS.users + 1 }, () => '{}').join(',\n')}\n]}`;
    expect(errorOf(text, true)).toBe(
      `qa.json: users[${DATA_LIMITS.users}]: more than ${DATA_LIMITS.users} users (the limit of a data file) (line ${DATA_LIMITS.users + 2})`,
    );
  });

  it('nesting: refused at the level past the limit, not a stack overflow', () => {
    const deep = `users: ${'['.repeat(40)}${']'.repeat(40)}\n`;
    expect(errorOf(deep, false)).toBe('qa.yaml: nested deeper than 32 levels (the limit of a data file) (line 1)');
    const deeper = `{"users": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(errorOf(deeper, true)).toBe('qa.json: nested deeper than 32 levels (the limit of a data file) (line 1)');
  });

  it('keys and list items after aliases are expanded: refused at the bound', () => {
    const text = `{"games": [${new Array(DATA_LIMITS.values + 1).fill('0').join(',')}]}`;
    expect(errorOf(text, true)).toBe(
      `qa.json: games[${DATA_LIMITS.values - 1}]: more than ${DATA_LIMITS.values} keys and list items, counted after YAML aliases are expanded (the limit of a data file) (line 1)`,
    );
  });

  it('a YAML syntax error is a YAML error, also in a file a bomb would be', () => {
    expect(errorOf('users: [\n', false)).toMatch(/^qa\.yaml: not valid YAML: /);
    expect(errorOf('a: &x [1]\nb: *y\n', false)).toMatch(/^qa\.yaml: not valid YAML: /);
  });
});

describe('JSON keys given twice', () => {
  it('found anywhere, with the path of the object and the line; escapes and strings that look like keys do not count', () => {
    expect(firstDuplicateKey('{"a": 1, "b": {"c": "\\"a\\"", "d": ["a", {"e": 1}, {"e": 2, "e": 3}]}}')).toEqual({
      path: ['b', 'd', 2],
      key: 'e',
      line: 1,
    });
    expect(firstDuplicateKey('{"a": 1,\n "\\u0061": 2}')).toEqual({ path: [], key: 'a', line: 2 });
    expect(firstDuplicateKey('{"a": {"x": 1}, "b": {"x": 1}, "c": [{"x": 1}, {"x": 2}]}')).toBeUndefined();
    expect(firstDuplicateKey('{"a": "{\\"b\\": 1, \\"b\\": 2}"}')).toBeUndefined();
  });

  it('a data file with one is refused like YAML refuses it', () => {
    expect(errorOf('{"games": [], "users": [], "games": []}', true)).toBe(
      'qa.json: games: the key "games" is given twice in one object (line 1)',
    );
    expect(errorOf('games: []\nusers: []\ngames: []\n', false)).toMatch(
      /^qa\.yaml: not valid YAML: Map keys must be unique/,
    );
  });
});
