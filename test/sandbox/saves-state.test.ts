/**
 * Game saves are part of the sandbox's state like everything else (SERVICE.md: Game saves): a
 * snapshot restore brings them back into a running sandbox, and `sandbox reset` (to the demo data
 * or to a data file) clears every save the file does not carry.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from '../fixtures.js';
import { register } from '../../src/cli/commands/sandbox/index.js';
import { DEMO } from '../../src/domain/demo.js';
import { openDatabase } from '../../src/sandbox/database.js';
import { STARTER_FILE } from '../../src/sandbox/data/starter.js';
import { seedDemo } from '../../src/sandbox/seed/demo.js';
import { restoreSnapshot, saveSnapshot, snapshotDir } from '../../src/sandbox/snapshots.js';
import { testFactory } from './helpers/factory.js';
import { api, tempDir, type TestSandbox } from './helpers/sandbox.js';

const PLAYER = DEMO.user.uid;

let root: string;
beforeAll(() => {
  root = tempDir('udcli-saves-state-');
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const savesOf = async (sb: TestSandbox) =>
  (await api<Record<string, string>>(sb.url, 'GET', `/gamesave/${PLAYER}.json`)).body.payload;

describe('snapshots', () => {
  it('a restore brings back the saves as they were, in the running sandbox', async ({ sb }) => {
    const now = Math.floor(sb.clock.ms / 1000);
    sb.db.repos.saves.put(PLAYER, DEMO.game.id, 'slot1', '{"level":3}', now);
    sb.db.repos.saves.put(PLAYER, DEMO.game.id, 'slot2', '{"level":7}', now);
    const dir = snapshotDir(join(root, 'data'));
    const file = await saveSnapshot(sb.db, dir, 'before');

    sb.db.repos.saves.erase(PLAYER, DEMO.game.id, 'slot1');
    sb.db.repos.saves.put(PLAYER, DEMO.game.id, 'slot2', '{"level":8}', now + 60);
    sb.db.repos.saves.put(PLAYER, DEMO.game.id, 'slot3', '{}', now + 60);
    expect(await savesOf(sb)).toEqual({ slot2: '{"level":8}', slot3: '{}' });

    restoreSnapshot(sb.db, file);
    expect(await savesOf(sb)).toEqual({ slot1: '{"level":3}', slot2: '{"level":7}' });
    expect(sb.db.repos.saves.get(PLAYER, DEMO.game.id, 'slot2')?.updatedOn).toBe(now);
  });
});

describe('reset', () => {
  const reset = async (args: string[]) => {
    const program = new Command('udcli').exitOverride();
    register(program, testFactory({ UDCLI_DATA_DIR: join(root, 'data') }));
    await program.parseAsync(['sandbox', 'reset', ...args], { from: 'user' });
  };

  it('to the demo data clears every save', async () => {
    const dbPath = join(root, 'demo.db');
    const db = openDatabase(dbPath);
    seedDemo(db);
    db.repos.saves.put(PLAYER, DEMO.game.id, 'slot1', '{"level":3}', 1_800_000_000);
    db.close();
    await reset(['--db', dbPath]);
    const fresh = openDatabase(dbPath);
    try {
      expect(fresh.repos.users.findByUid(PLAYER)).toBeDefined();
      expect(fresh.repos.saves.listFor(PLAYER, DEMO.game.id)).toEqual([]);
    } finally {
      fresh.close();
    }
  });

  it("to a data file leaves the file's saves and no other", async () => {
    const file = join(root, 'qa.yaml');
    writeFileSync(file, STARTER_FILE);
    const dbPath = join(root, 'file.db');
    await reset(['--db', dbPath, '--data', file]);
    let db = openDatabase(dbPath);
    const alice = db.repos.users.findByUsername('qa_alice')!.uid;
    db.repos.saves.put(alice, '4711', 'later', '1', 1_800_000_000);
    db.repos.saves.put(alice, '4711', 'slot1', 'changed', 1_800_000_000);
    db.close();
    await reset(['--db', dbPath, '--data', file]);
    db = openDatabase(dbPath);
    try {
      expect(db.repos.saves.listFor(alice, '4711').map((s) => [s.key, s.value])).toEqual([
        ['slot1', '{"level":3,"ore":40}'],
      ]);
    } finally {
      db.close();
    }
  });
});
