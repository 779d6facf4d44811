/**
 * Snapshots of a database others are writing to (issue 21, 3 and 9), main in-process, the
 * built binary where a signal ends it or where its transaction must be in a process of its own:
 * `snapshot save` finishes under 8 steady writers in other processes, the snapshot is whole and
 * 0600, and no temporary file is left behind, also when the save is interrupted; `restore`
 * finishes under the same writers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database, sqliteDriverPath } from '../sqlite.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { API_PREFIX } from '../../src/domain/types.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { queryString, sign } from '../sandbox/helpers/sandbox.js';
import { BIN, runCli, runInProcess, usersIn } from './harness.js';
import { until } from '../until.js';

/** A process that changes one user row every few ms, each change its own transaction, until killed. */
const WRITER = `
const Database = require(process.argv[1]);
const db = new Database(process.argv[2]);
db.pragma('busy_timeout = 5000');
const flip = db.prepare('UPDATE users SET premium = 1 - premium WHERE rowid = ?');
const n = Number(process.argv[3]);
let writes = 0;
const tick = () => { flip.run(1 + Math.floor(Math.random() * n)); writes++; process.stdout.write('.'); setTimeout(tick, 2); };
process.on('SIGTERM', () => { process.stdout.write('\\n' + String(writes)); process.exit(0); });
tick();
`;

let scratch: string;
let env: NodeJS.ProcessEnv;
let db: string;
const USERS = 20_000;
/** The seeded users and the demo data's. */
let expectedUsers: number;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'udcli-e2e-snapshots-'));
  env = { UDCLI_CONFIG_DIR: join(scratch, 'config'), UDCLI_DATA_DIR: join(scratch, 'data') };
  db = join(scratch, 'big.db');
  const seeded = await runInProcess(
    ['sandbox', 'seed', '--users', String(USERS), '--friends', '20000', '--db', db],
    env,
  );
  expect(seeded.code, seeded.stderr).toBe(0);
  expectedUsers = usersIn(db);
  expect(expectedUsers).toBeGreaterThanOrEqual(USERS);
}, 90_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * Runs `commands` one after another among `count` writer processes started once for all of them
 * (a process each, with better-sqlite3 loaded, is most of what the writers cost); each command gets
 * what the earlier ones returned, and withWriters returns what each returned.
 */
async function withWriters<T>(count: number, commands: Array<(earlier: T[]) => Promise<T>>): Promise<T[]> {
  const betterSqlite = sqliteDriverPath();
  const writers: ChildProcess[] = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', WRITER, betterSqlite, db, String(USERS)], { stdio: ['ignore', 'pipe', 'inherit'] }),
  );
  const outputs = writers.map(() => ({ text: '' }));
  const counts = writers.map(
    (w, i) =>
      new Promise<number>((resolve) => {
        w.stdout!.setEncoding('utf8').on('data', (d: string) => (outputs[i]!.text += d));
        w.on('exit', () => resolve(Number(outputs[i]!.text.split('\n').at(-1))));
      }),
  );
  // One '.' a write, then the total when stopped.
  const written = (i: number) => outputs[i]!.text.split('\n')[0]!.length;
  try {
    // Every writer has written: the first command starts among running writers.
    await until(() => outputs.every((_, i) => written(i) > 0), 'the writers to start writing');
    const results: T[] = [];
    for (const [n, command] of commands.entries()) {
      results.push(await command(results));
      // Every writer writes on after each command (none was starved or died under it), so the next starts among them.
      const atEnd = outputs.map((_, i) => written(i));
      await until(
        () => outputs.every((_, i) => written(i) > atEnd[i]!),
        `every writer to write after command ${n + 1}`,
      );
    }
    return results;
  } finally {
    for (const w of writers) w.kill('SIGTERM');
    const writes = await Promise.all(counts);
    // Each stopped as asked, counting what it wrote.
    for (const [i, n] of writes.entries()) expect(n).toBeGreaterThanOrEqual(written(i));
  }
}

const snapshots = () => join(scratch, 'data', 'snapshots');
const leftovers = () => readdirSync(snapshots()).filter((f) => !/^[\w.-]+\.db$/.test(f));

/** The snapshot `steady`, saved now (no writers) when the test that saves it among writers has not run yet. */
async function steadySnapshot(): Promise<string> {
  const file = join(snapshots(), 'steady.db');
  if (!existsSync(file)) {
    const save = await runInProcess(['sandbox', 'snapshot', 'save', 'steady', '--db', db], env);
    expect(save.code, save.stderr).toBe(0);
  }
  return file;
}

