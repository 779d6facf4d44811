/**
 * `udcli sandbox diff --live UID`: reads only, from the profile's server (here the production
 * stand-in), whatever the profile; diffs them as a recording; with --har the reads are kept.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { fakeIO } from '../output/fake-io.js';
import { STAND_IN, startStandIn, type StandIn } from './platform-stand-in.js';

let standIn: StandIn;
const dir = mkdtempSync(join(tmpdir(), 'diff-live-'));
beforeAll(async () => {
  standIn = await startStandIn();
});
afterAll(async () => standIn?.close());

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const f = fakeIO({
    env: { NO_COLOR: '1', UDCLI_CONFIG_DIR: join(dir, 'config'), UDCLI_DATA_DIR: join(dir, 'data'), UDCLI_BASE_URL: standIn.url, UDCLI_API_KEY: STAND_IN.apiKey, UDCLI_GAME_ID: STAND_IN.gameId },
  });
  const code = await main(args, f.io);
  return { code, stdout: f.stdout(), stderr: f.stderr() };
}

describe('sandbox diff --live', () => {
  it('sends only GET requests, records them with --har, and reports what differs', async () => {
    const har = join(dir, 'live.har');
    standIn.requests.length = 0;
    const diff = await run(['--har', har, 'sandbox', 'diff', '--live', STAND_IN.uid, '--save-key', 'slot1', '--json']);
    expect(diff.code, diff.stderr).toBe(1);
    expect(standIn.requests.length).toBeGreaterThanOrEqual(5);
    expect(standIn.requests.every((r) => r.method === 'GET' && r.override === null)).toBe(true);
    expect(standIn.requests.map((r) => r.path)).toEqual(
      expect.arrayContaining([
        `/services/rest/v1/users/${STAND_IN.uid}.json`,
        `/services/rest/v1/friends/${STAND_IN.uid}.json`,
        `/services/rest/v1/achievements/user/${STAND_IN.uid}.json`,
        `/services/rest/v1/products/user/${STAND_IN.uid}.json`,
        `/services/rest/v1/gamesave/${STAND_IN.uid}.json`,
      ]),
    );
    const report = JSON.parse(diff.stdout) as { differences: Array<{ at: string; kind: string }> };
    expect(report.differences).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'type', at: 'payload.premium' }), expect.objectContaining({ kind: 'format', at: '' })]));
    expect(existsSync(har)).toBe(true);
    const kept = JSON.parse(readFileSync(har, 'utf8')) as { log: { entries: Array<{ request: { method: string } }> } };
    expect(kept.log.entries.map((e) => e.request.method).every((m) => m === 'GET')).toBe(true);
    expect(readFileSync(har, 'utf8')).not.toMatch(/B84276AA|b84276aa/i);
  });

  it('its help says it never sends a change', async () => {
    const help = await run(['sandbox', 'diff', '--help']);
    expect(help.stdout).toMatch(/reads only:\s+it\s+never\s+sends\s+a\s+change/);
  });

  it('refuses a bad uid before sending anything', async () => {
    standIn.requests.length = 0;
    const bad = await run(['sandbox', 'diff', '--live', 'not-a-uid']);
    expect(bad.code).toBe(2);
    expect(standIn.requests).toEqual([]);
  });
});
