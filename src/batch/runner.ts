// Over 400 lines: the batch loop's concurrency, rate, interruption and outcomes share one state.
/**
 * The batch runner: one operation over many users with bounded concurrency, an optional rate,
 * a resumable journal, and an honest outcome for every item (docs/CLI.md "Batch mode").
 */
import { ApiError, knownUnchanged, outcomeUnknown, wasNotSent } from '../errors.js';
import { DEFAULT_CONCURRENCY } from './flags.js';
import type { BatchItem } from './input.js';
import { normalizeHex32 } from '../domain/ids.js';
import {
  Journal,
  listDiffers,
  RunDiffersError,
  type FinishedRecord,
  type JournalCommand,
  type ListCursor,
  type PriorOutcome,
} from './journal.js';
import { differingLines, type LineDifference } from './list-diff.js';
import { noProgress, type BatchProgress } from './progress.js';
import { createRateGate, realClock, type Clock } from './rate.js';

export type BatchStatus = 'ok' | 'failed' | 'unknown' | 'skipped' | 'dry-run';

/**
 * Why an item failed or is unknown: the same object in NDJSON, `-o json` and `--fields` (docs/CLI.md, "Batch mode").
 */
export interface BatchError {
  message: string;
  /** The service's code (404, 409...), when the service answered. */
  code?: number;
}

/** One NDJSON line of output per item. */
export interface BatchResult<R> {
  input: string;
  line: number;
  /** Null when the username could not be resolved. */
  uid: string | null;
  status: BatchStatus;
  /** The operation's result (ok) or what would be sent (dry-run). */
  result?: R | string;
  error?: BatchError;
  /**
   * With `failed` and `unknown`: whether the change reached the server. `false` (its read before
   * failed, or it was refused before sending): a rerun with the journal sends it.
   */
  sent?: boolean;
  /**
   * An item whose outcome was unknown (a lost reply, or in flight when an earlier run was
   * killed), decided by reading the user's state: `applied` (it had been), or `sent` (it had not,
   * so it was sent now). `detail` is what the decision was made from.
   */
  resolved?: { how: 'applied' | 'sent'; detail: string };
  /**
   * With `skipped`: the earlier run that finished the item, as the journal recorded it: when
   * (`at`), and whether it was `resolved`; `result` then holds what that run printed. `note`
   * says when the journal does not keep that run's result (a journal of an earlier udcli).
   */
  earlier?: { at: string | null; resolved?: { how: 'applied' | 'sent'; detail: string }; note?: string };
}

export interface BatchCounts {
  total: number;
  /** Plain successes. */
  ok: number;
  /** Successes found by reading the state after the outcome was unknown (apart from ok). */
  resolved: number;
  failed: number;
  unknown: number;
  skipped: number;
  dryRun: number;
}

export interface BatchSummary extends BatchCounts {
  /** Why the run ended before the input was exhausted: --fail-fast, or the signal (Ctrl-C). */
  stopped?: 'fail-fast' | 'interrupted';
  /** With --fail-fast: items already in flight at the first failure, which finished and were reported after it. */
  inFlightAtStop?: number;
  /** Failed items whose user does not exist (404): a rerun will not find them either. The first is named. */
  notFound?: { count: number; first: { line: number; input: string } };
  elapsedMs: number;
}

/** What the runner hands an operation: journal the state read before sending, report a resolution. */
export interface ItemContext {
  /**
   * For an operation that reads the user's state before sending (`journalsBefore`): journals
   * the `started` record with that state. Must be awaited before sending.
   */
  started(before: unknown): Promise<void>;
  /** The reply was lost, and reading the state decided it (see BatchResult.resolved). */
  resolved(how: 'applied' | 'sent', detail: string): void;
}

/**
 * Thrown by ItemContext.started once the run has stopped (--fail-fast, Ctrl-C): the item's change
 * is not sent, and the item is left for a rerun, as one never started.
 */
export class NotDispatched extends Error {
  constructor() {
    super('not dispatched: the batch stopped');
  }
}

/** What reading the state again says of an item left unknown (by an earlier run). */
export type Recovery<R> =
  | { outcome: 'applied'; detail: string; result: R }
  | { outcome: 'not-applied'; detail: string }
  | { outcome: 'unknown'; detail: string };

