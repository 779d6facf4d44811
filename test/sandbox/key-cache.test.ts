/**
 * The api keys and their games are cached in the server (repositories/key-cache.ts), and the
 * database is shared: a key or a game changed by another process (`sandbox load`, `snapshot
 * restore`, ...) or by the server itself counts from the next request on, never a stale answer.
 * The other process here is a real one: node with its own better-sqlite3 connection.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Database, sqliteDriverPath } from '../sqlite.js';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { cachedKeyLookup } from '../../src/sandbox/repositories/key-cache.js';
import { openDatabase } from '../../src/sandbox/database.js';
import { seedDemo } from '../../src/sandbox/seed/demo.js';
import { api, tempDir, type TestSandbox } from './helpers/sandbox.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NEW_KEY = 'feedfacefeedfacefeedfacefeedface';
const PLAYER = DEMO.user.uid;

/** Runs one SQL statement in another process, as `udcli sandbox load` or `snapshot restore` would write. */
function inAnotherProcess(dbPath: string, sql: string, ...params: Array<string | number>): void {
  const script = `const D = require(process.argv[4]); const db = new D(process.argv[1]); db.pragma('busy_timeout = 5000');
    db.prepare(process.argv[2]).run(...JSON.parse(process.argv[3])); db.close();`;
  execFileSync(process.execPath, ['-e', script, dbPath, sql, JSON.stringify(params), sqliteDriverPath()], {
    cwd: ROOT,
    stdio: 'pipe',
  });
}

const addKey = (dbPath: string, key: string) =>
  inAnotherProcess(
    dbPath,
    "INSERT INTO api_keys (api_key, game_id, signing_secret, partner, label, created_on) VALUES (?, '1001', 'another-secret', 0, 'added', 0)",
    key,
  );

