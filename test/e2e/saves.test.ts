/**
 * `udcli saves list|get|set|erase` end to end: the built binary against a real sandbox. State is
 * read back from the sandbox's database (withDb), independently of the CLI; each printed undo is
 * run through sh exactly as printed.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Database } from '../sqlite.js';
import { describe, expect, it, fileSandbox } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import {
  addProfile,
  connectionsTo,
  DEMO_KEY_FLAGS,
  json,
  nowhere,
  runPrinted as runPrintedLine,
  runOnTerminal,
  withDb,
  type CliResult,
  type RunOptions,
} from './harness.js';
import { fileScratch } from '../scratch.js';

const PLAYER = DEMO.user.uid;
const ALICE = uidForUsername('alice');
const BOB = uidForUsername('bob');
/** Users no other test here saves for: one with no saves, one filled to the limit. */
const CAROL = uidForUsername('carol');
const DAVE = uidForUsername('dave');

const env = fileSandbox();
const scratch = fileScratch('udcli-e2e-saves-');

const udcli = (args: string[], o?: RunOptions): Promise<CliResult> => env.runChecked(args, o);

/** The saved value as the sandbox's database holds it (null: none), for the demo game. */
function stored(uid: string, key: string): string | null {
  return withDb(env, (db) => {
    const row = db
      .prepare('SELECT value FROM game_saves WHERE uid = ? AND game_id = ? AND key = ?')
      .get(uid, DEMO.game.id, key) as { value: string } | undefined;
    return row?.value ?? null;
  });
}

function auditLines(): Array<{
  command: string;
  uid: string;
  change: string;
  undo: string | null;
  before: unknown;
  after: unknown;
}> {
  const path = join(env.configDir, 'audit.log');
  return existsSync(path)
    ? readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        // The outcome lines: each change's intent, written ahead, is tested in write-ahead.test.ts.
        .filter((l: { kind?: string }) => l.kind !== 'intent')
    : [];
}

/** The status of each line of a batch's NDJSON output, in order. */
function statuses(r: CliResult): string[] {
  return r.stdout
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { status: string }).status);
}

function line(r: CliResult, label: string): string {
  const found = r.stderr.split('\n').find((l) => l.startsWith(`${label}:`));
  if (!found) throw new Error(`no ${label} line (exit ${r.code}):\n${r.stderr}`);
  return found.replace(new RegExp(`^${label}:\\s+`), '');
}

/** Runs a printed command line (with `extra` typed after it) as a shell would (harness runPrinted). */
const runPrinted = (printed: string, extra = ''): Promise<CliResult> => runPrintedLine(printed + extra, env.env);