export interface RunBatchOptions<R> {
  items: AsyncIterable<BatchItem> | Iterable<BatchItem>;
  /**
   * The list again from its start, to check it against the journal before anything is sent (a
   * file can be read twice; standard input cannot, and is checked as it is read).
   */
  reread?: () => AsyncIterable<BatchItem>;
  /** Username → uid (uid-looking inputs should pass through without a request). */
  resolve: (input: string) => Promise<string>;
  operation: (uid: string, item: BatchItem, ctx: ItemContext) => Promise<R>;
  /**
   * The operation calls ctx.started(before) itself before sending (else the runner journals `started` without a state).
   */
  journalsBefore?: boolean;
  /**
   * Decides an item an earlier run left in flight or unknown, from the state it journaled
   * before sending: applied (reported ok, resolved), not applied (sent now), or still unknown.
   */
  recover?: (uid: string, before: unknown, input: string) => Promise<Recovery<R>>;
  /** Safe to repeat after it may have reached the server (set, reset, delete). */
  idempotent: boolean;
  /**
   * --dry-run: what would be sent for this uid; called instead of `operation`. It may read what
   * the real run would read first (the user exists): a rejection fails the item as the run would.
   */
  describe?: (uid: string) => string | Promise<string>;
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
export function classifyError(
  err: unknown,
  idempotent: boolean,
): { status: 'failed' | 'unknown'; error: BatchError; sent: boolean } {
  const error: BatchError =
    err instanceof ApiError
      ? { message: err instanceof Error ? err.message : String(err), code: err.code }
      : { message: err instanceof Error ? err.message : String(err) };
  const unchanged = knownUnchanged(err);
  if (unchanged || wasNotSent(err)) return { status: 'failed', error, sent: unchanged?.sent ?? false };
  return { status: !idempotent && outcomeUnknown(err) ? 'unknown' : 'failed', error, sent: true };
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

  const it = toAsyncIterator(options.items);
  // Refused before the first item (a journal in use, or of another list): the list is closed now,
  // not left open for the garbage collector (Node 26 fails a process on a FileHandle closed so).
  const closeInput = () => Promise.resolve(it.return?.()).catch(() => undefined);
  const journal = options.journal
    ? await Journal.open(options.journal.path, options.journal.command, {
        readOnly: dryRun,
        ...(options.journal.notice ? { notice: options.journal.notice } : {}),
      }).catch(async (error: unknown) => {
        await closeInput();
        throw error;
      })
    : null;
  const started = clock.now();
  const counts: BatchCounts = { total: 0, ok: 0, resolved: 0, failed: 0, unknown: 0, skipped: 0, dryRun: 0 };
  let notFound: BatchSummary['notFound'];
  let cursor: ListCursor | null = null;
  try {
    if (journal && journal.size > 0 && options.reread) {
      const check = journal.cursor();
      try {
        for await (const item of options.reread()) check.next(item.line, item.input);
        check.end();
      } catch (error) {
        if (!(error instanceof RunDiffersError)) throw error;
        const { shown, more } = await differingLines(error.run, () => journal.finished(), options.reread);
        throw shown.length > 0 ? listDiffers(error.path, describeDifferences(shown, more), putBack(shown)) : error;
      }
    }
    cursor = journal && journal.size > 0 ? journal.cursor() : null;
  } catch (error) {
    await journal?.close();
    await closeInput();
    throw error;
  }
  let exhausted = false;
  let stopped = false;
  let fatal: { error: unknown } | null = null;
  // Reported after --fail-fast stopped the run: items that were in flight at the first failure.
  let afterStop = 0;

  const halted = () => exhausted || stopped || fatal !== null || (options.signal?.aborted ?? false);

  // Items are pulled one at a time, in line order: the cursor walks the journal beside them.
  const pull = async (): Promise<{ item: BatchItem; prior: PriorOutcome } | null> => {
    if (halted()) return null;
    const r = await it.next();
    if (r.done) {
      exhausted = true;
      cursor?.end();
      return null;
    }
    return { item: r.value, prior: cursor?.next(r.value.line, r.value.input) };
  };

  const emit = async (result: BatchResult<R>, fresh: boolean) => {
    counts.total++;
    if (stopped && fresh) afterStop++;
    if (result.status === 'dry-run') counts.dryRun++;
    else if (result.status === 'ok' && result.resolved) counts.resolved++;
    else counts[result.status]++;
    if (result.status === 'failed' && result.error?.code === 404) {
      notFound ??= { count: 0, first: { line: result.line, input: result.input } };
      notFound.count++;
      if (result.line < notFound.first.line) notFound.first = { line: result.line, input: result.input };
    }
    if (fresh && options.failFast && (result.status === 'failed' || result.status === 'unknown')) stopped = true;
    progress.update(counts);
    await options.onResult(result);
  };

  const processItem = async (item: BatchItem, prior: PriorOutcome) => {
    if (item.error !== undefined) {
      // Not a user (a line too long to be one): reported, never resolved, sent or journaled.
      await emit(
        {
          input: item.input,
          line: item.line,
          uid: null,
          status: 'failed',
          error: { message: item.error },
          sent: false,
        },
        true,
      );
      return;
    }
    // Results are object literals, never `{ ...base, ... }`: V8 allocates spread copies made a
    // million times straight in the old generation, and the heap would grow with the list.
    const { line, input } = item;
    // Printed from the journal's own records, with what the earlier run did (skippedLines).
    if (prior === 'finished') return;
    let resolution: BatchResult<R>['resolved'];
    const priorUnknown =
      prior !== undefined && (prior.status === 'unknown' || (prior.status === 'started' && !options.idempotent));
    // Decided from the state even under --retry-unknown: a change found applied is never sent again.
    if (priorUnknown && options.recover && prior.before !== undefined && prior.uid !== null && !dryRun) {
      const uid = prior.uid;
      let recovery: Recovery<R>;
      try {
        recovery = await options.recover(uid, prior.before, input);
      } catch (err) {
        recovery = {
          outcome: 'unknown',
          detail: `the state could not be read (${err instanceof Error ? err.message : String(err)})`,
        };
      }
      if (recovery.outcome === 'applied') {
        await journal!.record({
          line,
          input,
          uid,
          status: 'ok',
          result: recovery.result,
          resolved: { how: 'applied', detail: recovery.detail },
        });
        await emit(
          {
            input,
            line,
            uid,
            status: 'ok',
            result: recovery.result,
            resolved: { how: 'applied', detail: recovery.detail },
          },
          true,
        );
        return;
      }
      if (recovery.outcome === 'unknown' && !options.retryUnknown) {
        await journal!.record({ line, input, uid, status: 'unknown', before: prior.before });
        const message = `outcome unknown in an earlier run, and the state does not tell: ${recovery.detail}; not sent again (check it, then use --retry-unknown to send it)`;
        await emit({ input, line, uid, status: 'unknown', error: { message }, sent: true }, true);
        return;
      }
      if (recovery.outcome === 'not-applied') resolution = { how: 'sent', detail: recovery.detail };
    } else if (priorUnknown && !options.retryUnknown) {
      await emit(
        {
          input,
          line,
          uid: prior.uid,
          status: 'unknown',
          error: {
            message:
              prior.status === 'started'
                ? 'interrupted while in flight in an earlier run: outcome unknown, not sent again (check it, then use --retry-unknown to send it)'
                : 'outcome unknown in an earlier run, not sent again (check it, then use --retry-unknown to send it)',
          },
          sent: true,
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
      uid = await options.resolve(input);
    } catch (err) {
      // Only a lookup: after --fail-fast stopped the run, the line is left as not started.
      if (stopped) return;
      const { error } = classifyError(err, true);
      if (journal && !dryRun) await journal.record({ line, input, uid: null, status: 'failed' });
      await emit({ input, line, uid: null, status: 'failed', error, sent: false }, true);
      return;
    }
    // A username lookup takes a round trip: the run may have stopped meanwhile; nothing is sent then.
    if (stopped || options.signal?.aborted) return;

    if (dryRun) {
      let described: string;
      try {
        described = await options.describe!(uid);
      } catch (err) {
        await emit({ input, line, uid, status: 'failed', error: classifyError(err, true).error, sent: false }, true);
        return;
      }
      await emit({ input, line, uid, status: 'dry-run', result: described }, true);
      return;
    }

    const journalsStart = journal !== null && !options.idempotent;
    if (journalsStart && !options.journalsBefore) await journal.record({ line, input, uid, status: 'started' });
    const ctx: ItemContext = {
      started: async (before) => {
        // The last moment before the change is sent: after a failure elsewhere, it is not.
        if (stopped || options.signal?.aborted) throw new NotDispatched();
        if (journalsStart) await journal.record({ line, input, uid, status: 'started', before });
      },
      resolved: (how, detail) => {
        resolution = { how, detail };
      },
    };
    let result: BatchResult<R>;
    try {
      const value = await options.operation(uid, item, ctx);
      result = { input, line, uid, status: 'ok', result: value };
      if (resolution) result.resolved = resolution;
    } catch (err) {
      if (err instanceof NotDispatched) return;
      const { status, error, sent } = classifyError(err, options.idempotent);
      result = { input, line, uid, status, error, sent };
    }
    let journalError: unknown = null;
    if (journal) {
      try {
        await journal.record({
          line,
          input,
          uid,
          status: result.status as 'ok' | 'failed' | 'unknown',
          ...(result.status === 'ok' ? { result: result.result } : {}),
          ...(result.resolved ? { resolved: result.resolved } : {}),
        });
      } catch (e) {
        journalError = e;
      }
    }
    await emit(result, true);
    if (journalError) throw journalError;
  };

  const worker = async () => {
    while (!halted()) {
      let next: Awaited<ReturnType<typeof pull>>;
      try {
        next = await pull();
      } catch (error) {
        fatal ??= { error };
        return;
      }
      if (!next) return;
      try {
        await processItem(next.item, next.prior);
      } catch (error) {
        // The journal or stdout failed: stop starting items, let the others finish.
        fatal ??= { error };
      }
    }
  };

  try {
    // What earlier runs finished first, read from the journal record by record: with them, this
    // run's output alone has a line for every line of the list.
    if (journal && journal.size > 0) for (const rec of journal.finished()) await emit(skippedLine<R>(rec), false);
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
  if (notFound) summary.notFound = notFound;
  if (!exhausted && stopped) {
    summary.stopped = 'fail-fast';
    summary.inFlightAtStop = afterStop;
  } else if (!exhausted && options.signal?.aborted) summary.stopped = 'interrupted';
  return summary;
}

/** A line an earlier run finished, as the journal recorded it. */
function skippedLine<R>(rec: FinishedRecord): BatchResult<R> {
  // An older journal kept the uid of its ok records, not what was done.
  const earlier: NonNullable<BatchResult<R>['earlier']> = { at: rec.at };
  if (rec.resolved) earlier.resolved = rec.resolved;
  if (!('result' in rec))
    earlier.note =
      'finished in an earlier run; what it did (before, after, undo) is not in this journal: an earlier udcli wrote it';
  const out: BatchResult<R> = {
    input: rec.input,
    line: rec.line,
    uid: rec.uid ?? normalizeHex32(rec.input),
    status: 'skipped',
  };
  if (rec.result !== undefined && rec.result !== null) out.result = rec.result as R;
  out.earlier = earlier;
  return out;
}

/** `line 101 was "bob", now "bobby"; line 140 was …; and more after line 140`. */
function describeDifferences(shown: LineDifference[], more: boolean): string {
  const each = shown.map(
    (d) =>
      `line ${d.line} was ${JSON.stringify(d.was)}, now ${d.now === null ? 'blank or a comment' : JSON.stringify(d.now)}`,
  );
  return `${each.join('; ')}${more ? `; and more after line ${shown.at(-1)!.line}` : ''}`;
}

/** The way out of a changed list: put back what the journal finished, or start a new journal. */
function putBack(shown: LineDifference[]): string {
  const lines = shown.length === 1 ? `line ${shown[0]!.line}` : 'those lines';
  return `to resume, put ${lines} back as the journal has ${shown.length === 1 ? 'it' : 'them'}; for a different list, give --journal a new file`;
}

/** The summary line printed on stderr at the end of a batch. */
export function formatSummary(s: BatchSummary): string {
  const secs = s.elapsedMs / 1000;
  const parts = s.dryRun > 0 && s.ok === 0 ? [`${s.dryRun} dry-run`] : [`${s.ok} ok`];
  if (s.resolved > 0) parts.push(`${s.resolved} resolved`);
  parts.push(`${s.failed} failed`, `${s.unknown} unknown`, `${s.skipped} skipped`);
  const rate = secs > 0 ? ` (${secs.toFixed(1)}s, ${Math.round(s.total / secs)}/s)` : '';
  let line = `batch: ${s.total} ${s.total === 1 ? 'item' : 'items'}: ${parts.join(', ')}${rate}`;
  if (s.stopped === 'fail-fast') {
    const inFlight = s.inFlightAtStop ?? 0;
    line += `; stopped after the first failure (--fail-fast): nothing started after it${inFlight > 0 ? `, ${inFlight} already in flight finished` : ', none was in flight'}`;
  }
  if (s.stopped === 'interrupted') line += '; interrupted';
  return line;
}
