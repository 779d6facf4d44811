/**
 * `udcli sandbox import FILE.har [DATAFILE]`: a player's case brought home. The data file is
 * valid (the reader of `sandbox start --data` takes it), holds the state as last seen under the
 * recorded ids, has new keys (recorded ones never copied) and no personal fields unless asked.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { parse } from 'yaml';
import { DEMO } from '../../src/domain/demo.js';
import { readDataFile } from '../../src/sandbox/data/read.js';
import type { DataFile } from '../../src/sandbox/data/model.js';
import { startSandbox } from '../../src/sandbox/server.js';
import type { TestEnv } from '../e2e/harness.js';

let env: TestEnv;
const dir = mkdtempSync(join(tmpdir(), 'diff-import-'));
const har = join(dir, 'case.har');
const uid = DEMO.user.uid;
beforeAll(async ({ sandbox }) => {
  env = sandbox;
  for (const args of [
    ['user', uid],
    ['friends', uid],
    ['achievements', 'list', uid],
    ['products', 'list', uid],
    ['products', 'give', uid, 'dragon-mount'],
    ['achievements', 'inc', uid, 'COLLECT_1000_GEMS', '--by', '7'],
    ['saves', 'set', uid, 'slot2', '{"hp":40}', '--yes'],
  ]) {
    const r = await env.read(['--har', har, ...args]);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  }
});

interface QuestRecord {
  developer_id: string;
  current_value: number;
  started_date: string;
  completed_date: string;
}

/** The quest records of the recording's whole list (`achievements list`), by developer_id. */
function recordedQuests(): Map<string, QuestRecord> {
  const entries = (
    JSON.parse(readFileSync(har, 'utf8')) as {
      log: { entries: Array<{ request: { method: string; url: string }; response: { content: { text?: string } } }> };
    }
  ).log.entries;
  const list = entries.find(
    (e) =>
      e.request.method === 'GET' &&
      e.request.url.includes(`/achievements/user/${uid}.json`) &&
      !e.request.url.includes('developer_id='),
  )!;
  const records = (JSON.parse(list.response.content.text!) as { payload: QuestRecord[] }).payload;
  return new Map(records.map((r) => [r.developer_id, r]));
}

describe('sandbox import', () => {
  it('writes a data file that a sandbox starts from at once, with the state last seen and new keys', async () => {
    // A recording made elsewhere may hold a real key: it must not be copied.
    const withRealKey = join(dir, 'real-key.har');
    writeFileSync(
      withRealKey,
      readFileSync(har, 'utf8').replace(/api_key=redacted-[0-9a-f]{12}/g, `api_key=${DEMO.game.apiKey}`),
    );
    const out = join(dir, 'case.yaml');
    const r = await env.read(['sandbox', 'import', withRealKey, out]);
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain(DEMO.game.apiKey);
    expect(text).not.toContain(DEMO.game.signingSecret);
    const data = readDataFile(out);
    const game = data.games!.find((g) => g.id === DEMO.game.id)!;
    const user = data.users!.find((u) => u.uid === uid)!;
    expect(user.username).toBe(DEMO.user.username);
    expect(user.holdings?.[DEMO.game.id]?.['dragon-mount']).toBe(1);
    expect(user.saves?.[DEMO.game.id]?.slot2).toBe('{"hp":40}');
    // The quests' records as the recording's list showed them: states and dates kept.
    const listed = recordedQuests();
    const first = listed.get('FIRST_WIN')!;
    const gems = listed.get('COLLECT_1000_GEMS')!;
    expect(first.completed_date).toMatch(/^20\d\d-/);
    expect(user.progress?.[DEMO.game.id]?.FIRST_WIN).toEqual({
      value: first.current_value,
      state: 'Completed',
      started_date: first.started_date,
      completed_date: first.completed_date,
    });
    // 250 in the demo data, then 7 more: the last seen value, its start as the list showed it.
    expect(user.progress?.[DEMO.game.id]?.COLLECT_1000_GEMS).toEqual({
      value: 257,
      state: 'In Progress',
      started_date: gems.started_date,
    });
    expect(user.friends?.length).toBeGreaterThan(0);
    expect(user.birthday).toBeUndefined();

    const sandbox = await startSandbox({
      port: 0,
      host: '127.0.0.1',
      dbPath: join(dir, 'home', 'sandbox.db'),
      data: out,
      log: () => undefined,
    });
    try {
      const key = game.keys![0]!.api_key;
      expect(key).not.toBe(DEMO.game.apiKey);
      const reply = await fetch(
        `${sandbox.url}/services/rest/v1/products/user/${uid}.json?api_key=${key}&parent_id=${DEMO.game.id}&sku=dragon-mount`,
      );
      const body = (await reply.json()) as { payload: Array<{ purchase: { success: boolean } }> };
      expect(body.payload[0]!.purchase.success).toBe(true);
      // The sandbox started from the file shows the recorded completion date, not the load time.
      const quests = await fetch(
        `${sandbox.url}/services/rest/v1/achievements/user/${uid}.json?api_key=${key}&type=Game&pid=${DEMO.game.id}&developer_id=FIRST_WIN`,
      );
      const quest = ((await quests.json()) as { payload: Array<{ completed_date: string }> }).payload[0]!;
      expect(quest.completed_date).toBe(first.completed_date);
      // `sandbox info` of that sandbox names the case's game, its new key and the player.
      const info = await env.read(['sandbox', 'info', '--json', '--base-url', sandbox.url], {
        env: { UDCLI_DATA_DIR: join(dir, 'home') },
      });
      expect(info.code, info.stderr).toBe(0);
      expect(info.stdout).toContain(`${key.slice(0, 4)}…${key.slice(-4)}`);
      expect(info.stdout).toContain(DEMO.user.username);
    } finally {
      await sandbox.close();
    }
  });

  it('to stdout without DATAFILE; personal fields only with --keep-personal', async () => {
    const plain = await env.read(['sandbox', 'import', har]);
    expect(plain.code, plain.stderr).toBe(0);
    const kept = await env.read(['sandbox', 'import', har, '--keep-personal']);
    const users = (text: string) => (parse(text) as DataFile).users!;
    const recordedBirthday = (
      JSON.parse(readFileSync(har, 'utf8')) as {
        log: { entries: Array<{ request: { url: string }; response: { content: { text?: string } } }> };
      }
    ).log.entries
      .filter((e) => e.request.url.includes(`/users/${uid}.json`))
      .map((e) => (JSON.parse(e.response.content.text!) as { payload: { birthday?: string } }).payload.birthday)[0];
    expect(users(plain.stdout).every((u) => u.birthday === undefined)).toBe(true);
    if (recordedBirthday && recordedBirthday !== '0000-00-00')
      expect(users(kept.stdout).find((u) => u.uid === uid)!.birthday).toBe(recordedBirthday);
  });

  it('bad input: exit 2, nothing written', async () => {
    const bad = join(dir, 'bad.har');
    writeFileSync(bad, '{"log":');
    const r = await env.read(['sandbox', 'import', bad, join(dir, 'never.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.har: cut short/);
  });
});
