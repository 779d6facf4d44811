/**
 * Record through a production stand-in with --har, diff, and find exactly the differences it
 * plants (an extra field, 0/1 for a boolean, a numeric string, another status for an error, an
 * XML reply, another reply body) while its own dates, sessions, tokens, ids and avatar host,
 * which differ from the sandbox's too, are not reported.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileStandIn } from './stand-in-cli.js';
import { PLANTED, STAND_IN } from './platform-stand-in.js';

const { dir, run } = fileStandIn('diff-planted-');

interface Difference {
  method: string;
  path: string;
  kind: string;
  at: string;
  recorded: unknown;
  sandbox: unknown;
}

const endpointOf = (d: Difference): string =>
  `${d.method === 'POST' ? 'PUT' : d.method} ${d.path.replace('/services/rest/v1/', '').replace(/\/[^/]+\.(json|xml)$/, '')}`;

describe('sandbox diff against a production stand-in', () => {
  it('reports exactly the planted differences, and exit 1', async () => {
    const har = join(dir, 'production.har');
    const uid = STAND_IN.uid;
    for (const [args, code] of [
      [['user', uid], 0],
      [['user', STAND_IN.unknownUid], 4],
      [['friends', uid], 0],
      [['achievements', 'list', uid], 0],
    ] as const) {
      const r = await run(['--har', har, ...args]);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(code);
    }
    const inc = await run(['--har', har, 'achievements', 'inc', uid, STAND_IN.quest]);
    expect(inc.code, inc.stderr).toBe(0);
    // The XML reply makes the command fail; the exchange is recorded all the same.
    expect((await run(['--har', har, 'products', 'list', uid])).code).not.toBe(0);

    const diff = await run(['sandbox', 'diff', har, '--json']);
    expect(diff.code, diff.stderr).toBe(1);
    const report = JSON.parse(diff.stdout) as { compared: number; differing: number; differences: Difference[] };
    const found = new Set(report.differences.map((d) => `${endpointOf(d)} ${d.kind} ${d.at}`));
    const expected = new Set(PLANTED.map((p) => `${p.endpoint} ${p.kind} ${p.at}`));
    expect([...found].sort()).toEqual([...expected].sort());
    // The challenge step and the signed change were compared and are the same.
    expect(report.compared).toBeGreaterThanOrEqual(8);
    const premium = report.differences.find((d) => d.at === 'payload.premium')!;
    expect([premium.recorded, premium.sandbox]).toEqual([0, false]);
  });

  it('on a terminal: one block per differing exchange, both values side by side, and a summary', async () => {
    const har = join(dir, 'production.har');
    const diff = await run(['sandbox', 'diff', har, '-o', 'table']);
    expect(diff.code).toBe(1);
    expect(diff.stdout).toMatch(
      /#\d+ GET \/services\/rest\/v1\/users\/c3323c76c063636c91d2e8cb8f4dfcaf\.json\?api_key=\S+\n( {2}.*\n)* {2}missing payload\.country: recorded "FI", sandbox \(absent\)/,
    );
    expect(diff.stdout).toMatch(/ {2}type +payload\.premium: recorded 0, sandbox false/);
    expect(diff.stdout).toMatch(/\d+ compared: \d+ same, \d+ differing; \d+ skipped\n$/);
    expect(diff.stderr).toMatch(/exchanges differ/);
  });

  it('--ignore drops a path (and --strict reports what drifts)', async () => {
    const har = join(dir, 'production.har');
    const ignored = await run([
      'sandbox',
      'diff',
      har,
      '--json',
      '--ignore',
      'payload.country',
      '--ignore',
      'payload[].percent_complete',
    ]);
    const ats = (JSON.parse(ignored.stdout) as { differences: Difference[] }).differences.map((d) => d.at);
    expect(ats).not.toContain('payload.country');
    expect(ats).not.toContain('payload[].percent_complete');
    expect(ats).toContain('payload.premium');
    const strict = await run(['sandbox', 'diff', har, '--json', '--strict']);
    const strictAts = (JSON.parse(strict.stdout) as { differences: Difference[] }).differences.map((d) => d.at);
    expect(strictAts).toEqual(expect.arrayContaining(['payload.avatar', 'payload[].started_date', 'payload.session']));
  });
});
