/**
 * Issue 52, point 1's proof: the built binary running a 200-player production batch is killed
 * with SIGKILL at random points; after each kill, every change the server applied has an intent
 * line in the trail (the sandbox's request log and the trail, player by player). Then
 * `audit resolve --all` closes every open change, and every player holds what the trail says.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { generatedUsername } from '../../src/sandbox/seed/demo.js';
import {
  heldUnits,
  auditLog,
  addProductionProfile,
  BIN,
  commandEnv,
  json,
  lastRequestId,
  loggedSince,
  type TestEnv,
} from './harness.js';
import { fileScratch } from '../scratch.js';

let env: TestEnv;
const scratch = fileScratch('udcli-e2e-kill-');
const PLAYERS = Array.from({ length: 200 }, (_, i) => generatedUsername(i + 1));
const UIDS = PLAYERS.map((p) => uidForUsername(p));
/**
 * Kills alternate between the two kinds of moment, each kind's spread over its whole range (one
 * random point in each fifth of it): start-up and the first sends (0-900 ms) as well as a few
 * results in (1-12,000 bytes of output) are each hit, as 22 purely random kills were meant to,
 * for under half the processes of the built binary.
 */
const KILLS = 10;
const PER_KIND = KILLS / 2;
/** A random point in the `slot`-th of PER_KIND equal parts of [from, to). */
const inSlot = (slot: number, from: number, to: number) =>
  Math.floor(from + ((slot + Math.random()) * (to - from)) / PER_KIND);

beforeAll(async ({ sandbox }) => {
  env = sandbox;
  await addProductionProfile(env);
});

type Line = Record<string, unknown>;
function trail(): Line[] {
  return auditLog(env.configDir);
}

/** Units of xp-boost each player holds, from the sandbox's database. */
const holdings = (): Map<string, number> => heldUnits(env, 'xp-boost', UIDS);

/** Runs the batch and kills it with SIGKILL after `bytes` of its output or `ms`, whichever the round uses. */
function runAndKill(list: string, at: { bytes: number } | { ms: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        BIN,
        '--profile',
        'prod',
        'products',
        'give',
        `@${list}`,
        'xp-boost',
        '--yes',
        '--ticket',
        'SUP-KILL',
        '-o',
        'ndjson',
      ],
      { env: commandEnv(env.env), stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const kill = () => child.kill('SIGKILL');
    let seen = 0;
    if ('ms' in at) setTimeout(kill, at.ms);
    child.stdout.on('data', (d: Buffer) => {
      seen += d.length;
      if ('bytes' in at && seen >= at.bytes) kill();
    });
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

describe('udcli killed at random points of a production batch', () => {
  it('every change the server applied has an intent; audit resolve --all settles the rest; every player holds what the trail says', async () => {
    const list = join(scratch, 'players.txt');
    writeFileSync(list, `${PLAYERS.join('\n')}\n`);
    const initial = holdings();
    const since = await lastRequestId(env.sandbox.url);
    const applied = new Map<string, number>();
    let checked = since;
    for (let k = 0; k < KILLS; k++) {
      // Random kill points: after some output (a few results in) or after a few ms (start-up, first sends).
      const slot = Math.floor(k / 2);
      const at = k % 2 === 0 ? { bytes: inSlot(slot, 1, 12_001) } : { ms: inSlot(slot, 0, 900) };
      await runAndKill(list, at);
      for (const q of await loggedSince(env.sandbox.url, checked)) {
        const m = /\/products\/user\/([0-9a-f]{32})\.json$/.exec(q.path);
        if (q.method !== 'GET' && m && q.status === 200) applied.set(m[1]!, (applied.get(m[1]!) ?? 0) + 1);
      }
      checked = await lastRequestId(env.sandbox.url);
      const intents = new Map<string, number>();
      for (const l of trail())
        if (l.kind === 'intent') intents.set(String(l.uid), (intents.get(String(l.uid)) ?? 0) + 1);
      // Each change applied was preceded by its own intent line (at least as many intents as changes, per player).
      for (const [uid, n] of applied)
        expect(intents.get(uid) ?? 0, `player ${uid} after kill ${k} (${JSON.stringify(at)})`).toBeGreaterThanOrEqual(
          n,
        );
    }

    // Kills mid-run leave changes in flight: open in the trail until resolved.
    const left = await env.run(['audit', '--unresolved', '-o', 'json']);
    expect(json<Line[]>(left).length).toBeGreaterThan(0);
    const resolved = await env.run(['--profile', 'prod', 'audit', 'resolve', '--all', '-o', 'json']);
    expect(resolved.code, resolved.stderr).toBe(0);
    const open = await env.run(['audit', '--unresolved', '-o', 'json']);
    expect(json<Line[]>(open)).toEqual([]);

    // What the trail says each player got: a change line, or a resolved line that found it applied.
    const got = new Map<string, number>();
    for (const l of trail()) {
      if (l.ticket !== 'SUP-KILL') continue;
      if (l.kind === 'change' || (l.kind === 'resolved' && l.outcome === 'applied'))
        got.set(String(l.uid), (got.get(String(l.uid)) ?? 0) + 1);
    }
    const now = holdings();
    for (const uid of UIDS) expect(now.get(uid), `player ${uid}`).toBe(initial.get(uid)! + (got.get(uid) ?? 0));
    expect([...got.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  }, 90_000);
});
