/**
 * Databases and data files written before the platform's pages were read keep working, without
 * loss (issue 29): a database's `Started` rows become `In Progress` (migration 4), a data file's
 * `state: Started` and `completed_date: null` load as `In Progress` and the zero date with one
 * warning line naming the file and line; and a quest's state and dates round-trip through
 * export and load.
 */
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { Database } from '../sqlite.js';
import { afterEach, describe, expect, it } from 'vitest';
import { exportChunks } from '../../src/sandbox/data/export.js';
import { loadData } from '../../src/sandbox/data/load.js';
import { parseDataText } from '../../src/sandbox/data/read.js';
import { openDatabase } from '../../src/sandbox/database.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from '../../src/sandbox/migrations/index.js';
import { presentUserAchievement } from '../../src/sandbox/present.js';
import { restoreSnapshot } from '../../src/sandbox/snapshots.js';
import { tempDir } from './helpers/sandbox.js';

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn();
});

/** A database as udcli wrote it before migration 4: two quests of one user, one `Started`. */
function schema3Database(path: string): void {
  const old = new Database(path);
  for (const m of MIGRATIONS.filter((m) => m.version <= 3)) old.exec(m.sql);
  old.pragma('user_version = 3');
  old.exec(`
      INSERT INTO games (id, name, created_on) VALUES ('1001', 'Old Game', 1000);
      INSERT INTO users (uid, username, gender, created_on) VALUES ('${'a'.repeat(32)}', 'old_user', 'female', 1000);
      INSERT INTO achievements (id, parent_id, developer_id, name, target_value, created_on, updated_on) VALUES
        (1, '1001', 'HALF', 'Half way', 10, 1000, 1000), (2, '1001', 'DONE', 'Done', 1, 1000, 1000);
      INSERT INTO user_achievements (id, uid, achievement_id, current_value, state, started_on, completed_on, updated_on) VALUES
        (7, '${'a'.repeat(32)}', 1, 5, 'Started', 2000, NULL, 2100),
        (8, '${'a'.repeat(32)}', 2, 1, 'Completed', 3000, 3050, 3050);
    `);
  old.close();
}

describe('migration 4: a database of schema 3', () => {
  it('opens with its Started rows In Progress, every other value kept, and users with an empty email', () => {
    const dir = tempDir();
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'old.db');
    schema3Database(path);

    const db = openDatabase(path);
    cleanup.push(() => db.close());
    expect(db.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
    const rows = db.sqlite
      .prepare(
        'SELECT id, achievement_id, current_value, state, started_on, completed_on, updated_on FROM user_achievements ORDER BY id',
      )
      .all();
    expect(rows).toEqual([
      {
        id: 7,
        achievement_id: 1,
        current_value: 5,
        state: 'In Progress',
        started_on: 2000,
        completed_on: null,
        updated_on: 2100,
      },
      {
        id: 8,
        achievement_id: 2,
        current_value: 1,
        state: 'Completed',
        started_on: 3000,
        completed_on: 3050,
        updated_on: 3050,
      },
    ]);
    const listed = db.repos.achievements
      .list({
        uid: 'a'.repeat(32),
        parentType: 'Game',
        parentId: '1001',
        order: 'started_date',
        sort: 'asc',
        limit: 10,
        offset: 0,
      })
      .map(presentUserAchievement);
    expect(listed.map((q) => [q.developer_id, q.state, q.percent_complete, q.completed_date])).toEqual([
      ['HALF', 'In Progress', 50, '0000-00-00 00:00:00'],
      ['DONE', 'Completed', 100, '1970-01-01 00:50:50'],
    ]);
    expect(db.repos.users.findByUsername('old_user')).toMatchObject({ gender: 'female', email: '' });
    // The new state is the only one the table takes now.
    expect(() => db.sqlite.prepare("UPDATE user_achievements SET state = 'Started' WHERE id = 7").run()).toThrow(
      /CHECK/,
    );
  });

  it('a snapshot saved at schema 3 restores into a database of today: a migrated copy, the snapshot itself untouched', () => {
    const dir = tempDir();
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const snapshot = join(dir, 'old-snapshot.db');
    schema3Database(snapshot);
    const db = openDatabase(join(dir, 'live.db'));
    cleanup.push(() => db.close());
    restoreSnapshot(db, snapshot);
    expect(db.sqlite.prepare('SELECT id, state FROM user_achievements ORDER BY id').all()).toEqual([
      { id: 7, state: 'In Progress' },
      { id: 8, state: 'Completed' },
    ]);
    const still = new Database(snapshot, { readonly: true });
    cleanup.push(() => still.close());
    expect(still.pragma('user_version', { simple: true })).toBe(3);
  });
});

const GAME = `games:
  - id: "4711"
    name: QA
    achievements:
      - { developer_id: A, name: A, target_value: 10 }
      - { developer_id: B, name: B, target_value: 10 }
      - { developer_id: C, name: C, target_value: 1 }
`;

