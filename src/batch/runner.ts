/**
 * The batch runner: one operation over many users with bounded concurrency, an optional rate,
 * a resumable journal, and an honest outcome for every item (cli.md "Batch mode").
 */
import { ApiError, MalformedReplyError, NetworkError } from '../errors.js';
import { DEFAULT_CONCURRENCY } from './flags.js';
import type { BatchItem } from './input.js';
import { Journal, journalKey, type JournalCommand } from './journal.js';
import { noProgress, type BatchProgress } from './progress.js';
import { createRateGate, realClock, type Clock } from './rate.js';

export type BatchStatus = 'ok' | 'failed' | 'unknown' | 'skipped' | 'dry-run';

/** One NDJSON line of output per item. */
export interface BatchResult<R> {
  input: string;
  line: number;
  /** Null when the username could not be resolved. */
  uid: string | null;
  status: BatchStatus;
  /** The operation's result (ok) or what would be sent (dry-run). */
  result?: R | string;
  error?: { message: string; code?: number };
}

export interface BatchCounts {
  total: number;
  ok: number;
  failed: number;
  unknown: number;
  skipped: number;
  dryRun: number;
}

export interface BatchSummary extends BatchCounts {
  /** Why the run ended before the input was exhausted: --fail-fast, or the signal (Ctrl-C). */
  stopped?: 'fail-fast' | 'interrupted';
  elapsedMs: number;
}

export interface RunBatchOptions<R> {
  items: AsyncIterable<BatchItem> | Iterable<BatchItem>;
  /** Username → uid (uid-looking inputs should pass through without a request). */
  resolve: (input: string) => Promise<string>;
  operation: (uid: string, item: BatchItem) => Promise<R>;
  /** Safe to repeat after it may have reached the server (set, reset, delete). */
  idempotent: boolean;
  /** --dry-run: what would be sent for this uid; called instead of `operation`. */
  describe?: (uid: string) => string;
  dryRun?: boolean;
  /** Items in flight at most (default 8). */
  concurrency?: number;
  /** Item starts per second, evenly spaced. */
  ratePerSecond?: number;
  failFast?: boolean;
  journal?: { path: string; command: JournalCommand; notice?: (message: string) => void };
  /** Send items whose earlier outcome was unknown again. */
  retryUnknown?: boolean;
  /** Called once per finished item, in completion order; awaited (back-pressure on stdout). */
  onResult: (result: BatchResult<R>) => void | Promise<void>;
  progress?: BatchProgress;
  /** Stop starting new items when aborted (Ctrl-C); in-flight ones finish and are journaled. */
  signal?: AbortSignal;
  clock?: Clock;
}

export { DEFAULT_CONCURRENCY };

/**
 * How a failed item is reported. A non-idempotent mutation that may have reached the server
 * (timeout or reset after sending, a reply that could not be read, a gateway timeout) is
 * `unknown`: it is never retried blindly. Everything else is `failed` and may be retried.
 */
export function classifyError(err: unknown, idempotent: boolean): { status: 'failed' | 'unknown'; error: { message: string; code?: number } } {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof ApiError) {
    const maybeApplied = !idempotent && (err.httpStatus === 502 || err.httpStatus === 504);
    return { status: maybeApplied ? 'unknown' : 'failed', error: { message, code: err.code } };
  }
  if (!idempotent && ((err instanceof NetworkError && err.sent) || err instanceof MalformedReplyError)) {
    return { status: 'unknown', error: { message } };
  }
  return { status: 'failed', error: { message } };
}

function toAsyncIterator<T>(items: AsyncIterable<T> | Iterable<T>): AsyncIterator<T> {
  if (Symbol.asyncIterator in items) return items[Symbol.asyncIterator]();
  const it = items[Symbol.iterator]();
  return {
    next: async () => it.next(),
    return: async (value?: unknown) => it.return?.(value) ?? { done: true, value: undefined },
  };
}

