/**
 * `achievements list` after the platform's pages (issue 29): the service lists only the quests a
 * user started, and the CLI still shows every quest of the game, the untouched ones as
 * `Not Started` from the definitions it reads itself (one more request, beside the list, in -v);
 * `--started` shows the service's list alone; `-o json` gives the platform's values. In-process
 * (`main` with injected IO) against a real sandbox.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, fileSandbox } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { json, type TestEnv } from './harness.js';

const UID = DEMO.user.uid;
const CAROL = uidForUsername('carol');
const ALL = ['COLLECT_1000_GEMS', 'DAILY_STREAK_7', 'FIRST_WIN', 'LEVEL_10', 'SECRET_ROOM', 'SPEED RUN/100%'];

interface Row {
  id: number | null;
  developer_id: string;
  state: string;
  current_value: number;
  percent_complete: number;
  completed_date: string | null;
  started_date: string | null;
}

const env = fileSandbox();

describe('achievements list', () => {
  it('shows every quest of the game: the started ones as the service sends them, then the others as Not Started', async () => {
    const r = await env.read(['achievements', 'list', UID, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = json<Row[]>(r);
    expect(rows.map((a) => a.developer_id).sort()).toEqual(ALL);
    // The records first, in the service's order (newest start first), with the platform's values.
    expect(rows.slice(0, 3).map((a) => [a.developer_id, a.state, a.percent_complete, a.completed_date])).toEqual([
      ['LEVEL_10', 'In Progress', 33, '0000-00-00 00:00:00'],
      ['COLLECT_1000_GEMS', 'In Progress', 25, '0000-00-00 00:00:00'],
      ['FIRST_WIN', 'Completed', 100, '2024-05-01 10:05:00'],
    ]);
    // Then the quests never touched, in definition order, built by udcli (no id, no start date).
    expect(rows.slice(3)).toEqual([
      expect.objectContaining({
        developer_id: 'SPEED RUN/100%',
        state: 'Not Started',
        id: null,
        current_value: 0,
        percent_complete: 0,
        started_date: null,
      }),
      expect.objectContaining({ developer_id: 'DAILY_STREAK_7', state: 'Not Started', id: null }),
      expect.objectContaining({ developer_id: 'SECRET_ROOM', state: 'Not Started', id: null }),
    ]);
  });

  it('a user new to the game: every quest Not Started; --started: none', async () => {
    const all = json<Row[]>(await env.read(['achievements', 'list', CAROL, '--json']));
    expect(all.map((a) => a.state)).toEqual(Array(6).fill('Not Started'));
    const started = await env.read(['achievements', 'list', CAROL, '--started', '--json']);
    expect(started.code, started.stderr).toBe(0);
    expect(json<Row[]>(started)).toEqual([]);
  });

  it("--started shows the service's list alone, and reads no definitions", async () => {
    const r = await env.read(['achievements', 'list', UID, '--started', '--json', '-v']);
    expect(r.code, r.stderr).toBe(0);
    expect(json<Row[]>(r).map((a) => a.developer_id)).toEqual(['LEVEL_10', 'COLLECT_1000_GEMS', 'FIRST_WIN']);
    expect(r.stderr).not.toMatch(/→ GET \S+\/achievements\/1001\.json/);
  });

  it('-v shows the one more request: the definitions, sent beside the list', async () => {
    const r = await env.read(['achievements', 'list', UID, '-v', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    const requests = r.stderr.split('\n').filter((l) => l.startsWith('→ '));
    expect(requests).toHaveLength(2);
    expect(requests.some((l) => /→ GET \S+\/achievements\/user\/[0-9a-f]{32}\.json/.test(l))).toBe(true);
    expect(requests.some((l) => /→ GET \S+\/achievements\/1001\.json/.test(l))).toBe(true);
    // Both requests go out before either reply is read: the definitions do not wait for the list.
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('→ ') || l.startsWith('← '));
    expect(lines.slice(0, 2).every((l) => l.startsWith('→ '))).toBe(true);
    // The table: an In Progress quest shows no completion date; a Not Started one shows as such.
    const level = r.stdout.split('\n').find((l) => l.startsWith('LEVEL_10'))!;
    expect(level).toMatch(/In Progress\s*$/);
    expect(r.stdout.split('\n').find((l) => l.startsWith('SECRET_ROOM'))).toMatch(/Not Started/);
    expect(r.stdout).toContain('2024-05-01T10:05:00Z');
    expect(r.stdout).not.toContain('0000-00-00');
  });

  it('--developer-id of a quest never started: its Not Started row', async () => {
    const r = await env.read(['achievements', 'list', UID, '--developer-id', 'SECRET_ROOM', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(json<Row[]>(r)).toEqual([expect.objectContaining({ developer_id: 'SECRET_ROOM', state: 'Not Started' })]);
  });

  it("--filter and paging narrow the service's records: no Not Started rows are added", async () => {
    const filtered = json<Row[]>(
      await env.read(['achievements', 'list', UID, '--filter', 'state', '--match', 'In Progress', '--json']),
    );
    expect(filtered.map((a) => a.developer_id).sort()).toEqual(['COLLECT_1000_GEMS', 'LEVEL_10']);
    const page = json<Row[]>(await env.read(['achievements', 'list', UID, '--limit', '1', '--offset', '1', '--json']));
    expect(page.map((a) => a.developer_id)).toEqual(['COLLECT_1000_GEMS']);
  });

  it('--all: every record, then the Not Started rows', async () => {
    const r = await env.read(['achievements', 'list', UID, '--all', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(
      json<Row[]>(r)
        .map((a) => a.developer_id)
        .sort(),
    ).toEqual(ALL);
  });
});

describe('sandbox load of a data file in the old words', () => {
  it('loads it, with one warning line on stderr naming the file and the line; the quests read In Progress', async () => {
    mkdirSync(env.dataDir, { recursive: true });
    const file = join(env.dataDir, 'old-words.yaml');
    const db = join(env.dataDir, 'old-words.db');
    writeFileSync(
      file,
      [
        'games:',
        '  - id: "4711"',
        '    name: QA',
        '    achievements:',
        '      - { developer_id: A, name: A, target_value: 10 }',
        '      - { developer_id: B, name: B, target_value: 10 }',
        'users:',
        '  - username: qa_old',
        '    progress:',
        '      "4711":',
        '        A: { value: 3, state: Started, completed_date: null }',
        '        B: { value: 4, state: Started }',
        '',
      ].join('\n'),
    );
    const r = await env.read(['sandbox', 'load', file, '--db', db]);
    expect(r.code, r.stderr).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('warning'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      new RegExp(
        `^udcli: warning: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: users\\[0\\]\\.progress\\.4711\\.A\\.state \\(line 11\\) \\(and 2 more like it\\): `,
      ),
    );
    // Written anew in the platform's words: the bare values (In Progress follows from them).
    const exported = await env.read(['sandbox', 'export', '--db', db, '--format', 'yaml']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(/"4711":\n\s+A: 3\n\s+B: 4\n/);
    expect(exported.stdout).not.toMatch(/Started|completed_date/);
  });
});

describe('a Revoked quest (from a data file)', () => {
  let qa: TestEnv;
  let dir: string;
  const QA_UID = uidForUsername('qa_revoked');
  beforeAll(async ({ newSandbox }) => {
    dir = mkdtempSync(join(tmpdir(), 'udcli-revoked-'));
    const file = join(dir, 'revoked.yaml');
    writeFileSync(
      file,
      [
        'games:',
        '  - id: "4711"',
        '    name: QA',
        '    keys: [{ api_key: b84276aa53974b89a8ba0f16ffb7566f }]',
        '    achievements: [{ developer_id: CHEAT_FREE, name: Cheat free, target_value: 10 }]',
        'users:',
        '  - username: qa_revoked',
        '    progress: { "4711": { CHEAT_FREE: { value: 4, state: Revoked } } }',
        '',
      ].join('\n'),
    );
    qa = await newSandbox({ data: file });
    Object.assign(qa.env, {
      UDCLI_API_KEY: 'b84276aa53974b89a8ba0f16ffb7566f',
      UDCLI_GAME_ID: '4711',
      UDCLI_SIGNING_SECRET: undefined,
    });
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("is listed Revoked; a change is refused with the service's 409 in one line (exit 1), a dry run says it would be", async () => {
    const list = json<Row[]>(await qa.read(['achievements', 'list', QA_UID, '--json']));
    expect(list.map((a) => [a.developer_id, a.state, a.current_value, a.completed_date])).toEqual([
      ['CHEAT_FREE', 'Revoked', 4, '0000-00-00 00:00:00'],
    ]);
    const inc = await qa.read(['achievements', 'inc', QA_UID, 'CHEAT_FREE']);
    expect(inc.code).toBe(1);
    expect(inc.stderr.split('\n').filter((l) => l.startsWith('udcli: '))).toEqual([
      'udcli: quest revoked: CHEAT_FREE takes no progress',
    ]);
    const dry = await qa.read(['achievements', 'reset', QA_UID, 'CHEAT_FREE', '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(json<{ expected: string }>(dry).expected).toMatch(
      /^refused \(409\): CHEAT_FREE of .* is Revoked and takes no progress; nothing would change$/,
    );
    expect(json<Row[]>(await qa.read(['achievements', 'list', QA_UID, '--json']))[0]).toMatchObject({
      state: 'Revoked',
      current_value: 4,
    });
  });
});
