/**
 * `udcli sandbox diff`, one pipeline: read (the recordings as streams, once to learn the state
 * and the keys' games, before anything starts) → seed (a scratch sandbox from that state) →
 * replay (each platform exchange again, in order) → compare (status, format, envelope, shape,
 * values; the recorded reply against the sandbox's description) → report (the result below;
 * the CLI prints it).
 */
import { readHar } from '../../har/reader.js';
import type { DataFile } from '../data/model.js';
import { askedOf } from './asked.js';
import { compareReplies, ignored, type Found, type Kind, type Rules } from './compare.js';
import { classify, effectiveMethod, type PlatformExchange } from './exchange.js';
import { learnRecordings } from './learn.js';
import { replay } from './replay.js';
import { schemaFindings } from './schema-check.js';
import { openScratch, SCRATCH_ORIGIN } from './scratch.js';
import { seedData } from './seed.js';

export interface DiffOptions {
  files: readonly string[];
  /** `--data`: a data file (read and checked by the caller) loaded before the recording's state. */
  data?: { file: string; data: DataFile };
  ignore: readonly string[];
  strict: boolean;
}

export interface Difference {
  file: string;
  entry: number;
  method: string;
  path: string;
  /** The query as recorded (secrets are placeholders in udcli's recordings; the printer redacts the rest). */
  query: string;
  kind: Kind;
  at: string;
  recorded: unknown;
  sandbox: unknown;
}

export interface Skip {
  file: string;
  entry: number;
  reason: string;
  /** The host of an entry that is not a platform exchange (a page, a script, another service). */
  host?: string;
}

/** Differences kept for the report; beyond, only counted (a recording never makes the report unbounded). */
export const MAX_DIFFERENCES = 10_000;

export interface DiffResult {
  compared: number;
  same: number;
  differing: number;
  skipped: number;
  differences: Difference[];
  /** Differences found beyond MAX_DIFFERENCES, counted only. */
  omitted: number;
  /**
   * Every entry not compared, with why: not a platform exchange, no reply, no body recorded, not replayable (the first
   * MAX_DIFFERENCES; `skipped` counts them all).
   */
  skips: Skip[];
}

const NO_BODY_READ = "the reply's body was not recorded (browsers may leave bodies out): nothing to compare";
const NO_BODY_CHANGE =
  "the reply's body was not recorded: the change was replayed for the entries after it, not compared";

function queryOf(exchange: PlatformExchange): string {
  return exchange.query.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`).join('&');
}

export async function diffRecordings(options: DiffOptions): Promise<DiffResult> {
  // read
  const { seen } = await learnRecordings(options.files, 'first');
  // seed
  const seeded = seedData(seen, {
    signing: 'both',
    keepPersonal: true,
    label: 'the recording',
    ...(options.data ? { known: options.data.data } : {}),
  });
  const scratch = await openScratch([
    ...(options.data ? [{ data: options.data.data, label: options.data.file }] : []),
    { data: seeded.data, label: 'the recording' },
  ]);
  const rules: Rules = { strict: options.strict, ignore: options.ignore, ownOrigin: SCRATCH_ORIGIN };
  const result: DiffResult = { compared: 0, same: 0, differing: 0, skipped: 0, differences: [], omitted: 0, skips: [] };
  try {
    for (const file of options.files) {
      const skip = (entry: number, reason: string, host?: string): void => {
        result.skipped++;
        if (result.skips.length < MAX_DIFFERENCES)
          result.skips.push({ file, entry, reason, ...(host !== undefined ? { host } : {}) });
      };
      await readHar(file, async (entry, index) => {
        const c = classify(entry, index);
        if (c.kind === 'skip') {
          skip(index, c.reason, c.host);
          return;
        }
        const exchange = c.exchange;
        const context = { scratch, keyGames: seen.keyGames, keys: seeded.keys };
        if (!exchange.reply.recorded) {
          if (effectiveMethod(exchange) === 'GET') {
            skip(index, NO_BODY_READ);
            return;
          }
          // The change still happens in the scratch sandbox: later entries were recorded after it.
          await replay(exchange, context);
          skip(index, NO_BODY_CHANGE);
          return;
        }
        // replay
        const replayed = await replay(exchange, context);
        if ('skipped' in replayed) {
          skip(index, replayed.skipped);
          return;
        }
        // compare
        const found: Found[] = compareReplies(exchange.reply, replayed.reply, rules, askedOf(exchange));
        const reported = new Set(found.map((f) => f.at));
        for (const s of schemaFindings(exchange, [...reported]))
          if (!reported.has(s.at) && !ignored(s.at, rules)) found.push(s);
        result.compared++;
        if (found.length === 0) {
          result.same++;
          return;
        }
        result.differing++;
        for (const f of found) {
          if (result.differences.length >= MAX_DIFFERENCES) {
            result.omitted++;
            continue;
          }
          result.differences.push({
            file,
            entry: index,
            method: exchange.method,
            path: exchange.path,
            query: queryOf(exchange),
            ...f,
          });
        }
      });
    }
  } finally {
    await scratch.close();
  }
  return result;
}
