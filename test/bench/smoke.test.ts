/**
 * The benches cannot rot: `node bench/run.js --smoke` (tiny sizes, one run each) must finish
 * and write every row with numbers. Nothing here is timed or judged: ratios on a shared test
 * machine mean nothing. Needs `npm run build` (npm test builds first).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const RUN = fileURLToPath(new URL('../../bench/run.js', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'udcli-bench-smoke-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const ROWS = ['startup-version', 'startup-help', 'startup-bare', 'user', 'list', 'inc', 'embedded', 'friends-time', 'friends-rss', 'data-load', 'data-export-rss', 'batch', 'batch-latency', 'batch-journal', 'journal-resume-rss', 'sandbox-get', 'sandbox-inc', 'sandbox-agi-inc', 'har-diff'];

interface Row {
  id: string;
  reference: { median: unknown; samples: unknown[]; spread: Record<string, unknown> };
  udcli: { median: unknown; samples: unknown[]; spread: Record<string, unknown> };
  load1: unknown;
  ratio: unknown;
  pass: unknown;
}

describe('bench/run.js --smoke', () => {
  it('runs every bench once and writes results.json and results.md with numbers in every row', () => {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('UDCLI_')) env[k] = v;
    const r = spawnSync(process.execPath, [RUN, '--smoke', '--out', out], { env, encoding: 'utf8', timeout: 90_000 });
    expect(r.status, r.stderr).toBe(0);

    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { mode: string; rows: Row[] };
    expect(results.mode).toBe('smoke');
    expect(results.rows.map((row) => row.id)).toEqual(ROWS);
    for (const row of results.rows) {
      const spreads = [...Object.values(row.reference.spread), ...Object.values(row.udcli.spread)];
      expect(spreads).toHaveLength(8);
      for (const value of [row.reference.median, row.udcli.median, row.ratio, row.load1, ...spreads, ...row.reference.samples, ...row.udcli.samples]) {
        expect(typeof value, `${row.id}: ${JSON.stringify(row)}`).toBe('number');
        expect(Number.isFinite(value as number), `${row.id}: ${JSON.stringify(row)}`).toBe(true);
      }
      expect(typeof row.pass).toBe('boolean');
    }
    const md = readFileSync(join(out, 'results.md'), 'utf8');
    expect(md).toContain('| what | reference | udcli | ratio | target |');
  }, 120_000);
});