describe('snapshots under steady writers', () => {
  it('save finishes while 8 processes write, whole, 0600, no temporary file left; restore finishes too', async () => {
    const file = join(snapshots(), 'steady.db');
    const [, restore] = await withWriters(8, [
      () => runInProcess(['sandbox', 'snapshot', 'save', 'steady', '--db', db], env),
      async ([save]) => {
        // The save, checked before the restore reads its snapshot (the writers run on meanwhile).
        expect(save!.code, save!.stderr).toBe(0);
        expect(statSync(file).mode & 0o777).toBe(0o600);
        expect(usersIn(file)).toBe(expectedUsers);
        expect(leftovers()).toEqual([]);
        return runInProcess(['sandbox', 'snapshot', 'restore', 'steady', '--db', db], env);
      },
    ]);
    expect(restore!.code, restore!.stderr).toBe(0);
    expect(usersIn(db)).toBe(expectedUsers);
  }, 90_000);

  it('a save interrupted (SIGINT, SIGTERM) at any moment leaves no temporary file and the earlier snapshot as it was', async () => {
    const keep = await steadySnapshot();
    const before = statSync(keep).mtimeMs;
    for (const [signal, delayMs] of [
      ['SIGINT', 150],
      ['SIGTERM', 250],
      ['SIGINT', 350],
      ['SIGTERM', 500],
    ] as const) {
      const child = spawn(process.execPath, [BIN, 'sandbox', 'snapshot', 'save', 'steady', '--db', db], {
        env: { ...process.env, ...env },
        stdio: 'ignore',
      });
      const closed = new Promise((resolve) => child.once('close', resolve));
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      child.kill(signal);
      await closed;
      expect(leftovers(), `${signal} after ${delayMs} ms`).toEqual([]);
      // Either the save was cancelled (the snapshot untouched) or it had finished (a whole new one).
      if (statSync(keep).mtimeMs !== before) expect(usersIn(keep)).toBe(expectedUsers);
    }
    expect(usersIn(keep)).toBe(expectedUsers);
  }, 60_000);

  it('a save killed with SIGKILL leaves its temporary files to the next save, which removes them', async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', 'snapshot', 'save', 'killed', '--db', db], {
      env: { ...process.env, ...env },
      stdio: 'ignore',
    });
    const closed = new Promise((resolve) => child.once('close', resolve));
    // Killed once its copy has begun (the temporary file exists).
    await until(
      () => existsSync(snapshots()) && readdirSync(snapshots()).some((f) => f.startsWith('killed.db.tmp-')),
      'the save to begin its copy',
      { timeoutMs: 10_000, intervalMs: 5 },
    ).finally(() => child.kill('SIGKILL'));
    await closed;
    const save = await runInProcess(['sandbox', 'snapshot', 'save', 'after', '--db', db], env);
    expect(save.code, save.stderr).toBe(0);
    expect(leftovers()).toEqual([]);
  }, 60_000);

  it('a restore into the database a sandbox serves: its changes answer 200 or 503 with Retry-After, never 500, and reads answer while it holds the write lock', async () => {
    await steadySnapshot();
    const sandbox = await startSandbox({ port: 0, dbPath: db, seed: 'none', log: () => undefined });
    const path = `${API_PREFIX}/achievements/user/${uidForUsername('player_0100')}.json`;
    // Each change signed apart (a counter the server ignores): the sandbox takes a signature once.
    let sent = 0;
    const change = async (): Promise<{ status: number; retryAfter: string | null }> => {
      const params = sign(
        'PUT',
        path,
        [
          ['api_key', DEMO.game.apiKey],
          ['type', 'Game'],
          ['pid', DEMO.game.id],
          ['developer_id', 'COLLECT_1000_GEMS'],
          ['increment', '1'],
          ['n', String(++sent)],
        ],
        DEMO.game.signingSecret,
        Math.floor(Date.now() / 1000),
      );
      const r = await fetch(`${sandbox.url}${path}?${queryString(params)}`, { method: 'PUT' });
      await r.text();
      return { status: r.status, retryAfter: r.headers.get('retry-after') };
    };
    const statuses: Array<{ status: number; retryAfter: string | null }> = [];
    // Whether another process holds the database's write lock: the restore's transaction (the
    // sandbox is in this process, and none of its transactions is open while this code runs).
    const probe = new Database(db);
    probe.pragma('busy_timeout = 0');
    const writeLocked = (): boolean => {
      try {
        probe.exec('BEGIN IMMEDIATE');
        probe.exec('ROLLBACK');
        return false;
      } catch (error) {
        if ((error as { code?: string }).code === 'SQLITE_BUSY') return true;
        throw error;
      }
    };
    // Reads answered from start to finish while the restore held the write lock: not waiting on it.
    let readsUnderRestore = 0;
    let restoring = true;
    const read = async () => {
      const lockedBefore = writeLocked();
      const r = await fetch(
        `${sandbox.url}${API_PREFIX}/users/player_0100.json?username=1&api_key=${DEMO.game.apiKey}`,
      );
      await r.text();
      expect(r.status).toBe(200);
      if (lockedBefore && writeLocked()) readsUnderRestore++;
    };
    const load = (async () => {
      while (restoring) {
        await read();
        statuses.push(...(await Promise.all([change(), change(), change()])));
      }
    })();
    const reads = (async () => {
      while (restoring) await read();
    })();
    try {
      // The binary: the restore's transaction in another process than the sandbox, as with a user's.
      const restore = await runCli(['sandbox', 'snapshot', 'restore', 'steady', '--db', db], env, {
        timeoutMs: 30_000,
      });
      expect(restore.code, restore.stderr).toBe(0);
    } finally {
      restoring = false;
      await Promise.all([load, reads]);
      probe.close();
      await sandbox.close();
    }
    expect(statuses.length).toBeGreaterThan(0);
    for (const r of statuses) {
      expect([200, 503]).toContain(r.status);
      if (r.status === 503) expect(r.retryAfter).toBe('1');
    }
    expect(readsUnderRestore).toBeGreaterThan(0);
  }, 60_000);
});
