import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  exclusive,
  isoFromSeconds,
  parseApiPath,
  parseChoice,
  parseFieldPairs,
  parseGameId,
  parseHex32,
  parseInteger,
  parseKey,
  parseParentType,
  parseProgress,
  parseUid,
  parseUserBeforeKey,
  parseUserRef,
  redactCanonical,
  resolveGame,
} from '../../src/ops/args.js';
import { confirm } from '../../src/runtime/prompt.js';
import { CancelledError, UsageError } from '../../src/errors.js';
import { DEMO } from '../../src/domain/demo.js';

const UID = DEMO.user.uid;

function usage(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  throw new Error('expected a UsageError, nothing was thrown');
}

describe('parseUid', () => {
  it('accepts 32 hex digits in any case and returns lower case', () => {
    expect(parseUid(UID.toUpperCase())).toBe(UID);
    expect(parseUid(` ${UID} `)).toBe(UID);
  });
  it('rejects a username with a hint pointing at `udcli user`', () => {
    const err = usage(() => parseUid('demo_player'));
    expect(err.message).toBe('invalid uid "demo_player": expected 32 hex digits');
    expect(err.hint).toContain('udcli user demo_player');
  });
  it('rejects 31 and 33 digits, non-hex letters and empty input', () => {
    usage(() => parseUid(UID.slice(1)));
    usage(() => parseUid(UID + '0'));
    usage(() => parseUid('g' + UID.slice(1)));
    expect(usage(() => parseUid('')).message).toMatch(/^missing uid/);
  });
  it('escapes control characters in the message', () => {
    expect(usage(() => parseUid('a\nb')).message).toContain('"a\\nb"');
  });
});

describe('parseUserBeforeKey: arguments typed the wrong way round', () => {
  const UID = '01e528d59829836fd23b09085b56edab';
  const swapped = (
    user: string,
    key: string,
    keyName: string,
    command: string,
    batch = false,
  ): { message: string; hint: string | undefined } => {
    try {
      parseUserBeforeKey(user, key, keyName, command, batch);
    } catch (error) {
      if (error instanceof UsageError) return { message: error.message, hint: error.hint };
      throw error;
    }
    throw new Error(`no error for ${user} ${key}`);
  };

  it('the right order passes, whatever the key looks like', () => {
    expect(parseUserBeforeKey('alice', 'LEVEL_10', 'developer_id', 'achievements reset')).toEqual({
      username: 'alice',
    });
    expect(parseUserBeforeKey(UID, 'LEVEL_10', 'developer_id', 'achievements reset')).toEqual({ uid: UID });
    expect(parseUserBeforeKey('demo_player', 'xp-boost', 'sku', 'products give')).toEqual({ username: 'demo_player' });
    expect(parseUserBeforeKey('alice', 'gems:500', 'sku', 'products give')).toEqual({ username: 'alice' });
    expect(parseUserBeforeKey('alice', 'SPEED RUN/100%', 'developer_id', 'achievements inc')).toEqual({
      username: 'alice',
    });
    // Both written like keys: nothing says which is the user, so no hint.
    expect(parseUserBeforeKey('BIG_BOSS', 'LEVEL_10', 'developer_id', 'achievements inc')).toEqual({
      username: 'BIG_BOSS',
    });
    expect(parseUserBeforeKey('alice', 'SLOT_1', 'key', 'saves get')).toEqual({ username: 'alice' });
  });

  it('a bad user before a key is the user that is wrong, not a swap', () => {
    // A uid cut short, or text that is no name, before a key written in capitals.
    expect(() => parseUserBeforeKey('abc123', 'X', 'developer_id', 'achievements inc')).toThrow(
      /^invalid uid "abc123": expected 32 hex digits$/,
    );
    expect(() => parseUserBeforeKey('not a name', 'SKU', 'sku', 'products give')).toThrow(/^invalid uid "not a name"/);
  });

  it('uid form: the uid second', () => {
    expect(swapped('LEVEL_10', UID, 'developer_id', 'achievements reset')).toEqual({
      message: `arguments look swapped: "${UID}" is a uid and "LEVEL_10" looks like the developer_id`,
      hint: `the uid comes first: udcli achievements reset ${UID} LEVEL_10`,
    });
    expect(swapped('xp-boost', UID, 'sku', 'products take').hint).toBe(
      `the uid comes first: udcli products take ${UID} xp-boost`,
    );
    expect(swapped('slot1', UID, 'key', 'saves erase').hint).toBe(
      `the uid comes first: udcli saves erase ${UID} slot1`,
    );
  });

  it('username form: a key written as studios write them first, a username second', () => {
    expect(swapped('LEVEL_10', 'alice', 'developer_id', 'achievements reset')).toEqual({
      message: 'arguments look swapped: "alice" looks like a username and "LEVEL_10" like the developer_id',
      hint: 'the user comes first: udcli achievements reset alice LEVEL_10 (if LEVEL_10 is the username, give its uid: udcli user LEVEL_10)',
    });
    expect(swapped('gems:500', 'demo_player', 'sku', 'products give').hint).toMatch(
      /^the user comes first: udcli products give demo_player gems:500 /,
    );
    expect(swapped('SPEED RUN/100%', 'alice', 'developer_id', 'achievements inc').hint).toBe(
      "the user comes first: udcli achievements inc alice 'SPEED RUN/100%'",
    );
    expect(swapped('SLOT_1', 'alice', 'key', 'saves set').message).toMatch(/^arguments look swapped/);
  });

  it('batch form: @FILE second, for the commands that take one', () => {
    expect(swapped('LEVEL_10', '@testers.txt', 'developer_id', 'achievements delete', true)).toEqual({
      message:
        'arguments look swapped: "@testers.txt" is a batch input (@FILE) and "LEVEL_10" looks like the developer_id',
      hint: "@FILE comes first, in the user's place: udcli achievements delete @testers.txt LEVEL_10",
    });
    expect(swapped('xp-boost', '@-', 'sku', 'products give', true).hint).toBe(
      "@FILE comes first, in the user's place: udcli products give @- xp-boost",
    );
  });
});

