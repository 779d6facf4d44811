import { describe, expect, it } from 'vitest';
import { parseGlobals, scanArgv } from '../../src/cli/global-options.js';
import { UsageError } from '../../src/errors.js';

describe('global options', () => {
  it('has the documented defaults', () => {
    expect(parseGlobals({})).toEqual({
      raw: false,
      timeoutMs: 15000,
      retries: 2,
      verbose: false,
      color: true,
      quiet: false,
      yes: false,
    });
  });

  it('validates and normalizes values', () => {
    const g = parseGlobals({
      output: 'CSV',
      fields: 'uid, username,,',
      timeout: '2500',
      retries: '0',
      apiKey: 'B84276AA-5397-4B89-A8BA-0F16FFB7566F',
      baseUrl: 'http://127.0.0.1:9000/',
      color: false,
      profile: 'live',
    });
    expect(g).toMatchObject({
      output: 'csv',
      fields: ['uid', 'username'],
      timeoutMs: 2500,
      retries: 0,
      apiKey: 'b84276aa53974b89a8ba0f16ffb7566f',
      baseUrl: 'http://127.0.0.1:9000',
      color: false,
      profile: 'live',
    });
    expect(parseGlobals({ json: true }).output).toBe('json');
  });

  it.each([
    [{ output: 'yaml' }, /invalid --output "yaml": expected one of table, json, ndjson, csv/],
    [{ json: true, output: 'csv' }, /--json conflicts with --output csv/],
    [{ timeout: '0' }, /invalid --timeout/],
    [{ timeout: '1.5' }, /invalid --timeout/],
    [{ retries: '-1' }, /invalid --retries/],
    [{ apiKey: 'abc' }, /invalid --api-key/],
    [{ baseUrl: 'localhost:8787' }, /invalid --base-url/],
    [{ fields: ' , ' }, /invalid --fields/],
  ])('rejects %o', (raw, message) => {
    expect(() => parseGlobals(raw)).toThrow(UsageError);
    expect(() => parseGlobals(raw)).toThrow(message);
  });
});

describe('finding the command in argv', () => {
  it.each([
    [['user', 'x'], { command: 'user', commandIndex: 0, verbose: false }],
    [['--profile', 'live', '-o', 'json', 'friends', 'x'], { command: 'friends', commandIndex: 4, verbose: false }],
    [['--fields=uid', '-ojson', '-v', 'user'], { command: 'user', commandIndex: 3, verbose: true }],
    [['-vq', 'doctor'], { command: 'doctor', commandIndex: 1, verbose: true }],
    [
      ['--timeout', '5', 'help', 'profile'],
      { command: 'help', commandIndex: 2, helpTarget: 'profile', verbose: false },
    ],
    [['--verbose'], { verbose: true }],
    [['--', 'user'], { verbose: false }],
  ])('%j', (argv, expected) => {
    expect(scanArgv(argv)).toEqual(expected);
  });
});
