/**
 * Issue 52, points 1 and 2: every change's intent is in the trail before it is sent, its outcome
 * line closes it, an intent left open (the process died around sending) shows in
 * `audit --unresolved`, and `audit resolve` settles it from the trail alone: applied or not
 * applied, by reading the player on the target. A real sandbox stands in for production.
 */
import { mkdtempSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { unitsHeld } from '../../src/domain/holdings.js';
import { uidForUsername } from '../../src/domain/ids.js';
import type { ProductEntry } from '../../src/domain/types.js';
import { generatedUsername } from '../../src/sandbox/seed/demo.js';
import { auditLog, addProductionProfile, json, lastRequestId, loggedSince, type TestEnv } from './harness.js';
import { fileScratch } from '../scratch.js';

let env: TestEnv;
const scratch = fileScratch('udcli-e2e-write-ahead-');

beforeAll(async ({ sandbox }) => {
  env = sandbox;
  await addProductionProfile(env);
});

type Line = Record<string, unknown>;
const trailPath = () => join(env.configDir, 'audit.log');
function trail(): Line[] {
  return auditLog(env.configDir);
}

/** The units of xp-boost a player holds, as the sandbox says. */
async function held(user: string): Promise<number> {
  const r = await env.read(['products', 'list', user, '--sku', 'xp-boost', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return unitsHeld(json<ProductEntry[]>(r)[0] ?? null) ?? Number.NaN;
}

describe('write-ahead intents', () => {
  it('a change writes its intent (run, operator, reason, ticket, target, spec, before, undo) before sending; its outcome closes it', async () => {
    const start = trail().length;
    const since = await lastRequestId(env.sandbox.url);
    const r = await env.run([
      '--profile',
      'prod',
      'products',
      'give',
      'alice',
      'xp-boost',
      '--yes',
      '--reason',
      'lost boost',
      '--ticket',
      'SUP-52',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const [intent, change, ...rest] = trail().slice(start);
    expect(rest).toEqual([]);
    const uid = uidForUsername('alice');
    expect(intent).toMatchObject({
      kind: 'intent',
      operator: expect.any(String),
      profile: 'prod',
      server: env.sandbox.url,
      game: '1001',
      uid,
      username: 'alice',
      reason: 'lost boost',
      ticket: 'SUP-52',
      subject: 'products give xp-boost --qty 1 --game 1001 --type Game',
      spec: { command: 'products give', args: ['xp-boost', '--qty', '1', '--game', '1001', '--type', 'Game'] },
      kept: { units: expect.any(Number) },
      undo: expect.stringMatching(
        new RegExp(
          `^udcli products take ${uid} xp-boost --qty 1 --profile prod .*--reason 'undo: lost boost' --ticket SUP-52$`,
        ),
      ),
    });
    expect(intent!.run).toMatch(/^\d{8}T\d{4}-[0-9a-f]{6}$/);
    expect(change).toMatchObject({ kind: 'change', closes: intent!.id, run: intent!.run, undo: intent!.undo });
    // The server heard of the change only after the intent was on disk: it was written first.
    expect((await loggedSince(env.sandbox.url, since)).some((q) => q.method !== 'GET')).toBe(true);
    const open = await env.run(['audit', '--unresolved', '-o', 'json']);
    expect(json<Line[]>(open).filter((l) => l.uid === uid)).toEqual([]);
  });

  it('a change the server refuses closes its intent with a failed line', async () => {
    const user = generatedUsername(31);
    const start = trail().length;
    const r = await env.run(['--profile', 'prod', 'products', 'take', user, 'xp-boost', '--qty', '99999', '--yes']);
    expect(r.code).not.toBe(0);
    const lines = trail().slice(start);
    if (lines.length > 0) {
      const [intent, failed] = lines;
      expect(intent).toMatchObject({ kind: 'intent' });
      expect(failed).toMatchObject({ kind: 'failed', closes: intent!.id });
    }
    const open = await env.run(['audit', '--unresolved', '-o', 'json']);
    expect(json<Line[]>(open).filter((l) => l.uid === uidForUsername(user))).toEqual([]);
  });
});

/**
 * An intent left open as a process killed around sending leaves it: the intent line a real run
 * wrote, with the outcome line that closed it cut off. `applied`: the change reached the server.
 */
async function leaveOpen(user: string, ticket: string, applied: boolean): Promise<Line> {
  const start = trail().length;
  const before = await held(user);
  const r = await env.run(['--profile', 'prod', 'products', 'give', user, 'xp-boost', '--yes', '--ticket', ticket]);
  expect(r.code, r.stderr).toBe(0);
  const text = readFileSync(trailPath(), 'utf8').split('\n').filter(Boolean);
  const intent = JSON.parse(text[start]!) as Line;
  expect(intent.kind).toBe('intent');
  // Keep the lines before, and the intent; drop the change line that closed it.
  writeFileSync(trailPath(), `${[...text.slice(0, start), text[start]].join('\n')}\n`);
  if (!applied) {
    // Take back what the run gave, outside the trail: as if the change had never been sent.
    const back = await env.run(['products', 'take', user, 'xp-boost', '--qty', '1']);
    expect(back.code, back.stderr).toBe(0);
    writeFileSync(trailPath(), `${[...text.slice(0, start), text[start]].join('\n')}\n`);
  }
  expect(await held(user)).toBe(applied ? before + 1 : before);
  return intent;
}

describe('open intents are seen and settled from the trail alone', () => {
  it('audit --unresolved lists an open intent; audit resolve decides applied (with its undo) and not applied, and closes both', async () => {
    const applied = await leaveOpen(generatedUsername(41), 'SUP-5201', true);
    const notApplied = await leaveOpen(generatedUsername(42), 'SUP-5201', false);
    const open = await env.run(['audit', '--unresolved', '--ticket', 'SUP-5201', '-o', 'json']);
    expect(open.code, open.stderr).toBe(0);
    expect(json<Line[]>(open).map((l) => [l.id, l.kind])).toEqual([
      [applied.id, 'intent'],
      [notApplied.id, 'intent'],
    ]);

    const since = await lastRequestId(env.sandbox.url);
    const start = trail().length;
    const r = await env.run(['--profile', 'prod', 'audit', 'resolve', '--ticket', 'SUP-5201', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    // Reads only.
    expect((await loggedSince(env.sandbox.url, since)).filter((q) => q.method !== 'GET')).toEqual([]);
    expect(json<Line[]>(r)).toEqual([
      expect.objectContaining({ id: applied.id, outcome: 'applied', undo: applied.undo }),
      expect.objectContaining({ id: notApplied.id, outcome: 'not-applied', undo: null }),
    ]);
    expect(r.stderr).toContain('audit resolve: 2 open changes: 1 applied, 1 not applied, 0 undecided');
    expect(trail().slice(start)).toEqual([
      expect.objectContaining({
        kind: 'resolved',
        closes: applied.id,
        outcome: 'applied',
        ticket: 'SUP-5201',
        undo: applied.undo,
      }),
      expect.objectContaining({
        kind: 'resolved',
        closes: notApplied.id,
        outcome: 'not-applied',
        ticket: 'SUP-5201',
        undo: null,
      }),
    ]);
    const after = await env.run(['audit', '--unresolved', '--ticket', 'SUP-5201', '-o', 'json']);
    expect(json<Line[]>(after)).toEqual([]);
  });

  it('what it cannot decide stays open and is listed: exit 6', async () => {
    const user = generatedUsername(43);
    const intent = await leaveOpen(user, 'SUP-5202', true);
    // Someone else moved the holding meanwhile: neither before nor before + 1.
    const more = await env.run(['products', 'give', user, 'xp-boost', '--qty', '5']);
    expect(more.code, more.stderr).toBe(0);
    // That change is another subject (--qty 5): the open one is decided from the state now.
    const r = await env.run(['--profile', 'prod', 'audit', 'resolve', '--ticket', 'SUP-5202', '-o', 'json']);
    expect(r.code).toBe(6);
    expect(json<Line[]>(r)).toEqual([expect.objectContaining({ id: intent.id, outcome: 'undecided' })]);
    expect(r.stderr).toContain('1 of 1 open change could not be decided: they stay open');
    const open = await env.run(['audit', '--unresolved', '--ticket', 'SUP-5202', '-o', 'json']);
    expect(json<Line[]>(open).map((l) => l.id)).toEqual([intent.id]);
  });

  it('resolve needs --run, --ticket or --all (exit 2, nothing read)', async () => {
    const r = await env.run(['audit', 'resolve']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      'udcli: audit resolve needs --run ID, --ticket REF or --all: which open changes to settle',
    );
  });

  it('old logs without intents read as before', async () => {
    const dir = mkdtempSync(join(scratch, 'old-'));
    const old = {
      time: '2024-05-01T10:00:00.000Z',
      run: '20240501T1000-aaaaaa',
      id: '20240501T1000-aaaaaa.1',
      kind: 'unknown',
      operator: 'ana',
      profile: 'prod',
      command: 'udcli products give x xp-boost',
      uid: 'a'.repeat(32),
      subject: 'products give xp-boost --qty 1 --game 1001 --type Game',
      before: null,
      after: null,
    };
    appendFileSync(
      join(dir, 'audit.log'),
      `${JSON.stringify({ ...old, time: '2024-05-01T09:00:00.000Z', kind: undefined, id: '20240501T0900-bbbbbb.1', run: '20240501T0900-bbbbbb' })}\n${JSON.stringify(old)}\n`,
    );
    const r = await env.run(['audit', '--unresolved', '-o', 'json'], { env: { UDCLI_CONFIG_DIR: dir } });
    expect(r.code, r.stderr).toBe(0);
    expect(json<Line[]>(r).map((l) => l.id)).toEqual([old.id]);
  });
});
