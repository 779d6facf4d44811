/**
 * `--har` when the process is killed mid-run (the built binary: the process itself is the
 * subject): the file is a whole HAR at every moment, so what a killed batch leaves is valid and
 * holds the exchanges written so far.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../sqlite.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/domain/demo.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { seedGenerated } from '../../src/sandbox/seed/generated.js';
import { openDatabase } from '../../src/sandbox/database.js';
import { BIN } from './harness.js';

let root: string;
let sandbox: RunningSandbox;
let uids: string[];
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'udcli-har-kill-'));
  const dbPath = join(root, 'sandbox.db');
  const db = openDatabase(dbPath);
  try {
    const { seedDemo } = await import('../../src/sandbox/seed/demo.js');
    seedDemo(db);
    seedGenerated(db, { users: 300, friends: 0, achievements: 0, products: 0, seed: 'kill' });
  } finally {
    db.close();
  }
  const raw = new Database(dbPath, { readonly: true });
  uids = raw.prepare("SELECT uid FROM users WHERE username LIKE 'gen%' LIMIT 300").pluck().all() as string[];
  raw.close();
  // Every reply held a little, so the batch is still running when it is killed.
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1', dbPath, latencyMs: 25, log: () => undefined });
});
afterAll(async () => {
  await sandbox?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

function entriesIn(file: string): number | undefined {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { log: { entries: unknown[] } }).log.entries.length;
  } catch {
    return undefined;
  }
}

describe('--har and a killed process', () => {
  it('leaves a valid HAR holding what was written', async () => {
    expect(uids.length).toBe(300);
    const list = join(root, 'uids.txt');
    writeFileSync(list, `${uids.join('\n')}\n`);
    const har = join(root, 'batch.har');
    const child = spawn(
      process.execPath,
      [BIN, '--har', har, 'achievements', 'inc', `@${list}`, 'COLLECT_1000_GEMS', '--concurrency', '2'],
      {
        env: {
          PATH: process.env.PATH,
          NO_COLOR: '1',
          UDCLI_CONFIG_DIR: join(root, 'config'),
          UDCLI_DATA_DIR: join(root, 'data'),
          UDCLI_BASE_URL: sandbox.url,
          UDCLI_API_KEY: DEMO.game.apiKey,
          UDCLI_GAME_ID: DEMO.game.id,
        },
        stdio: 'ignore',
      },
    );
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
    // Wait for the file's first writes (an event, not a time), then kill without warning.
    await expect
      .poll(() => (existsSync(har) ? (entriesIn(har) ?? 0) : 0), { timeout: 20_000, interval: 20 })
      .toBeGreaterThan(10);
    child.kill('SIGKILL');
    await exited;
    const n = entriesIn(har);
    expect(n).toBeDefined();
    expect(n!).toBeGreaterThan(10);
    // A batch of 300 users makes at least 900 exchanges: it was killed part way.
    expect(n!).toBeLessThan(900);
  });
});
