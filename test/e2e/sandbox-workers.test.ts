/**
 * `udcli/sandbox` shared across test workers (`sandbox.worker(id)`, `connectSandbox(connection)`) and run as a child
 * process (`startSandbox({ process: true })`), from the built entry as a studio's test file uses it; state is changed
 * and read with udcli itself (saves, which are per game), as a test of theirs would.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/domain/demo.js';
import type * as Api from '../../src/sandbox/api/public.js';
import { openDatabase } from '../../src/sandbox/database.js';
import { GAME_TABLES } from '../../src/sandbox/repositories/game-copies.js';
import { runInProcess } from './harness.js';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const ENTRY = pathToFileURL(join(DIST, 'sandbox-api.mjs')).href;
const USER = DEMO.user.username;

let api: typeof Api;
let root: string;
let shared: Api.Sandbox;

beforeAll(async () => {
  api = (await import(ENTRY)) as typeof Api;
  root = mkdtempSync(join(tmpdir(), 'udcli-sandbox-workers-'));
  shared = await api.startSandbox();
});

afterAll(async () => {
  await shared?.stop();
  rmSync(root, { recursive: true, force: true });
});

type Target = { env(): Record<string, string> };
const udcli = (target: Target, args: string[]) =>
  runInProcess(args, { ...target.env(), UDCLI_CONFIG_DIR: join(root, 'config'), UDCLI_DATA_DIR: join(root, 'data') });

async function saved(target: Target, key: string): Promise<string | undefined> {
  const r = await udcli(target, ['saves', 'get', USER, key]);
  return r.code === 0 ? r.stdout.trimEnd() : undefined;
}

async function save(target: Target, key: string, value: string): Promise<void> {
  const r = await udcli(target, ['saves', 'set', USER, key, value]);
  expect(r.code, r.stderr).toBe(0);
}

describe('sandbox.worker(id): a worker’s own game in a shared sandbox', () => {
  it("keeps each worker's changes its own, and a worker's reset() puts back only its own", async () => {
    const [one, two] = [await shared.worker(1), await shared.worker('two')];
    expect(one.gameId).toBe(`${DEMO.game.id}.w-1`);
    expect(two.gameId).toBe(`${DEMO.game.id}.w-two`);
    expect(new Set([one.apiKey, two.apiKey, shared.apiKey]).size).toBe(3);
    expect(one.users.map((u) => u.username)).toContain(USER);

    await save(one, 'level', 'one');
    await save(two, 'level', 'two');
    expect([await saved(one, 'level'), await saved(two, 'level'), await saved(shared, 'level')]).toEqual([
      'one',
      'two',
      undefined,
    ]);

    await one.reset();
    expect(await saved(one, 'level')).toBeUndefined();
    expect(await saved(two, 'level')).toBe('two');
    // The game's own definitions came along: a quest of the demo game is there in the copy.
    const quests = await udcli(two, ['achievements', 'defs', '--json']);
    expect(quests.code, quests.stderr).toBe(0);
    expect(quests.stdout).toContain('LEVEL_10');
    await shared.reset();
  });

  it('reaches a sandbox another process started through its connection, and refuses one that describes another', async () => {
    const script = join(root, 'worker.mjs');
    writeFileSync(
      script,
      `import { connectSandbox } from ${JSON.stringify(ENTRY)};
const worker = await connectSandbox(JSON.parse(process.env.SANDBOX)).worker(process.env.WORKER);
process.stdout.write(JSON.stringify({ gameId: worker.gameId, env: worker.env() }));
`,
    );
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, [script], {
      env: { ...process.env, SANDBOX: JSON.stringify(shared.connection), WORKER: '7' },
    });
    const seen = JSON.parse(stdout) as { gameId: string; env: Record<string, string> };
    expect(seen.gameId).toBe(`${DEMO.game.id}.w-7`);
    const worker7 = { env: () => seen.env };
    await save(worker7, 'slot', 'from worker 7');
    expect(await saved(worker7, 'slot')).toBe('from worker 7');
    expect(await saved(shared, 'slot')).toBeUndefined();

    const other = api.connectSandbox({ ...shared.connection, signingSecret: 'another sandbox' });
    await expect(other.worker(7)).rejects.toThrow(/not the one this connection describes/);
    await expect(shared.worker('../x')).rejects.toThrow(/letters, digits/);
    expect(() => api.connectSandbox({ url: shared.url } as Api.SandboxConnection)).toThrow(/sandbox.connection/);
    await shared.reset();
  });

  it('copies every table that holds a game’s rows (a new one must be named in GAME_TABLES)', () => {
    const db = openDatabase(':memory:');
    try {
      const tables = db.sqlite
        .prepare<[], { name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        )
        .all()
        .map((t) => t.name)
        .filter((table) =>
          db.sqlite
            .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
            .all()
            .some((c) => c.name === 'game_id' || c.name === 'parent_id'),
        );
      expect(tables.sort()).toEqual(
        Object.keys(GAME_TABLES)
          .filter((t) => t !== 'games' && t !== 'user_achievements')
          .sort(),
      );
    } finally {
      db.close();
    }
  });
});

describe('startSandbox({ process: true })', () => {
  it('runs the sandbox in a child process with the same handle, and stop() ends it', async () => {
    const sandbox = await api.startSandbox({
      process: true,
      data: {
        games: [
          {
            id: '4711',
            name: 'Racers',
            keys: [{ api_key: '5f0e3b7c9a1d4e2f8b6c0a9d7e5f3b1c', signing_secret: 'racers-secret-1' }],
          },
        ],
        users: [{ username: USER, plays: ['4711'] }],
      },
    });
    try {
      const status = (await (await fetch(`${sandbox.url}/_sandbox/status`)).json()) as { pid: number };
      expect(status.pid).not.toBe(process.pid);
      expect({ gameId: sandbox.gameId, users: sandbox.users.map((u) => u.username) }).toEqual({
        gameId: '4711',
        users: [USER],
      });
      expect(sandbox.gameUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

      await save(sandbox, 'slot', 'lap 1');
      await sandbox.snapshot('lap1');
      await save(sandbox, 'slot', 'lap 2');
      await sandbox.restore('lap1');
      expect(await saved(sandbox, 'slot')).toBe('lap 1');
      expect((await sandbox.requests()).some((r) => r.method === 'PUT' || r.method === 'POST')).toBe(true);

      expect((await sandbox.clock.set('2031-05-01T00:00:00Z')).toISOString()).toBe('2031-05-01T00:00:00.000Z');
      await sandbox.reset();
      expect(await saved(sandbox, 'slot')).toBeUndefined();
      expect((await sandbox.clock.now()).getUTCFullYear()).not.toBe(2031);
      // Only what came after reset(): the reads of saved() above, none of the changes before it.
      const after = await sandbox.requests();
      expect(after.length).toBeGreaterThan(0);
      expect(after.filter((r) => r.method !== 'GET')).toEqual([]);

      const worker = await sandbox.worker(3);
      await save(worker, 'slot', 'worker 3');
      expect(await saved(sandbox, 'slot')).toBeUndefined();
    } finally {
      await sandbox.stop();
    }
    const gone = await fetch(`${sandbox.url}/_sandbox/status`).then(
      () => false,
      () => true,
    );
    expect(gone).toBe(true);
  });
});