describe('the key cache of a running sandbox', () => {
  let sb: TestSandbox;
  let dbPath: string;
  beforeAll(async ({ sb: fileSb }) => {
    sb = fileSb;
    dbPath = join(sb.dir, 'sandbox.db');
  });

  /** An unsigned change under NEW_KEY: a known key is challenged (401 with a session), an unknown one refused. */
  const unsignedChange = () =>
    api(
      sb.url,
      'PUT',
      `/achievements/user/${PLAYER}.json`,
      [
        ['type', 'Game'],
        ['pid', '1001'],
        ['developer_id', 'FIRST_WIN'],
        ['increment', '1'],
      ],
      NEW_KEY,
    );

  it('a key another process adds works on the next request, and one it removes is refused on the next', async () => {
    // Asked for (and remembered as unknown) before it exists.
    expect((await api(sb.url, 'GET', `/friends/${PLAYER}.json`, [], NEW_KEY)).status).toBe(401);
    expect((await api(sb.url, 'GET', `/friends/${PLAYER}.json`, [], NEW_KEY)).status).toBe(401);
    addKey(dbPath, NEW_KEY);
    expect((await api(sb.url, 'GET', `/friends/${PLAYER}.json`, [], NEW_KEY)).status).toBe(200);
    // Also on the write path (the key is looked up outside the handler's transaction there).
    const unsigned = await unsignedChange();
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.payload).toMatchObject({ session: expect.any(String), key: expect.any(String) });

    inAnotherProcess(dbPath, 'DELETE FROM api_keys WHERE api_key = ?', NEW_KEY);
    const gone = await api(sb.url, 'GET', `/friends/${PLAYER}.json`, [], NEW_KEY);
    expect(gone.status).toBe(401);
    expect(gone.body.message).toMatch(/api_key/);
    const goneWrite = await unsignedChange();
    expect(goneWrite.status).toBe(401);
    expect(goneWrite.body.payload).toBeNull();
  });

  it('a game another process changes is answered as changed on the next request', async () => {
    const playsGame = async () =>
      ((await api<Record<string, unknown>>(sb.url, 'GET', `/users/${PLAYER}.json`)).body.payload ?? {}).plays_game;
    expect(await playsGame()).toBeDefined();
    inAnotherProcess(dbPath, "UPDATE games SET launchable = 0 WHERE id = '1001'");
    expect(await playsGame()).toBeUndefined();
    inAnotherProcess(dbPath, "UPDATE games SET launchable = 1 WHERE id = '1001'");
    expect(await playsGame()).toBeDefined();
  });

  it("a user's reply (kept between requests: http/reply-cache.ts) follows every change to the user", async () => {
    const user = async () =>
      (await api<Record<string, unknown>>(sb.url, 'GET', `/users/${PLAYER}.json`)).body.payload ?? {};
    const before = await user();
    expect(await user()).toEqual(before);
    // Another process.
    inAnotherProcess(dbPath, "UPDATE users SET gender = 'x' WHERE uid = ?", PLAYER);
    expect((await user()).gender).toBe('x');
    // The server's own connection, whatever code writes (here none of the API's).
    sb.db.sqlite.prepare("UPDATE users SET gender = 'y' WHERE uid = ?").run(PLAYER);
    expect((await user()).gender).toBe('y');
    sb.db.sqlite.prepare("DELETE FROM plays WHERE uid = ? AND game_id = '1001'").run(PLAYER);
    expect((await user()).plays_game).toBe('0');
    // A write rolled back leaves the reply as it was.
    expect(() =>
      sb.db.transaction(() => {
        sb.db.sqlite.prepare("UPDATE users SET gender = 'z' WHERE uid = ?").run(PLAYER);
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect((await user()).gender).toBe('y');
    // The reply with another key (and none) is its own.
    expect(
      Object.keys(
        (await api<Record<string, unknown>>(sb.url, 'GET', `/users/${PLAYER}.json`, [], '')).body.payload ?? {},
      ),
    ).toEqual(['uid', 'username', 'avatar']);
  });

  it("the server's own changes count at once: a reset takes away a key another process added", async () => {
    addKey(dbPath, NEW_KEY);
    expect((await api(sb.url, 'GET', `/friends/${PLAYER}.json`, [], NEW_KEY)).status).toBe(200);
    const reset = await fetch(`${sb.url}/_sandbox/reset`, { method: 'POST' });
    expect(reset.status).toBe(200);
    expect((await api(sb.url, 'GET', `/friends/${PLAYER}.json`, [], NEW_KEY)).status).toBe(401);
    expect((await api(sb.url, 'GET', `/friends/${PLAYER}.json`)).status).toBe(200);
  });
});

describe('cachedKeyLookup on one connection', () => {
  it("sees its own connection's writes at once, and nothing of a transaction that rolled back", async () => {
    const db = openDatabase(join(tempDir(), 'keys.db'));
    try {
      seedDemo(db);
      const keys = cachedKeyLookup(db.sqlite, db.repos.games);
      expect(keys.find(NEW_KEY)).toBeUndefined();
      expect(keys.find(DEMO.game.apiKey)?.gameId).toBe(DEMO.game.id);
      const key = { apiKey: NEW_KEY, gameId: '1001', signingSecret: 's', partner: false, label: '', createdOn: 0 };

      // Inside a transaction that writes and then fails: looked up as it stands, never cached.
      expect(() =>
        db.transaction(() => {
          db.repos.games.insertApiKey(key);
          expect(keys.find(NEW_KEY)?.gameId).toBe('1001');
          throw new Error('rolled back');
        }),
      ).toThrow('rolled back');
      expect(keys.find(NEW_KEY)).toBeUndefined();

      db.repos.games.insertApiKey(key);
      expect(keys.find(NEW_KEY)?.gameId).toBe('1001');
      expect(db.repos.games.setContentUri('1001', 'http://localhost:5173/')).toBe(true);
      expect(keys.find(NEW_KEY)?.game.contentUri).toBe('http://localhost:5173/');
      expect(Object.isFrozen(keys.find(NEW_KEY))).toBe(true);

      // Another connection of this very process counts as another writer too, from the next
      // turn of the event loop on (what the server's next request runs in).
      const other = new Database(db.path);
      other.prepare('DELETE FROM api_keys WHERE api_key = ?').run(NEW_KEY);
      other.close();
      await new Promise((turn) => setImmediate(turn));
      expect(keys.find(NEW_KEY)).toBeUndefined();
    } finally {
      db.close();
    }
  });

  it('keeps a bounded number of keys', () => {
    const db = openDatabase(':memory:');
    try {
      seedDemo(db);
      let lookups = 0;
      const games = {
        findApiKey: (key: string) => {
          lookups++;
          return db.repos.games.findApiKey(key);
        },
      };
      const keys = cachedKeyLookup(db.sqlite, games, 3);
      for (let i = 0; i < 3; i++) keys.find(DEMO.game.apiKey);
      expect(lookups).toBe(1);
      for (let i = 0; i < 5; i++) keys.find(`${i}`.padStart(32, '0'));
      expect(lookups).toBe(6);
      keys.find(DEMO.game.apiKey);
      expect(lookups).toBe(7);
    } finally {
      db.close();
    }
  });
});