describe('parseHex32', () => {
  it('names the argument in the message', () => {
    expect(usage(() => parseHex32('xyz', 'auth_token')).message).toBe(
      'invalid auth_token "xyz": expected 32 hex digits',
    );
    expect(parseHex32('ABCDEF0123456789ABCDEF0123456789', 'auth_token')).toBe('abcdef0123456789abcdef0123456789');
  });
});

describe('parseUserRef', () => {
  it('treats 32 hex digits as a uid and anything else as a username', () => {
    expect(parseUserRef(UID.toUpperCase())).toEqual({ kind: 'uid', uid: UID });
    expect(parseUserRef('demo_player')).toEqual({ kind: 'username', username: 'demo_player' });
  });
  it('--username forces a username lookup even for hex', () => {
    expect(parseUserRef(UID, true)).toEqual({ kind: 'username', username: UID });
  });
  it('rejects an empty name', () => {
    usage(() => parseUserRef('  '));
  });
});

describe('parseInteger', () => {
  it('parses integers within range', () => {
    expect(parseInteger('1', '--qty', { min: 1 })).toBe(1);
    expect(parseInteger('500', '--limit', { min: 1, max: 500 })).toBe(500);
    expect(parseInteger('0', '--offset', { min: 0 })).toBe(0);
  });
  it('rejects fractions, words, out-of-range and unsafe values with the bounds in the message', () => {
    expect(usage(() => parseInteger('0', '--qty', { min: 1 })).message).toBe(
      'invalid --qty "0": expected an integer ≥ 1',
    );
    expect(usage(() => parseInteger('1.5', '--qty', { min: 1 })).message).toContain('expected an integer');
    usage(() => parseInteger('1e3', '--limit'));
    usage(() => parseInteger('ten', '--limit'));
    usage(() => parseInteger('', '--limit'));
    expect(usage(() => parseInteger('501', '--limit', { min: 1, max: 500 })).message).toContain('from 1 to 500');
    usage(() => parseInteger('99999999999999999999', '--offset', { min: 0 }));
  });
});

