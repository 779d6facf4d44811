/**
 * The bench row of hmac-sha256-v1's used signatures (issue 40, 7): the sandbox keeps them in its
 * database, and a steady load of 2,000 distinct signed changes a second for 10 minutes must all be
 * accepted, with memory flat and expired rows swept. The in-memory set it replaced refused
 * everything past its 100,000th signature (at 333 a second for five minutes).
 *
 * Measured on the store the server uses (dist/sandbox/http/used-signatures.js over the real
 * repository, a database file on disk, one immediate transaction per change as the pipeline runs
 * it), with its real clock simulated: a simulated second is 2,000 spends, then the clock moves on
 * by 1 s, so 10 minutes of load take what the store costs, not 10 minutes. Each signature is
 * distinct (a nonce each), signed within the window either side of the clock. The reference: the
 * same transactions inserting the same keys into a bare WITHOUT ROWID table, with nothing kept,
 * checked or swept: the floor of a SQLite write per change. Both run in a child process of their
 * own, which reports its peak RSS.
 *
 *   node bench/used-signatures.js '{"side":"udcli"|"reference","dir":"/tmp/x","rate":2000,"seconds":600}'
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mustRun } from './lib/proc.js';

/**
 * Simulated seconds per mode, and changes a simulated second (2,000: the issue's load). A smoke run
 * (npm test) proves the row runs and checks: one simulated second of 200 distinct spends goes through
 * the same store, transactions and checks (each accepted, the rows bounded, faster than the rate), as
 * 2,000 would, for a tenth of the spends' CPU.
 */
export const SIGNATURE_SECONDS = { full: 600, quick: 120, smoke: 1 };
export const SIGNATURE_RATES = { full: 2000, quick: 2000, smoke: 200 };

/**
 * Runs one side in this process; returns what the child prints.
 * @param {{ side: 'udcli' | 'reference', dir: string, rate: number, seconds: number }} o
 */
async function runSide(o) {
  const T = 1_795_000_000;
  const file = join(o.dir, `${o.side}.db`);
  rmSync(file, { force: true });
  const { openDatabase } = await import('../dist/sandbox/database.js');
  const db = openDatabase(file);
  let accepted = 0;
  let refused = 0;
  let maxRows = 0;
  let realMs = T * 1000;
  /** @type {(signature: Buffer, timestamp: number) => boolean} */
  let spend;
  if (o.side === 'udcli') {
    const { createUsedSignatures } = await import('../dist/sandbox/http/used-signatures.js');
    const store = createUsedSignatures(db.repos.usedSignatures, () => realMs);
    spend = (signature, timestamp) => db.transaction(() => store.spend(signature.toString('hex'), timestamp).ok);
  } else {
    db.sqlite.exec('CREATE TABLE bare (signature BLOB PRIMARY KEY) WITHOUT ROWID');
    const insert = db.sqlite.prepare('INSERT OR IGNORE INTO bare (signature) VALUES (?)');
    spend = (signature) => db.transaction(() => insert.run(signature).changes === 1);
  }
  const started = performance.now();
  for (let second = 0; second < o.seconds; second++) {
    for (let k = 0; k < o.rate; k++) {
      // A client's clock may be off either way: timestamps spread over the window around the clock.
      const skew = (k % 601) - 300;
      if (spend(randomBytes(32), T + second + skew)) accepted++;
      else refused++;
    }
    realMs += 1000;
    if (second % 30 === 29 && o.side === 'udcli') maxRows = Math.max(maxRows, db.repos.usedSignatures.count());
  }
  const ms = performance.now() - started;
  const rows = o.side === 'udcli' ? db.repos.usedSignatures.count() : accepted;
  db.close();
  rmSync(file, { force: true });
  rmSync(`${file}-wal`, { force: true });
  rmSync(`${file}-shm`, { force: true });
  return {
    ms,
    accepted,
    refused,
    rows,
    maxRows: Math.max(maxRows, o.side === 'udcli' ? rows : 0),
    rssMb: process.resourceUsage().maxRSS / 1024,
  };
}

/**
 * The row: both sides `runs` times (interleaved), the changes a real second each side gets
 * through, and the checks (all accepted, rows bounded by what 601 s of the load leaves).
 * @param {{ mode: 'full' | 'quick' | 'smoke', root: string, runs: number, log: (line: string) => void, interleaved:
 * Function }} o
 */
export async function benchUsedSignatures(o) {
  const seconds = SIGNATURE_SECONDS[o.mode];
  const rate = SIGNATURE_RATES[o.mode];
  o.log(`used signatures: ${rate} distinct signed changes a simulated second for ${seconds} s, ${o.runs} runs a side`);
  const side = async (/** @type {'udcli' | 'reference'} */ which) => {
    const out = join(o.root, `signatures-${which}.json`);
    await mustRun(
      `used signatures (${which})`,
      [fileURLToPath(import.meta.url), JSON.stringify({ side: which, dir: o.root, rate, seconds })],
      { stdoutFile: out, timeoutMs: 1_800_000 },
    );
    return JSON.parse(readFileSync(out, 'utf8').trim().split('\n').at(-1) ?? '{}');
  };
  const r = await o.interleaved(
    { runs: o.runs, warmup: 0 },
    () => side('reference'),
    () => side('udcli'),
  );
  const perSecond = (/** @type {{ ms: number, accepted: number, refused: number }} */ x) =>
    ((x.accepted + x.refused) / x.ms) * 1000;
  const all = r.udcli.every(
    (/** @type {{ accepted: number, refused: number }} */ x) => x.refused === 0 && x.accepted === rate * seconds,
  );
  // At most 602 s of the load kept (601 s and the second the sweep waits for), whatever the run's length.
  const bound = rate * 602;
  const maxRows = Math.max(...r.udcli.map((/** @type {{ maxRows: number }} */ x) => x.maxRows));
  const rss = Math.max(...r.udcli.map((/** @type {{ rssMb: number }} */ x) => x.rssMb));
  return {
    id: 'sandbox-signatures',
    what: `hmac-sha256-v1 used signatures: ${rate} distinct signed changes a second for ${seconds} s (simulated clock), one transaction each`,
    unit: 'changes/s',
    kind: 'report',
    refLabel: 'the same transactions into a bare WITHOUT ROWID table (nothing kept, checked or swept)',
    refSamples: r.ref.map(perSecond),
    udcliSamples: r.udcli.map(perSecond),
    target: null,
    check:
      all &&
      maxRows <= bound &&
      r.udcli.every(
        (/** @type {{ ms: number }} */ x) => perSecond({ ...x, accepted: rate * seconds, refused: 0 }) >= rate,
      ),
    targetText: `report; all ${rate * seconds} accepted, ≤ ${bound} rows kept, faster than ${rate}/s`,
    extra: {
      accepted: r.udcli.map((/** @type {{ accepted: number }} */ x) => x.accepted),
      maxRows,
      rowBound: bound,
      peakRssMb: Math.round(rss),
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runSide(JSON.parse(process.argv[2] ?? '{}'));
  console.log(JSON.stringify(result));
}
