/**
 * Data files: `udcli sandbox load` of a generated file (users, each the friend of the next ten)
 * against better-sqlite3 alone on the sandbox's schema (bench/ref/load.js), and `sandbox export`'s
 * peak RSS for all of it against a tenth of it (flat memory means ~1×).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH } from '../lib/context.js';
import { udcliHere } from '../lib/in-process.js';
import { sameJson } from '../lib/side-by-side.js';
import { median, ms, rssMB } from '../lib/stats.js';

const name = (/** @type {number} */ i) => `u${String(i).padStart(7, '0')}`;

/** A game and `users` users, each the friend of the next ten. @param {string} path @param {number} users */
function writeDataFile(path, users) {
  writeFileSync(
    path,
    JSON.stringify({
      games: [{ id: '4711', name: 'Bench', keys: [{ api_key: '5f0e3b7c9a1d4e2f8b6c0a9d7e5f3b1c' }] }],
      users: Array.from({ length: users }, (_, i) => {
        const friends = Array.from({ length: Math.min(10, users - i - 1) }, (_, k) => name(i + k + 1));
        return friends.length ? { username: name(i), friends } : { username: name(i) };
      }),
    }),
  );
}

/** @param {string} p */
function fresh(p) {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${p}${suffix}`, { force: true });
  return p;
}

/** The SQL of a freshly migrated database, for the reference to create the same schema. @param {string} root */
async function schemaFile(root) {
  const { openDatabase } = await import('../../dist/sandbox/database.js');
  const empty = openDatabase(fresh(join(root, 'schema.db')));
  const order = "CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 WHEN 'view' THEN 2 ELSE 3 END";
  const sql = /** @type {string[]} */ (
    empty.sqlite
      .prepare(
        `SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY ${order}, rowid`,
      )
      .pluck()
      .all()
  );
  empty.close();
  const file = join(root, 'schema.sql');
  writeFileSync(file, `${sql.join(';\n')};\n`);
  return file;
}

/** Users and friendships in a database file. @param {string} p */
async function counts(p) {
  const { sqliteDriver } = await import('../../dist/sandbox/sqlite-driver.js');
  const Database = sqliteDriver();
  const db = new Database(p, { readonly: true });
  try {
    return db
      .prepare('SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM friendships) AS friendships')
      .get();
  } finally {
    db.close();
  }
}

/** @type {import('../run.js').BenchRow} */
export default {
  ids: ['data-load', 'data-export-rss'],
  async run(ctx) {
    const { s, root, outFile, rssFile } = ctx;
    const n = s.dataUsers;
    const dataFile = join(root, 'data.json');
    writeDataFile(dataFile, n);
    const loadedDb = join(root, 'loaded.db');
    const refDb = join(root, 'ref-loaded.db');
    const schema = await schemaFile(root);
    ctx.log(`data-load: ${n} users, ${s.dataRuns} runs a side`);
    const r = await ctx.interleaved(
      { runs: s.dataRuns, warmup: 0 },
      () =>
        ctx.node('ref/load.js', [join(BENCH, 'ref/load.js'), dataFile, fresh(refDb), schema], { timeoutMs: 300_000 }),
      () =>
        ctx.udcli(['sandbox', 'load', dataFile, '--db', fresh(loadedDb)], { stdoutFile: outFile, timeoutMs: 300_000 }),
    );
    // The same work: the same users and friendships in both databases.
    const [refCounts, udcliCounts] = [await counts(refDb), await counts(loadedDb)];
    if (!sameJson(refCounts, udcliCounts))
      throw new Error(
        `data-load: the reference wrote ${JSON.stringify(refCounts)}, udcli ${JSON.stringify(udcliCounts)}`,
      );
    const loadedMs = median(ms(r.udcli));
    ctx.report({
      id: 'data-load',
      what: `udcli sandbox load (JSON, ${n.toLocaleString('en')} users, ${(n * 10).toLocaleString('en')} friendships)`,
      unit: 'ms',
      kind: 'time',
      refLabel: 'better-sqlite3 alone: JSON.parse, the same schema and inserts in one transaction, no checks',
      refSamples: ms(r.ref),
      udcliSamples: ms(r.udcli),
      target: { op: '<=', value: 1.5 },
      check: ctx.mode !== 'full' || loadedMs < 30_000,
      targetText: ctx.mode === 'full' ? '≤ 1.5× and < 30 s' : '≤ 1.5×',
    });

    // Peak RSS of exporting everything against exporting a tenth of it: flat means ~1×.
    const smallDb = join(root, 'small-data.db');
    const smallFile = join(root, 'small-data.json');
    const tenth = Math.max(1, Math.floor(n / 10));
    writeDataFile(smallFile, tenth);
    // Set-up, not measured: a --smoke run loads the tenth in this process (bench/lib/in-process.js).
    const loadSmall = ['sandbox', 'load', smallFile, '--db', fresh(smallDb)];
    if (ctx.mode === 'smoke') await udcliHere(loadSmall, ctx.udcliEnv);
    else await ctx.udcli(loadSmall, { stdoutFile: outFile });
    ctx.log(`data-export: peak RSS, ${n} vs ${tenth} users, ${s.dataRuns} runs a side`);
    const exportJson = (/** @type {string} */ db) =>
      ctx.udcli(['sandbox', 'export', '--db', db, '--format', 'json'], {
        stdoutFile: outFile,
        rssFile,
        timeoutMs: 300_000,
      });
    const e = await ctx.interleaved(
      { runs: s.dataRuns, warmup: 0 },
      () => exportJson(smallDb),
      () => exportJson(loadedDb),
    );
    ctx.report({
      id: 'data-export-rss',
      what: `udcli sandbox export peak RSS, ${n.toLocaleString('en')} vs ${tenth.toLocaleString('en')} users`,
      unit: 'MB',
      kind: 'memory',
      refLabel: `udcli @ ${tenth.toLocaleString('en')} users`,
      refSamples: rssMB(e.ref),
      udcliSamples: rssMB(e.udcli),
      target: { op: '<=', value: 1.2 },
      extra: { exportMs: median(ms(e.udcli)) },
    });
  },
};