describe('a data file with the old words', () => {
  it('loads state Started as In Progress and completed_date null as the zero date, with one warning naming the file and line', () => {
    const text = `${GAME}users:
  - username: qa_old
    progress:
      "4711":
        A: { value: 3, state: Started, completed_date: null }
        B: { value: 4, state: Started }
        C: 1
`;
    const warnings: string[] = [];
    const data = parseDataText('old.yaml', text, false, (line) => warnings.push(line));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^old\.yaml: users\[0\]\.progress\.4711\.A\.state \(line 12\) \(and 2 more like it\): /,
    );
    expect(warnings[0]).toContain('"In Progress"');
    expect(warnings[0]).toContain('0000-00-00 00:00:00');
    const db = openDatabase(':memory:');
    cleanup.push(() => db.close());
    loadData(db, data, 1_800_000_000, 'old.yaml');
    const uid = db.repos.users.findByUsername('qa_old')!.uid;
    const listed = db.repos.achievements
      .list({ uid, parentType: 'Game', parentId: '4711', order: 'name', sort: 'asc', limit: 10, offset: 0 })
      .map(presentUserAchievement);
    expect(listed.map((q) => [q.developer_id, q.state, q.current_value, q.completed_date])).toEqual([
      ['A', 'In Progress', 3, '0000-00-00 00:00:00'],
      ['B', 'In Progress', 4, '0000-00-00 00:00:00'],
      ['C', 'Completed', 1, '2027-01-15 08:00:00'],
    ]);
  });

  it('the same file in JSON warns once too, with its line', () => {
    const json = JSON.stringify(
      {
        games: [{ id: '4711', name: 'QA', achievements: [{ developer_id: 'A', name: 'A', target_value: 10 }] }],
        users: [{ username: 'qa_old', progress: { '4711': { A: { value: 2, completed_date: null } } } }],
      },
      null,
      2,
    );
    const warnings: string[] = [];
    parseDataText('old.json', json, true, (line) => warnings.push(line));
    expect(warnings).toEqual([
      expect.stringMatching(/^old\.json: users\[0\]\.progress\.4711\.A\.completed_date \(line \d+\): /),
    ]);
  });

  it("a file in the platform's words loads without a warning", () => {
    const warnings: string[] = [];
    parseDataText(
      'new.yaml',
      `${GAME}users:\n  - username: qa\n    progress: { "4711": { A: { value: 3, state: In Progress }, C: 1 } }\n`,
      false,
      (l) => warnings.push(l),
    );
    expect(warnings).toEqual([]);
  });

  it.each([
    [
      'Completed below the target',
      'A: { value: 3, state: Completed }',
      /A\.state: Completed needs the value at target_value \(10\)/,
    ],
    [
      'In Progress at the target',
      'C: { value: 1, state: In Progress }',
      /C\.state: at target_value \(1\) a quest is Completed/,
    ],
    [
      'a completion date on a quest not completed',
      'A: { value: 3, completed_date: "2024-01-01 00:00:00" }',
      /A\.completed_date: a quest not completed has 0000-00-00 00:00:00/,
    ],
    [
      'a Completed quest with the zero date',
      'C: { value: 1, completed_date: "0000-00-00 00:00:00" }',
      /C\.completed_date: a Completed quest has a date/,
    ],
    ['an unknown state', 'A: { value: 3, state: Paused }', /A\.state: must be one of/],
  ])('refuses %s, naming the line', (_what, entry, message) => {
    const text = `${GAME}users:\n  - username: qa\n    progress:\n      "4711":\n        ${entry}\n`;
    expect(() => parseDataText('bad.yaml', text, false)).toThrow(message);
    expect(() => parseDataText('bad.yaml', text, false)).toThrow(/\(line 12\)/);
  });
});

describe('export and load', () => {
  it("a Revoked quest, its completion date and a user's email survive export → load → export", () => {
    const text = `${GAME}users:
  - username: qa
    email: qa@example.test
    progress:
      "4711":
        A: { value: 10, state: Revoked, completed_date: "2024-01-02 03:04:05" }
        B: 4
        C: 1
`;
    const a = openDatabase(':memory:');
    const b = openDatabase(':memory:');
    cleanup.push(
      () => a.close(),
      () => b.close(),
    );
    loadData(a, parseDataText('qa.yaml', text, false), 1_800_000_000);
    for (const format of ['yaml', 'json'] as const) {
      const first = [...exportChunks(a, format)].join('');
      expect(first).toContain('Revoked');
      expect(first).toContain('qa@example.test');
      const c = openDatabase(':memory:');
      cleanup.push(() => c.close());
      loadData(c, parseDataText(`qa.${format}`, first, format === 'json'), 1_800_000_000);
      expect([...exportChunks(c, format)].join('')).toBe(first);
    }
    loadData(b, parseDataText('qa.yaml', [...exportChunks(a, 'yaml')].join(''), false), 1_800_000_000);
    const uid = b.repos.users.findByUsername('qa')!.uid;
    const listed = b.repos.achievements
      .list({ uid, parentType: 'Game', parentId: '4711', order: 'name', sort: 'asc', limit: 10, offset: 0 })
      .map(presentUserAchievement);
    expect(listed.map((q) => [q.developer_id, q.state, q.completed_date])).toEqual([
      ['A', 'Revoked', '2024-01-02 03:04:05'],
      ['B', 'In Progress', '0000-00-00 00:00:00'],
      ['C', 'Completed', '2027-01-15 08:00:00'],
    ]);
    expect(b.repos.users.findByUsername('qa')?.email).toBe('qa@example.test');
  });
});