export async function runBatch<R>(options: RunBatchOptions<R>): Promise<BatchSummary> {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY));
  const clock = options.clock ?? realClock;
  const progress = options.progress ?? noProgress;
  const gate = options.ratePerSecond ? createRateGate(options.ratePerSecond, clock) : null;
  const dryRun = options.dryRun ?? false;
  if (dryRun && !options.describe) throw new Error('runBatch: dryRun needs describe()');

  const journal = options.journal
    ? await Journal.open(options.journal.path, options.journal.command, {
        readOnly: dryRun,
        ...(options.journal.notice ? { notice: options.journal.notice } : {}),
      })
    : null;
  // Occurrences of each input line, so a user listed twice is two items in the journal too.
  const seen = journal ? new Map<string, number>() : null;

  const started = clock.now();
  const counts: BatchCounts = { total: 0, ok: 0, failed: 0, unknown: 0, skipped: 0, dryRun: 0 };
  const it = toAsyncIterator(options.items);
  let exhausted = false;
  let stopped = false;
  let fatal: { error: unknown } | null = null;

  const halted = () => exhausted || stopped || fatal !== null || (options.signal?.aborted ?? false);

  const pull = async (): Promise<BatchItem | null> => {
    if (halted()) return null;
    const r = await it.next();
    if (r.done) {
      exhausted = true;
      return null;
    }
    return r.value;
  };

  const emit = async (result: BatchResult<R>, fresh: boolean) => {
    counts.total++;
    if (result.status === 'dry-run') counts.dryRun++;
    else counts[result.status]++;
    if (fresh && options.failFast && (result.status === 'failed' || result.status === 'unknown')) stopped = true;
    progress.update(counts);
    await options.onResult(result);
  };

  const processItem = async (item: BatchItem) => {
    if (item.error !== undefined) {
      // Not a user (a line too long to be one): reported, never resolved, sent or journaled.
      await emit({ input: item.input, line: item.line, uid: null, status: 'failed', error: { message: item.error } }, true);
      return;
    }
    let n = 1;
    if (seen) {
      n = (seen.get(item.input) ?? 0) + 1;
      seen.set(item.input, n);
    }
    const base = { input: item.input, line: item.line };
    const prior = journal?.lookup(journalKey(item.input, n));
    if (prior?.status === 'ok') {
      await emit({ ...base, uid: prior.uid, status: 'skipped' }, false);
      return;
    }
    const priorUnknown = prior?.status === 'unknown' || (prior?.status === 'started' && !options.idempotent);
    if (priorUnknown && !options.retryUnknown) {
      await emit(
        {
          ...base,
          uid: prior.uid,
          status: 'unknown',
          error: {
            message:
              prior.status === 'started'
                ? 'interrupted while in flight in an earlier run: outcome unknown, not sent again (check it, then use --retry-unknown to send it)'
                : 'outcome unknown in an earlier run, not sent again (check it, then use --retry-unknown to send it)',
          },
        },
        false,
      );
      return;
    }

    if (gate) {
      await gate();
      if (stopped || fatal || options.signal?.aborted) return; // not started: a rerun does it
    }
    let uid: string;
    try {
      uid = await options.resolve(item.input);
    } catch (err) {
      const { error } = classifyError(err, true);
      if (journal && !dryRun) await journal.record({ input: item.input, n, uid: null, status: 'failed' });
      await emit({ ...base, uid: null, status: 'failed', error }, true);
      return;
    }

    if (dryRun) {
      await emit({ ...base, uid, status: 'dry-run', result: options.describe!(uid) }, true);
      return;
    }

    if (journal && !options.idempotent) await journal.record({ input: item.input, n, uid, status: 'started' });
    let result: BatchResult<R>;
    try {
      const value = await options.operation(uid, item);
      result = { ...base, uid, status: 'ok', result: value };
    } catch (err) {
      const { status, error } = classifyError(err, options.idempotent);
      result = { ...base, uid, status, error };
    }
    let journalError: unknown = null;
    if (journal) {
      try {
        await journal.record({ input: item.input, n, uid, status: result.status as 'ok' | 'failed' | 'unknown' });
      } catch (e) {
        journalError = e;
      }
    }
    await emit(result, true);
    if (journalError) throw journalError;
  };

  const worker = async () => {
    while (!halted()) {
      let item: BatchItem | null;
      try {
        item = await pull();
      } catch (error) {
        fatal ??= { error };
        return;
      }
      if (!item) return;
      try {
        await processItem(item);
      } catch (error) {
        // The journal or stdout failed: stop starting items, let the others finish.
        fatal ??= { error };
      }
    }
  };

  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    progress.done();
    if (!exhausted) {
      try {
        await it.return?.();
      } catch {
        // closing the input after a stop is best effort
      }
    }
    await journal?.close();
  }
  if (fatal) throw (fatal as { error: unknown }).error;
  const summary: BatchSummary = { ...counts, elapsedMs: clock.now() - started };
  if (!exhausted && stopped) summary.stopped = 'fail-fast';
  else if (!exhausted && options.signal?.aborted) summary.stopped = 'interrupted';
  return summary;
}

/** The summary line printed on stderr at the end of a batch. */
export function formatSummary(s: BatchSummary): string {
  const secs = s.elapsedMs / 1000;
  const parts = s.dryRun > 0 && s.ok === 0 ? [`${s.dryRun} dry-run`] : [`${s.ok} ok`];
  parts.push(`${s.failed} failed`, `${s.unknown} unknown`, `${s.skipped} skipped`);
  const rate = secs > 0 ? ` (${secs.toFixed(1)}s, ${Math.round(s.total / secs)}/s)` : '';
  let line = `batch: ${s.total} ${s.total === 1 ? 'item' : 'items'}: ${parts.join(', ')}${rate}`;
  if (s.stopped === 'fail-fast') line += '; stopped after the first failure (--fail-fast)';
  if (s.stopped === 'interrupted') line += '; interrupted';
  return line;
}
