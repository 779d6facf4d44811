/**
 * A recording of the sandbox itself diffs clean: what udcli records against a sandbox (reads,
 * signed changes under agi with their challenges, saves with tokens) replays on a scratch
 * sandbox seeded from that recording with no difference, and the user's sandbox is untouched.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/domain/demo.js';
import { startTestEnv, type TestEnv } from '../e2e/harness.js';

let env: TestEnv;
const dir = mkdtempSync(join(tmpdir(), 'diff-clean-'));
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(async () => env?.close());

interface Report {
  compared: number;
  same: number;
  differing: number;
  skipped: number;
  differences: Array<{ kind: string; at: string; path: string; method: string; recorded: unknown; sandbox: unknown }>;
}

describe('udcli sandbox diff of a recording of the sandbox', () => {
  it('reports nothing: exit 0', async () => {
    const har = join(dir, 'sandbox.har');
    const uid = DEMO.user.uid;
    const commands: string[][] = [
      ['user', uid],
      ['friends', uid],
      ['achievements', 'defs', '1001'],
      ['achievements', 'list', uid],
      ['achievements', 'inc', uid, 'COLLECT_1000_GEMS', '--by', '5'],
      ['achievements', 'set', uid, 'LEVEL_10', '60%', '--yes'],
      ['achievements', 'reset', uid, 'FIRST_WIN', '--yes'],
      ['products', 'list', uid],
      ['products', 'give', uid, 'gems:100', '--qty', '2'],
      ['products', 'take', uid, 'gems', '--qty', '50', '--yes'],
      ['products', 'give', uid, 'dragon-mount'],
      ['saves', 'set', uid, 'slot1', '{"level":3}', '--yes'],
      ['saves', 'get', uid, 'slot1'],
      ['saves', 'erase', uid, 'slot1', '--yes'],
    ];
    for (const args of commands) {
      const r = await env.read(['--har', har, ...args]);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    const requestsSoFar = async () => ((await (await fetch(`${env.sandbox.url}/_sandbox/requests?limit=1000`)).json()) as { requests: unknown[] }).requests.length;
    const before = await requestsSoFar();
    const diff = await env.read(['sandbox', 'diff', har, '--json']);
    // The replay went to a scratch sandbox: the recorded one (the user's) got nothing.
    expect(await requestsSoFar()).toBe(before);
    const report = JSON.parse(diff.stdout) as Report;
    expect(report.differences).toEqual([]);
    expect(diff.code, diff.stderr).toBe(0);
    expect(report.compared).toBeGreaterThan(20);
    expect(report.same).toBe(report.compared);
  });
});
