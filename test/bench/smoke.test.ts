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

// No mock-server row, no node row and no row on the newest Node 24 (the start-up and one-shot rows'
// `-node24` twins): those install packages (or Node) from the npm registry, and a --smoke run leaves
// them out (the environment below drops $UDCLI_BENCH_NODE24 with the other UDCLI_ variables). The
// gc-soak row runs on this Node, for a second.
const ROWS = [
  'startup-version',
  'startup-help',
  'startup-bare',
  'user',
  'user-floor',
  'list',
  'inc',
  'embedded',
  'friends-time',
  'friends-rss',
  'data-load',
  'data-export-rss',
  'batch',
  'batch-2req',
  'batch-latency',
  'batch-latency-2req',
  'batch-journal',
  'journal-resume-rss',
  'sandbox-get',
  'ladder-fastify',
  'ladder-fastify-sqlite',
  'sandbox-get-floor',
  'sandbox-inc',
  'sandbox-agi-inc',
  'har-diff',
  'sandbox-signatures',
  'gc-soak',
];

interface Row {
  id: string;
  reference: { median: unknown; samples: unknown[]; spread: Record<string, unknown>; runs: unknown };
  udcli: { median: unknown; samples: unknown[]; spread: Record<string, unknown>; runs: unknown };
  load1: unknown;
  load: { load1: Record<string, unknown>; othersCores: unknown; underLoad: unknown };
  extra?: { dependencies?: { same: unknown } };
  ratio: unknown;
  pass: unknown;
}

describe('bench/run.js --smoke', () => {
  it('runs every bench once and writes results.json and results.md with numbers in every row', () => {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('UDCLI_')) env[k] = v;
    const r = spawnSync(process.execPath, [RUN, '--smoke', '--out', out], { env, encoding: 'utf8', timeout: 240_000 });
    expect(r.status, r.stderr).toBe(0);

    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { mode: string; rows: Row[] };
    expect(results.mode).toBe('smoke');
    expect(results.rows.map((row) => row.id)).toEqual(ROWS);
    for (const row of results.rows) {
      const spreads = [...Object.values(row.reference.spread), ...Object.values(row.udcli.spread)];
      expect(spreads).toHaveLength(8);
      for (const value of [
        row.reference.median,
        row.udcli.median,
        row.ratio,
        row.load1,
        ...spreads,
        ...row.reference.samples,
        ...row.udcli.samples,
      ]) {
        expect(typeof value, `${row.id}: ${JSON.stringify(row)}`).toBe('number');
        expect(Number.isFinite(value as number), `${row.id}: ${JSON.stringify(row)}`).toBe(true);
      }
      expect(typeof row.pass).toBe('boolean');
      // The spread's runs and the load while the row ran, whatever the row.
      expect(row.reference.runs).toBe(row.reference.samples.length);
      expect(row.udcli.runs).toBe(row.udcli.samples.length);
      expect(Object.keys(row.load.load1).sort()).toEqual(['end', 'max', 'start']);
      for (const value of Object.values(row.load.load1)) expect(Number.isFinite(value as number), row.id).toBe(true);
      expect(typeof row.load.underLoad).toBe('boolean');
      if (process.platform === 'linux') expect(Number.isFinite(row.load.othersCores as number), row.id).toBe(true);
    }
    // The one-shot rows' references load what udcli loads (traced, not assumed).
    for (const id of ['user', 'list', 'inc', 'friends-time'])
      expect(results.rows.find((row) => row.id === id)?.extra?.dependencies?.same, id).toBe(true);
    const md = readFileSync(join(out, 'results.md'), 'utf8');
    expect(md).toContain('| what | reference | udcli | ratio | target |');
    expect(md).not.toContain('The sandbox beside the mock servers');
  }, 300_000);

  it('takes --runs for a few iterations of a row and refuses a count that is not one or more', () => {
    const help = spawnSync(process.execPath, [RUN, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    for (const option of ['--runs N', '--only', '--mocks', '--no-mocks', '--mocks-dir'])
      expect(help.stdout).toContain(option);
    const bad = spawnSync(process.execPath, [RUN, '--smoke', '--runs', '0'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('bench: --runs takes a whole number of runs, 1 or more\n');
  });
});