describe('set, get, list', () => {
  it('set inline: saved as given, receipt, audit line; the undo (an erase) leaves nothing saved', async () => {
    const audit = auditLines().length;
    const r = await udcli(['saves', 'set', PLAYER, 'inline', '{"level":3,"big":12345678901234567890}']);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toEqual({ key: 'inline', success: 1 });
    expect(stored(PLAYER, 'inline')).toBe('{"level":3,"big":12345678901234567890}');
    expect(line(r, 'Changed')).toBe('save inline of 01e5…: (none) → 38 bytes {"level":3,"big":12345678901234567890}');
    const undo = line(r, 'Undo');
    // The undo names the profile and the server it changed (issue 22).
    expect(undo).toBe(`udcli saves erase ${PLAYER} inline --profile sandbox --base-url ${env.sandbox.url}`);
    const lines = auditLines();
    expect(lines).toHaveLength(audit + 1);
    expect(lines.at(-1)).toMatchObject({ uid: PLAYER, before: null, after: { key: 'inline', bytes: 38 }, undo });
    expect(lines.at(-1)!.command).toContain('udcli saves set');

    // The erase asks first; off a terminal the pasted undo needs --yes, as `achievements delete` does.
    const refused = await runPrinted(undo);
    expect(refused.code, refused.stderr).toBe(2);
    expect(stored(PLAYER, 'inline')).not.toBeNull();
    const undone = await runPrinted(undo, ' --yes');
    expect(undone.code, undone.stderr).toBe(0);
    expect(stored(PLAYER, 'inline')).toBeNull();
  });

  it('get pretty-prints JSON keeping its digits, prints text as saved; -o json; exit 4 when nothing is saved', async () => {
    await udcli(['saves', 'set', PLAYER, 'slot1', '{"level":3,"big":12345678901234567890,"f":1.0}']);
    const pretty = await udcli(['saves', 'get', PLAYER, 'slot1']);
    expect(pretty.code, pretty.stderr).toBe(0);
    expect(pretty.stdout).toBe('{\n  "level": 3,\n  "big": 12345678901234567890,\n  "f": 1.0\n}\n');
    expect((await udcli(['saves', 'get', PLAYER, 'slot1', '-o', 'ndjson'])).stdout).toBe(
      '{"level":3,"big":12345678901234567890,"f":1.0}\n',
    );

    await udcli(['saves', 'set', 'alice', 'note', 'plain words']);
    expect((await udcli(['saves', 'get', ALICE, 'note'])).stdout).toBe('plain words\n');
    expect(json(await udcli(['saves', 'get', 'alice', 'note', '-o', 'json']))).toBe('plain words');

    const none = await udcli(['saves', 'get', PLAYER, 'never-saved']);
    expect(none.code).toBe(4);
    expect(none.stderr).toMatch(/^udcli: not found: no save "never-saved" for user 01e528d59829836fd23b09085b56edab/);
  });

  it('list: the payload as JSON, a table with KEY, SIZE and a preview; {} for none', async () => {
    await udcli(['saves', 'set', PLAYER, 'slot1', '{"level":3}']);
    await udcli(['saves', 'set', PLAYER, 'slot2', 'x'.repeat(300)]);
    const r = await udcli(['saves', 'list', 'demo_player']);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toMatchObject({ slot1: expect.stringContaining('"level":3'), slot2: 'x'.repeat(300) });
    const table = await udcli(['saves', 'list', PLAYER, '-o', 'table']);
    expect(table.stdout).toMatch(/^KEY\s+SIZE\s+VALUE/);
    expect(table.stdout).toMatch(/slot2\s+300\s+x{59}…/);
    expect(json(await udcli(['saves', 'list', CAROL]))).toEqual({});
  });

  it('set @FILE and set - (stdin); a long earlier value goes to a 0600 file the undo names, and the undo restores it', async () => {
    const file = join(scratch, 'save.json');
    const long = JSON.stringify({ inventory: Array.from({ length: 40 }, (_, i) => `item-${i}`) }, null, 2);
    writeFileSync(file, long);
    const fromFile = await udcli(['saves', 'set', PLAYER, 'inv', `@${file}`]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(stored(PLAYER, 'inv')).toBe(long);

    const fromStdin = await udcli(['saves', 'set', PLAYER, 'inv', '-'], { input: '{"inventory":[]}' });
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(stored(PLAYER, 'inv')).toBe('{"inventory":[]}');
    const undo = line(fromStdin, 'Undo');
    const kept = /@(\S+)/.exec(undo)?.[1];
    expect(kept, undo).toBeDefined();
    expect(kept!.startsWith(join(env.configDir, 'saves-undo'))).toBe(true);
    expect(readFileSync(kept!, 'utf8')).toBe(long);
    expect(statSync(kept!).mode & 0o777).toBe(0o600);
    expect(line(fromStdin, 'Note')).toContain(kept);
    expect(auditLines().at(-1)).toMatchObject({
      command: expect.stringMatching(/saves set \S+ inv - --profile sandbox --base-url \S+$/),
      before: { bytes: long.length },
    });

    const undone = await runPrinted(undo);
    expect(undone.code, undone.stderr).toBe(0);
    expect(stored(PLAYER, 'inv')).toBe(long);
  });

  it('the same value again: "No change", no undo', async () => {
    await udcli(['saves', 'set', PLAYER, 'same', 'v1']);
    const r = await udcli(['saves', 'set', PLAYER, 'same', 'v1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^No change: save same of 01e5…: 2 bytes v1 → 2 bytes v1$/m);
    expect(line(r, 'Undo')).toBe('none');
  });
});

describe('erase', () => {
  it('off a terminal without --yes: exit 2, nothing erased; --yes erases, and the undo saves the value again', async () => {
    await udcli(['saves', 'set', PLAYER, 'gone', '{"a":1}']);
    const refused = await udcli(['saves', 'erase', PLAYER, 'gone']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--yes/);
    expect(stored(PLAYER, 'gone')).toBe('{"a":1}');

    const r = await udcli(['saves', 'erase', PLAYER, 'gone', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toEqual({ gone: 'deleted' }); // the platform's storage page: the erased key, "deleted"
    expect(stored(PLAYER, 'gone')).toBeNull();
    expect(line(r, 'Changed')).toBe('save gone of 01e5…: 7 bytes {"a":1} → (erased)');
    expect(auditLines().at(-1)).toMatchObject({
      command: `udcli saves erase ${PLAYER} gone --profile sandbox --base-url ${env.sandbox.url}`,
      before: { value: '{"a":1}' },
      after: null,
    });
    const undone = await runPrinted(line(r, 'Undo'));
    expect(undone.code, undone.stderr).toBe(0);
    expect(stored(PLAYER, 'gone')).toBe('{"a":1}');

    const none = await udcli(['saves', 'erase', PLAYER, 'never-saved', '--yes']);
    expect(none.code).toBe(4);
  });

  it('on a terminal it asks, showing what is lost; "n" keeps it, "y" erases', async () => {
    await udcli(['saves', 'set', PLAYER, 'asked', 'keep me']);
    const prompt = 'Erase save asked of user';
    const no = await runOnTerminal(['saves', 'erase', PLAYER, 'asked'], env.env, { prompt, input: 'n\n' });
    expect(no.stdout).toContain('(7 bytes keep me)?');
    expect(no.code).toBe(2);
    expect(stored(PLAYER, 'asked')).toBe('keep me');
    const yes = await runOnTerminal(['saves', 'erase', PLAYER, 'asked'], env.env, { prompt, input: 'y\n' });
    expect(yes.code, yes.stdout).toBe(0);
    expect(stored(PLAYER, 'asked')).toBeNull();
  });
});

describe('@FILE and --dry-run, as every declared change', () => {
  it('--dry-run reads, shows the request and what would change, and saves nothing', async () => {
    const r = await udcli(['saves', 'set', ALICE, 'dryslot', '{"a":1}', '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toMatchObject({
      dry_run: true,
      request: { method: 'POST' },
      expected: `save dryslot of ${ALICE.slice(0, 4)}…: (none) → 7 bytes`,
    });
    expect(stored(ALICE, 'dryslot')).toBeNull();
  });

  it('set @FILE saves for every user; erase @FILE --yes --journal erases, and a rerun with the journal sends nothing', async () => {
    const users = join(scratch, 'savers.txt');
    writeFileSync(users, 'alice\nbob\n');
    const set = await udcli(['saves', 'set', `@${users}`, 'batchslot', '{"b":2}']);
    expect(set.code, set.stderr).toBe(0);
    expect(statuses(set)).toEqual(['ok', 'ok']);
    expect([stored(ALICE, 'batchslot'), stored(BOB, 'batchslot')]).toEqual(['{"b":2}', '{"b":2}']);
    const journal = join(scratch, 'erase.jsonl');
    const erase = await udcli(['saves', 'erase', `@${users}`, 'batchslot', '--yes', '--journal', journal]);
    expect(erase.code, erase.stderr).toBe(0);
    expect([stored(ALICE, 'batchslot'), stored(BOB, 'batchslot')]).toEqual([null, null]);
    const again = await udcli(['saves', 'erase', `@${users}`, 'batchslot', '--yes', '--journal', journal]);
    expect(again.code, again.stderr).toBe(0);
    expect(statuses(again)).toEqual(['skipped', 'skipped']);
  });

  it('@- for the users and - for the value both read standard input: refused before anything is sent', async () => {
    const r = await udcli(['saves', 'set', '@-', 'slot1', '-'], { input: 'alice\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/@- and - both read standard input/);
  });
});

describe('bad input: exit 2, nothing sent', () => {
  it.each([
    ['a key with a space', ['saves', 'set', PLAYER, 'bad key', 'x'], /invalid key "bad key"/],
    ['a key of 65 characters', ['saves', 'set', PLAYER, 'k'.repeat(65), 'x'], /65 characters, at most 64/],
    ['a bad key to get', ['saves', 'get', PLAYER, 'a/b'], /invalid key/],
    ['an empty value', ['saves', 'set', PLAYER, 'k', ''], /empty value/],
    ['a missing file', ['saves', 'set', PLAYER, 'k', '@/nonexistent/file'], /cannot read \/nonexistent\/file/],
    [
      'an auth token that is not 32 hex digits',
      ['saves', 'set', PLAYER, 'k', 'x', '--auth-token', 'abc'],
      /invalid --auth-token/,
    ],
    ['an erase of a bad key', ['saves', 'erase', PLAYER, 'k'.repeat(65), '--yes'], /invalid key/],
  ])('%s', async (_what, args, message) => {
    // Nothing listens there: a 5 would mean something was sent.
    const r = await udcli(args, { env: await nowhere() });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('a value over 256 KiB, from a file or stdin', async () => {
    const big = join(scratch, 'big.txt');
    writeFileSync(big, 'a'.repeat(256 * 1024 + 1));
    const off = await nowhere();
    const fromFile = await udcli(['saves', 'set', PLAYER, 'big', `@${big}`], { env: off });
    expect(fromFile.code).toBe(2);
    expect(fromFile.stderr).toMatch(/value too large in .*big\.txt: more than 262144 bytes/);
    const fromStdin = await udcli(['saves', 'set', PLAYER, 'big', '-'], { env: off, input: 'é'.repeat(131073) });
    expect(fromStdin.code).toBe(2);
    expect(fromStdin.stderr).toMatch(/value too large from standard input/);
    expect(connectionsTo(off)).toBe(0);
    // Exactly 256 KiB is saved.
    writeFileSync(big, 'a'.repeat(256 * 1024));
    const ok = await udcli(['saves', 'set', PLAYER, 'big', `@${big}`]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(stored(PLAYER, 'big')).toHaveLength(256 * 1024);
  });
});

describe("the player's auth token", () => {
  it('got from the sandbox by itself: -v shows it redacted, never in full', async () => {
    const r = await udcli(['saves', 'set', PLAYER, 'tok', 'v', '-v']);
    expect(r.code, r.stderr).toBe(0);
    const said =
      /auth token for \S+ in game 1001: ([0-9a-f]{4}…[0-9a-f]{4}) \(sandbox login as demo_player \+ token generator\)/.exec(
        r.stderr,
      );
    expect(said, r.stderr).not.toBeNull();
    // The only 32 hex digits printed are the player's uid.
    expect(new Set(r.stderr.match(/[0-9a-f]{32}/g))).toEqual(new Set([PLAYER]));
  });

  it('--auth-token or UDCLI_AUTH_TOKEN: used as given; the undo says it needs the token again; a wrong one is exit 3', async () => {
    const got = await udcli(['auth', 'token', DEMO.game.id, '--as', 'alice', '--export']);
    expect(got.code, got.stderr).toBe(0);
    const token = /UDCLI_AUTH_TOKEN=([0-9a-f]{32})/.exec(got.stdout)![1]!;
    const r = await udcli(['saves', 'set', ALICE, 'given', 'v1', '--auth-token', token, '-v']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/token generator/);
    expect(r.stderr).not.toContain(token);
    expect(line(r, 'Note')).toMatch(/needs the player's auth token again/);
    const viaEnv = await udcli(['saves', 'erase', ALICE, 'given', '--yes'], { env: { UDCLI_AUTH_TOKEN: token } });
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
    expect(stored(ALICE, 'given')).toBeNull();

    // A token of another user: the service's 403, nothing saved.
    const wrong = await udcli(['saves', 'set', PLAYER, 'given', 'v1', '--auth-token', token]);
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toMatch(/invalid auth_token/);
    expect(stored(PLAYER, 'given')).toBeNull();
  });

  it('outside the sandbox without a token: exit 2 naming both ways, the save never sent', async () => {
    await addProfile(udcli, 'elsewhere', 'http://127.0.0.1:9', ...DEMO_KEY_FLAGS, '--game-id', DEMO.game.id);
    const off = await nowhere();
    const r = await udcli(['--profile', 'elsewhere', 'saves', 'set', PLAYER, 'k', 'v'], { env: off });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/no auth token for user .*--auth-token .*UDCLI_AUTH_TOKEN/);
  });
});

describe("the server's refusals keep their exit codes", () => {
  it('an unknown user is 4; a 101st key is the 409 (exit 1), nothing saved', async () => {
    const unknown = await udcli(['saves', 'list', '0'.repeat(32)]);
    expect(unknown.code, unknown.stderr).toBe(4);
    // 100 keys for dave, written straight into the sandbox's database.
    const db = new Database(env.sandbox.dbPath);
    try {
      const insert = db.prepare('INSERT INTO game_saves (uid, game_id, key, value, updated_on) VALUES (?, ?, ?, ?, 0)');
      db.transaction(() => {
        for (let i = 0; i < 100; i++) insert.run(DAVE, DEMO.game.id, `k${i}`, 'v');
      })();
    } finally {
      db.close();
    }
    const full = await udcli(['saves', 'set', 'dave', 'one-more', 'v']);
    expect(full.code, full.stderr).toBe(1);
    expect(full.stderr).toMatch(/too many saves/);
    expect(stored(DAVE, 'one-more')).toBeNull();
    // Replacing a key already saved is still fine.
    expect((await udcli(['saves', 'set', 'dave', 'k1', 'w'])).code).toBe(0);
  });
});

describe('a production profile', () => {
  it('off a terminal without --yes: the banner, exit 2, nothing saved; with --yes (and a token) it saves', async () => {
    await addProfile(udcli, 'live', env.sandbox.url, ...DEMO_KEY_FLAGS, '--production');
    const got = await udcli(['auth', 'token', DEMO.game.id, '--as', 'demo_player', '--export']);
    const token = /UDCLI_AUTH_TOKEN=([0-9a-f]{32})/.exec(got.stdout)![1]!;

    // Never the sandbox: no token is fetched by itself there.
    const noToken = await udcli(['--profile', 'live', 'saves', 'set', PLAYER, 'prod', 'v', '--yes']);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toMatch(/no auth token/);

    const refused = await udcli(['--profile', 'live', 'saves', 'set', PLAYER, 'prod', 'v', '--auth-token', token]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('PRODUCTION profile "live"');
    expect(refused.stderr).toMatch(/--yes/);
    expect(stored(PLAYER, 'prod')).toBeNull();

    const done = await udcli([
      '--profile',
      'live',
      'saves',
      'set',
      PLAYER,
      'prod',
      'v',
      '--auth-token',
      token,
      '--yes',
    ]);
    expect(done.code, done.stderr).toBe(0);
    expect(stored(PLAYER, 'prod')).toBe('v');
    expect(line(done, 'Undo')).toBe(`udcli saves erase ${PLAYER} prod --profile live --base-url ${env.sandbox.url}`);
  });
});