describe('parseProgress', () => {
  it('takes fractions from 0 to 1', () => {
    expect(parseProgress('0')).toBe(0);
    expect(parseProgress('0.5')).toBe(0.5);
    expect(parseProgress('.25')).toBe(0.25);
    expect(parseProgress('1')).toBe(1);
    expect(parseProgress('1.0')).toBe(1);
  });
  it('takes percentages from 0% to 100% and converts them', () => {
    expect(parseProgress('75%')).toBe(0.75);
    expect(parseProgress('0%')).toBe(0);
    expect(parseProgress('100%')).toBe(1);
    expect(parseProgress('12.5%')).toBe(0.125);
    expect(String(parseProgress('7%'))).toBe('0.07');
  });
  it('rejects values outside the range and malformed input', () => {
    for (const bad of ['1.5', '101%', '-0.1', '-5%', 'half', '', '%', '50 %', '0x1', '1e-1', 'NaN']) {
      usage(() => parseProgress(bad));
    }
    expect(usage(() => parseProgress('101%')).message).toContain('0% to 100%');
  });
});

describe('choices and keys', () => {
  it('parses Game|Website in any case', () => {
    expect(parseParentType('website')).toBe('Website');
    expect(parseParentType('GAME')).toBe('Game');
    expect(usage(() => parseParentType('app')).message).toContain('expected Game or Website');
  });
  it('returns the listed spelling of a choice', () => {
    expect(parseChoice('DESC', '--sort', ['asc', 'desc'] as const)).toBe('desc');
    expect(usage(() => parseChoice('up', '--sort', ['asc', 'desc'] as const)).message).toBe(
      'invalid --sort "up": expected one of asc, desc',
    );
  });
  it('takes any key text but blanks and control characters; game ids without / or spaces', () => {
    expect(parseKey('FIRST_WIN', 'developer_id')).toBe('FIRST_WIN');
    expect(parseKey('SPEED RUN/100%', 'developer_id')).toBe('SPEED RUN/100%');
    expect(parseKey('héros+épée', 'sku')).toBe('héros+épée');
    usage(() => parseKey('', 'sku'));
    usage(() => parseKey('  ', 'sku'));
    usage(() => parseKey('A\tB', 'sku'));
    expect(parseGameId('1001')).toBe('1001');
    usage(() => parseGameId('10/01'));
    usage(() => parseGameId('10 01'));
  });
  it('exclusive names the clashing flags', () => {
    expect(usage(() => exclusive({ offset: '1', page: '2' }, 'offset', 'page')).message).toBe(
      '--offset and --page cannot be used together',
    );
    expect(() => exclusive({ offset: '1' }, 'offset', 'page')).not.toThrow();
  });
});

describe('resolveGame', () => {
  it('prefers the explicit game, then the profile, else a usage error', () => {
    expect(resolveGame('1002', { gameId: '1001' }, 'pass --game ID')).toBe('1002');
    expect(resolveGame(undefined, { gameId: '1001' }, 'pass --game ID')).toBe('1001');
    expect(usage(() => resolveGame(undefined, {}, 'pass --game ID')).message).toBe(
      'no game: pass --game ID or set game_id in the profile',
    );
  });
});

