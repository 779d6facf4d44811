/**
 * The worker a server parses YAML in (issue 31, 3) holds what the prescan would not: a nesting
 * bomb handed to it directly ends in the yaml package's error inside the worker, the server's
 * thread untouched, and the next parse runs as usual.
 */
import { describe, expect, it } from 'vitest';
import { parseYamlOffThread, yamlParsesRunning } from '../../src/sandbox/data/yaml-worker.js';

describe('the YAML worker', () => {
  it('a bomb past any prescan: an error from the worker, not a crash; then a good file parses, with its lines', async () => {
    // The worker's stack ends some 3,300 levels in (column 3282 of this line), whatever the bomb's
    // length: a bomb six times that deep is as much past it as a longer one, which only costs the
    // yaml package's lexer more (4 CPU-seconds at 100,000).
    const parsed = await parseYamlOffThread(`users: ${'['.repeat(20_000)}`, 1000);
    expect(parsed).toMatchObject({ error: { message: expect.stringMatching(/call stack|memory/i) } });
    parsed.close();
    const good = await parseYamlOffThread('users:\n  - username: a\n  - username: b\n', 1000);
    expect(good).toMatchObject({ value: { users: [{ username: 'a' }, { username: 'b' }] } });
    if (!('lines' in good)) throw new Error('no value');
    expect(
      await good.lines([
        ['users', 1, 'username'],
        ['users', 5],
      ]),
    ).toEqual([3, 2]); // users[5] is not there: the line of users itself
    good.close();
    expect(yamlParsesRunning()).toBe(0);
  });
});
