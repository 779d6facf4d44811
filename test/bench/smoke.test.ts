/**
 * The benches cannot rot: `node bench/run.js --smoke` (tiny sizes, one run each, all rows on one
 * seeded database and one sandbox) must finish and write every row of every module in bench/rows/
 * with numbers. Nothing here is timed or judged: ratios on a shared test machine mean nothing.
 * Needs `npm run build` (npm test builds first).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const RUN = fileURLToPath(new URL('../../bench/run.js', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'udcli-bench-smoke-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const ROW_FILES = readdirSync(fileURLToPath(new URL('../../bench/rows/', import.meta.url)))
  .filter((f) => f.endsWith('.js'))
  .map((f) => f.slice(0, -'.js'.length));
// Off in a --smoke run: the rows that install from the npm registry (npm test never installs
// anything). The start-up and one-shot rows' `-node24` twins are left out too: the environment
// below drops $UDCLI_BENCH_NODE24 with the other UDCLI_ variables.
const INSTALLING = ['mocks', 'node-ci'];

interface Module {
  file: string;
  ids: string[];
  reported?: string[];
  off?: boolean;
}

interface Row {
  id: string;
  reference: { label: string; median: unknown; samples: unknown[]; spread: Record<string, unknown>; runs: unknown };
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

    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
      mode: string;
      modules: Module[];
      rows: Row[];
    };
    expect(results.mode).toBe('smoke');
    // Every file in bench/rows/ is named in bench/run.js's list, and reports each row it declares.
    expect(results.modules.map((m) => m.file).sort()).toEqual(ROW_FILES.sort());
    for (const m of results.modules) {
      if (INSTALLING.includes(m.file)) expect(m.off, m.file).toBe(true);
      else expect(m.reported, m.file).toEqual(m.ids);
    }
    expect(results.rows.map((row) => row.id)).toEqual(results.modules.flatMap((m) => m.reported ?? []));
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
    // The like-for-like references load what udcli loads (traced, not assumed).
    const likeForLike = results.rows.filter((row) => row.reference.label.startsWith('like for like'));
    expect(likeForLike.map((row) => row.id)).toEqual(['user', 'list', 'inc', 'friends-time']);
    for (const row of likeForLike) expect(row.extra?.dependencies?.same, row.id).toBe(true);
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
