/** State lives in SQLite: it survives a clean restart, a SIGKILL, and two processes writing at once. */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../src/sandbox/database.js';
import { LATEST_SCHEMA_VERSION } from '../../src/sandbox/migrations/index.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { API_PREFIX, type ProductEntry, type UserAchievement } from '../../src/domain/types.js';
import { api, call, sign, tempDir } from './helpers/sandbox.js';

const REGISTER_TS = fileURLToPath(new URL('./helpers/register-ts.mjs', import.meta.url));
const CHILD = fileURLToPath(new URL('./helpers/child-sandbox.ts', import.meta.url));
const USER = uidForUsername('player_0200');
const UA = `/achievements/user/${USER}.json`;
const gems: Array<[string, string]> = [
  ['type', 'Game'],
  ['pid', '1001'],
  ['developer_id', 'COLLECT_1000_GEMS'],
];

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

// The sandbox takes each hmac signature once (issue 31, 5): a counter the server ignores keeps
// two increments signed in the same second apart.
let sent = 0;

function increment(url: string, by: number) {
  const full = `${API_PREFIX}${UA}`;
  const params = sign(
    'PUT',
    full,
    [['api_key', DEMO.game.apiKey], ...gems, ['increment', String(by)], ['n', String(++sent)]],
    DEMO.game.signingSecret,
    Math.floor(Date.now() / 1000),
  );
  return call(url, 'PUT', full, params);
}

async function gemsValue(url: string): Promise<number | undefined> {
  return (await api<UserAchievement[]>(url, 'GET', UA, gems)).body.payload?.[0]?.current_value;
}

/** A sandbox in a child process on a free port; resolves once it printed its URL. */
async function childSandbox(dbPath: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', REGISTER_TS, CHILD, dbPath], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  cleanup.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`child sandbox exited (${code}): ${stderr}`)));
  });
  return { child, url: (JSON.parse(line) as { url: string }).url };
}

describe('durability', () => {
  it('keeps every change across a clean restart, and does not seed the demo data again', async () => {
    const dir = tempDir();
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const dbPath = join(dir, 'sandbox.db');
    const first = await startSandbox({ port: 0, dbPath, seed: 'demo' });
    expect((await increment(first.url, 7)).status).toBe(200);
    const del = await api(first.url, 'DELETE', `/achievements/user/${DEMO.user.uid}.json`, [
      ['type', 'Game'],
      ['pid', '1001'],
      ['developer_id', 'FIRST_WIN'],
    ]);
    expect(del.status).toBe(200);
    await first.close();
    await first.close(); // closing twice is harmless

    const second = await startSandbox({ port: 0, dbPath, seed: 'demo' });
    cleanup.push(() => second.close());
    expect(await gemsValue(second.url)).toBe(7);
    const player = await api<UserAchievement[]>(second.url, 'GET', `/achievements/user/${DEMO.user.uid}.json`, [
      ['type', 'Game'],
      ['pid', '1001'],
    ]);
    // Its record is gone: the list (started quests only) no longer has it.
    expect(player.body.payload!.find((a) => a.developer_id === 'FIRST_WIN')).toBeUndefined();
  });

  it('keeps every answered change when the sandbox process is killed with SIGKILL', async () => {
    const dir = tempDir();
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const dbPath = join(dir, 'sandbox.db');
    const { child, url } = await childSandbox(dbPath);
    for (let i = 0; i < 10; i++) expect((await increment(url, 5)).status).toBe(200);
    const grant = await api<ProductEntry>(url, 'POST', `/products/user/${USER}.json`, [
      ['parent_id', '1001'],
      ['sku', 'xp-boost'],
      ['qty', '2'],
    ]);
    expect(grant.status).toBe(200);

    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    const db = openDatabase(dbPath);
    try {
      expect(db.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
      const def = db.repos.achievements.definitionByDeveloperId('Game', '1001', 'COLLECT_1000_GEMS')!;
      expect(db.repos.achievements.find(USER, def.id)?.currentValue).toBe(50);
      const boost = db.repos.products.findBySku('Game', '1001', 'xp-boost')!;
      expect(db.repos.products.quantity(USER, boost)).toBe(2);
    } finally {
      db.close();
    }
    // And a new sandbox serves it.
    const again = await startSandbox({ port: 0, dbPath });
    cleanup.push(() => again.close());
    expect(await gemsValue(again.url)).toBe(50);
  });

  it('two sandbox processes on one database file never lose an update', async () => {
    const dir = tempDir();
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const dbPath = join(dir, 'sandbox.db');
    const inProcess = await startSandbox({ port: 0, dbPath, seed: 'demo' });
    cleanup.push(() => inProcess.close());
    const { url: childUrl } = await childSandbox(dbPath);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => increment(i % 2 === 0 ? inProcess.url : childUrl, 2).then((r) => r.status)),
    );
    expect(results.every((s) => s === 200)).toBe(true);
    expect(await gemsValue(inProcess.url)).toBe(80);
    expect(await gemsValue(childUrl)).toBe(80);
  });
});

describe('database', () => {
  it('opens :memory:, migrates to the latest schema, and re-opening a file does not migrate twice', () => {
    const mem = openDatabase(':memory:');
    expect(mem.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
    expect(mem.isEmpty()).toBe(true);
    mem.close();
    const dir = tempDir();
    try {
      const path = join(dir, 'x.db');
      openDatabase(path).close();
      const db = openDatabase(path);
      expect(db.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
      expect(String(db.sqlite.pragma('journal_mode', { simple: true }))).toBe('wal');
      expect(Number(db.sqlite.pragma('foreign_keys', { simple: true }))).toBe(1);
      expect(Number(db.sqlite.pragma('busy_timeout', { simple: true }))).toBeGreaterThan(0);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a database from a newer udcli with a clear error', () => {
    const dir = tempDir();
    try {
      const path = join(dir, 'future.db');
      const db = openDatabase(path);
      db.sqlite.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
      db.close();
      expect(() => openDatabase(path)).toThrow(/newer than this udcli knows/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is quiet: starting, serving (errors included) and closing write nothing to stdout or stderr', async () => {
    const written: string[] = [];
    const capture = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
    try {
      const sandbox = await startSandbox({ port: 0, dbPath: ':memory:' });
      await fetch(`${sandbox.url}/services/rest/v1/users/${DEMO.user.uid}.json`);
      await fetch(`${sandbox.url}/services/rest/v1/users/%zz.json`);
      await fetch(`${sandbox.url}/nowhere`);
      await sandbox.close();
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
    expect(written).toEqual([]);
  });

  it('reports a port in use as a UdcliError with a hint', async () => {
    const first = await startSandbox({ port: 0, dbPath: ':memory:' });
    try {
      await expect(startSandbox({ port: first.port, dbPath: ':memory:' })).rejects.toMatchObject({
        name: 'UdcliError',
        message: expect.stringMatching(/already in use/),
        hint: expect.stringMatching(/sandbox status/),
      });
    } finally {
      await first.close();
    }
  });
});