describe('parseApiPath', () => {
  it('prefixes service paths and keeps site paths', () => {
    expect(parseApiPath(`users/${UID}.json`)).toEqual({
      path: `/services/rest/v1/users/${UID}.json`,
      query: [],
      base: 'api',
    });
    expect(parseApiPath(`/users/${UID}.json`).path).toBe(`/services/rest/v1/users/${UID}.json`);
    expect(parseApiPath('/services/rest/v1/friends/x.json').path).toBe('/services/rest/v1/friends/x.json');
    expect(parseApiPath('service/user-auth-token-generator/1001')).toEqual({
      path: '/service/user-auth-token-generator/1001',
      query: [],
      base: 'site',
    });
    expect(parseApiPath('/login').base).toBe('site');
  });
  it('moves a query string into parameters', () => {
    expect(parseApiPath('users/demo_player.json?username=1&x=a%20b').query).toEqual([
      ['username', '1'],
      ['x', 'a b'],
    ]);
  });
  it('rejects absolute URLs, dot segments and blanks', () => {
    usage(() => parseApiPath('http://evil.example/users/x.json'));
    usage(() => parseApiPath('../../etc/passwd'));
    // As a front end may read them: percent-encoded (also twice), behind %2f or \\, with ;params.
    for (const dotted of [
      'service/%2e%2e/services/x',
      'a/%2E/b',
      'a/.%2e/b',
      'a/%252e%252e/b',
      'a%2f..%2fb',
      'a\\..\\b',
      'a/..;x/b',
    ]) {
      expect(usage(() => parseApiPath(dotted)).message).toMatch(/must not contain \. or \.\. segments/);
    }
    expect(parseApiPath('users/a..b.json').path).toBe('/services/rest/v1/users/a..b.json');
    expect(parseApiPath('users/%2e%2ex.json').path).toBe('/services/rest/v1/users/%2e%2ex.json');
    usage(() => parseApiPath('users/a b.json'));
    usage(() => parseApiPath(''));
  });
  it('parses -f name=value pairs, keeping = in values', () => {
    expect(parseFieldPairs(['a=1', 'b=x=y', 'c='])).toEqual([
      ['a', '1'],
      ['b', 'x=y'],
      ['c', ''],
    ]);
    usage(() => parseFieldPairs(['novalue']));
    usage(() => parseFieldPairs(['=1']));
  });
});

describe('redactCanonical', () => {
  it('redacts secret parameter values and leaves the rest', () => {
    const canonical = `PUT\n/services/rest/v1/products/user/${UID}.json\napi_key=${DEMO.game.apiKey}&qty=1&sku=GOLD&timestamp=1700000000`;
    const shown = redactCanonical(canonical);
    expect(shown).not.toContain(DEMO.game.apiKey);
    expect(shown).toContain('api_key=0123…cdef&qty=1&sku=GOLD&timestamp=1700000000');
    expect(redactCanonical(shown)).toBe(shown);
  });
});

describe('isoFromSeconds', () => {
  it('formats numbers and numeric strings, blanks the rest', () => {
    expect(isoFromSeconds('1700000000')).toBe('2023-11-14T22:13:20Z');
    expect(isoFromSeconds(0)).toBe('1970-01-01T00:00:00Z');
    expect(isoFromSeconds(undefined)).toBe('');
    expect(isoFromSeconds('soon')).toBe('');
  });
});

describe('confirm', () => {
  function io(answer: string | null, tty = true) {
    const stdin = new PassThrough();
    const stderr = new PassThrough();
    let prompt = '';
    stderr.on('data', (d: Buffer) => (prompt += d.toString()));
    if (answer !== null) stdin.end(answer);
    else stdin.end();
    return { io: { stdin, stderr, stdinIsTTY: tty, stderrIsTTY: tty }, prompt: () => prompt };
  }
  it('asks on a terminal and goes ahead on y or yes', async () => {
    const t = io('y\n');
    await confirm(t.io, 'Delete achievement FIRST_WIN?', { yes: false });
    expect(t.prompt()).toBe('Delete achievement FIRST_WIN? [y/N] ');
    await confirm(io('YES\n').io, 'Delete?', { yes: false });
  });
  it('cancels on anything else, including an empty answer and end of input', async () => {
    await expect(confirm(io('n\n').io, 'Delete?', { yes: false })).rejects.toBeInstanceOf(CancelledError);
    await expect(confirm(io('\n').io, 'Delete?', { yes: false })).rejects.toBeInstanceOf(CancelledError);
    await expect(confirm(io('yep\n').io, 'Delete?', { yes: false })).rejects.toBeInstanceOf(CancelledError);
    await expect(confirm(io(null).io, 'Delete?', { yes: false })).rejects.toBeInstanceOf(CancelledError);
  });
  it('does not ask off a terminal or with --yes', async () => {
    const off = io('n\n', false);
    await confirm(off.io, 'Delete?', { yes: false });
    expect(off.prompt()).toBe('');
    const yes = io('n\n');
    await confirm(yes.io, 'Delete?', { yes: true });
    expect(yes.prompt()).toBe('');
  });
});
