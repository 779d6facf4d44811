/**
 * A recording of the sandbox itself diffs clean: what udcli records against a sandbox (reads,
 * signed changes under agi with their challenges, saves with tokens) replays on a scratch
 * sandbox seeded from that recording with no difference, and the user's sandbox is untouched.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, fileSandbox } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';

const env = fileSandbox();
const dir = mkdtempSync(join(tmpdir(), 'diff-clean-'));

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
    const requestsSoFar = async () =>
      ((await (await fetch(`${env.sandbox.url}/_sandbox/requests?limit=1000`)).json()) as { requests: unknown[] })
        .requests.length;
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

  it("a change to a quest the recording never defines: --data with the studio's own data file gives its definition, so it diffs clean", async () => {
    // Only the change, as `udcli api` sends it: no definition, no list in the recording.
    const har = join(dir, 'one-change.har');
    const change = await env.read([
      '--har',
      har,
      'api',
      'PUT',
      `achievements/user/${DEMO.user.uid}.json`,
      '-f',
      'developer_id=LEVEL_10',
      '-f',
      'progress=0.5',
      '-f',
      `pid=${DEMO.game.id}`,
      '--sign',
    ]);
    expect(change.code, change.stderr).toBe(0);
    const data = join(dir, 'studio.yaml');
    const exported = await env.read(['sandbox', 'export', data, '--db', env.sandbox.dbPath]);
    expect(exported.code, exported.stderr).toBe(0);

    // Without the data file the scratch sandbox can only guess LEVEL_10's range from the one reply.
    const guessed = await env.read(['sandbox', 'diff', har, '--json']);
    expect(guessed.code).toBe(1);
    expect((JSON.parse(guessed.stdout) as Report).differences.map((d) => d.at)).toContain('payload.current_value');

    const withData = await env.read(['sandbox', 'diff', har, '--data', data, '--json']);
    expect(withData.code, withData.stdout + withData.stderr).toBe(0);
    expect(JSON.parse(withData.stdout)).toMatchObject({ compared: 2, differing: 0, differences: [] });
  });
});
