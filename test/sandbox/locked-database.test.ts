/**
 * Another process holding the database's write lock (issue 21, 3): the server's event loop never
 * waits on it. A real second process opens the file with better-sqlite3 and holds BEGIN
 * IMMEDIATE until told to let go while changes and reads arrive: every change answers 200 or 503 with
 * Retry-After (never a 500 "database is locked"), nothing is applied twice, and a read that needs
 * no write answers at once meanwhile.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { sqliteDriverPath } from '../sqlite.js';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { uidForUsername } from '../../src/domain/ids.js';
import type { UserAchievement } from '../../src/domain/types.js';
import { api, signedApi, type TestSandbox } from './helpers/sandbox.js';
import { until } from '../until.js';

/**
 * A node process that takes the write lock of `file`, says "locked", and lets go when told to (a line
 * on its stdin) or, should a test fail before telling it, after `holdMs`.
 */
const HOLDER = `
const Database = require(process.argv[1]);
const db = new Database(process.argv[2]);
db.exec('BEGIN IMMEDIATE');
db.exec("UPDATE games SET name = name");
process.stdout.write('locked\\n');
let held = true;
const release = () => { if (!held) return; held = false; db.exec('COMMIT'); db.close(); process.stdout.write('released\\n'); process.exit(0); };
setTimeout(release, Number(process.argv[3]));
process.stdin.on('data', release);
`;

function holdLock(
  file: string,
  holdMs: number,
): Promise<{ child: ChildProcess; released: Promise<void>; release(): void }> {
  const child = spawn(process.execPath, ['-e', HOLDER, sqliteDriverPath(), file, String(holdMs)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const released = new Promise<void>((done) => child.on('exit', () => done()));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.startsWith('locked\n')) resolve({ child, released, release: () => void child.stdin!.end('release\n') });
    });
    child.on('exit', (code) => reject(new Error(`the lock holder exited (${code}) before locking: ${out}`)));
  });
}

/** Resolves once the sandbox has taken `n` more requests (their heads read) than when called. */
function requestsTaken(n: number): Promise<void> {
  return new Promise((resolve) => {
    let left = n;
    const seen = () => {
      if (--left > 0) return;
      sb.app.server.off('request', seen);
      resolve();
    };
    sb.app.server.on('request', seen);
  });
}

/**
 * The sandbox has taken `n` more requests and answered a read after them (reads answer while the
 * lock is held): by then those requests have met the lock and are waiting on it.
 */
async function waitingOnLock(taken: Promise<void>): Promise<void> {
  await taken;
  expect((await api(sb.url, 'GET', '/users/player_0112.json', [['username', '1']])).status).toBe(200);
}

/** Long enough that the holder never lets go by itself before a test tells it to. */
const UNTIL_TOLD_MS = 60_000;

/** Where a player's COLLECT_1000_GEMS record is, and the parameters that name it. */
function gemsRecord(username: string): { path: string; target: Array<[string, string]> } {
  return {
    path: `/achievements/user/${uidForUsername(username)}.json`,
    target: [
      ['type', 'Game'],
      ['pid', '1001'],
      ['developer_id', 'COLLECT_1000_GEMS'],
    ],
  };
}

let sb: TestSandbox;
const lines: string[] = [];
beforeAll(async ({ newSb }) => {
  sb = await newSb({ requestLines: (text) => lines.push(...text.split('\n').filter(Boolean)) });
});

describe('another process holds the write lock', () => {
  it('changes answer 200 or 503 with Retry-After, never 500; reads answer while the lock is held; no change is applied twice', async () => {
    const { path, target } = gemsRecord('player_0110');
    // Held until told: the changes sent first outwait the retry budget whatever the machine's speed (503),
    // the one sent after they were refused goes through once the lock is let go (200).
    const { released, release } = await holdLock(sb.db.path, UNTIL_TOLD_MS);
    let lockLetGo = false;
    void released.then(() => (lockLetGo = true));
    const change = () =>
      signedApi(sb, 'PUT', path, [...target, ['increment', '1']]).then((r) => ({
        status: r.status,
        retryAfter: r.headers.get('retry-after'),
        message: r.body.message,
      }));

    const taken = requestsTaken(3);
    const early = [change(), change(), change()];
    // Changes are waiting for the lock now; a read that needs no write answers while the other process
    // still holds it (an event loop blocked on the lock would answer only after).
    await waitingOnLock(taken);
    expect(lockLetGo).toBe(false);
    const refusedFirst = await Promise.all(early);
    expect(lockLetGo).toBe(false);

    const takenLate = requestsTaken(1);
    const late = change();
    await waitingOnLock(takenLate);
    release();
    const results = [...refusedFirst, await late];
    await released;
    for (const r of results) expect([200, 503]).toContain(r.status);
    const refused = results.filter((r) => r.status === 503);
    expect(refusedFirst.map((r) => r.status)).toEqual([503, 503, 503]);
    expect(results.at(-1)!.status).toBe(200);
    for (const r of refused) {
      expect(r.retryAfter).toBe('1');
      expect(r.message).toMatch(/^database busy: another process is writing to the sandbox database; retry after 1 s$/);
    }
    // The request log says why (its lines come in batches, a few milliseconds after the requests).
    const busyLines = () => lines.filter((l) => / 503 /.test(l) && /database busy/.test(l));
    await until(() => busyLines().length >= refused.length, 'the refusals logged');
    expect(busyLines()).toHaveLength(refused.length);

    // Each 200 applied exactly once, each 503 not at all.
    const accepted = results.filter((r) => r.status === 200).length;
    const after = await api<UserAchievement[]>(sb.url, 'GET', path, target);
    expect(after.body.payload![0]!.current_value).toBe(accepted);
  }, 15_000);

  it('a change sent while the lock is held goes through once it is let go, within the wait', async () => {
    const { path, target } = gemsRecord('player_0111');
    const { released, release } = await holdLock(sb.db.path, UNTIL_TOLD_MS);
    // Let go only once the change has arrived: it waits for the lock, then goes through.
    const taken = requestsTaken(1);
    const sent = signedApi(sb, 'PUT', path, [...target, ['increment', '5']]);
    await waitingOnLock(taken);
    release();
    const r = await sent;
    await released;
    expect(r.status).toBe(200);
    const after = await api<UserAchievement[]>(sb.url, 'GET', path, target);
    expect(after.body.payload![0]!.current_value).toBe(5);
  }, 15_000);
});

describe('the site and the play page write like the API (issue 31)', () => {
  it('a login, a play page load (a new token) and the token generator sent while the lock is held wait, and succeed once it is let go', async () => {
    const { released, release } = await holdLock(sb.db.path, UNTIL_TOLD_MS);
    const taken = requestsTaken(2);
    const login = fetch(`${sb.url}/login?username=alice`, { method: 'POST' });
    const playLogin = fetch(`${sb.url}/play/1001/login`, {
      method: 'POST',
      body: new URLSearchParams({ username: 'bob' }),
      redirect: 'manual',
    });
    await waitingOnLock(taken);
    release();
    const [site, play] = await Promise.all([login, playLogin]);
    await released;
    expect(site.status).toBe(200);
    expect(play.status).toBe(303);
    const cookie = String(site.headers.get('set-cookie')).split(';')[0]!;

    const held = await holdLock(sb.db.path, UNTIL_TOLD_MS);
    const takenToo = requestsTaken(2);
    const waiting = Promise.all([
      fetch(`${sb.url}/play/1001`, { headers: { cookie } }),
      fetch(`${sb.url}/service/user-auth-token-generator/1001`, { headers: { cookie } }),
    ]);
    await waitingOnLock(takenToo);
    held.release();
    const [page, token] = await waiting;
    await held.released;
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Playing as <strong id="username">alice</strong>');
    expect(token.status).toBe(200);
    expect(((await token.json()) as { uid: string }).uid).toBe(uidForUsername('alice'));
  }, 15_000);
});
