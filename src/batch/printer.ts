/**
 * How a batch prints its items (docs/CLI.md "Batch mode"). Piped, one NDJSON line per item as it
 * finishes (the whole result). On a terminal, the progress bar on stderr and, at the end, a table
 * of the items that were not plain successes (the summary line follows on stderr). `-o` and
 * `--fields` work as for one item: `-o ndjson` streams the lines on a terminal too, `-o csv`
 * streams rows, `-o json` prints one array, `-o table` the table.
 */
import { UsageError } from '../errors.js';
import { write } from '../output/pipe.js';
import type { Column, Output, OutputFormat } from '../output/types.js';
import type { BatchProgress } from './progress.js';
import type { BatchError, BatchResult } from './runner.js';
import { jsonText } from '../printable.js';

/** One item as `--fields`, a table and CSV see it: the result's receipt flattened beside its status. */
export interface BatchRow {
  line: number;
  input: string;
  uid: string | null;
  status: BatchResult<unknown>['status'];
  /** With failed and unknown: whether the change reached the server. */
  sent: boolean | null;
  /** The receipt's change, what a dry run would send, or why it failed. */
  detail: string;
  undo: string | null;
  /** As in NDJSON: `{message, code?}`, one shape in every format (a table and CSV show the message). */
  error: BatchError | null;
  resolved: string | null;
}

export const BATCH_COLUMNS: ReadonlyArray<Column<BatchRow>> = [
  { key: 'line', header: 'LINE', cell: (r) => String(r.line) },
  { key: 'input', header: 'INPUT', cell: (r) => r.input },
  { key: 'uid', header: 'UID', cell: (r) => r.uid ?? '' },
  { key: 'status', header: 'STATUS', cell: (r) => (r.resolved ? `${r.status} (resolved)` : r.status) },
  { key: 'sent', header: 'SENT', cell: (r) => (r.sent === null ? '' : r.sent ? 'yes' : 'no') },
  { key: 'detail', header: 'DETAIL', cell: (r) => r.detail },
  { key: 'undo', header: 'UNDO', cell: (r) => r.undo ?? '' },
  { key: 'error', header: 'ERROR', cell: (r) => r.error?.message ?? '' },
  { key: 'resolved', header: 'RESOLVED', cell: (r) => r.resolved ?? '' },
];

/** What the table shows by default (the rest are there for --fields). */
const TABLE_FIELDS = ['line', 'input', 'status', 'sent', 'detail'];

function receiptField(result: unknown, key: 'change' | 'undo'): string | null {
  if (result === null || typeof result !== 'object') return null;
  const value = (result as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : null;
}

export function batchRow(r: BatchResult<unknown>): BatchRow {
  const error = r.error ?? null;
  const resolved = r.resolved ? `${r.resolved.how}: ${r.resolved.detail}` : null;
  const change = typeof r.result === 'string' ? r.result : receiptField(r.result, 'change');
  return {
    line: r.line,
    input: r.input,
    uid: r.uid,
    status: r.status,
    // A plain success sent its change; a dry run sends none. Skipped: nothing this run.
    sent: r.sent ?? (r.status === 'ok' && !r.resolved ? true : r.status === 'dry-run' ? false : null),
    detail: error?.message ?? (r.status === 'skipped' ? skippedDetail(r, change) : (change ?? '')),
    undo: receiptField(r.result, 'undo'),
    error,
    resolved,
  };
}

/** A skipped line: what the earlier run did, or that the journal does not say. */
function skippedDetail(r: BatchResult<unknown>, change: string | null): string {
  if (r.earlier?.note) return r.earlier.note;
  return `finished in an earlier run (journal)${change ? `: ${change}` : ''}`;
}

/** A plain success: ok without a lost reply to resolve, or skipped as finished before. */
function plain(r: BatchResult<unknown>): boolean {
  return (r.status === 'ok' && !r.resolved) || r.status === 'skipped';
}

export interface BatchPrinter {
  onResult(result: BatchResult<unknown>): Promise<void>;
  /** After the last item: prints what was held back (the table, the end of the JSON array). */
  finish(): Promise<void>;
}

/** Checks --fields against the batch's fields before anything is sent (UsageError). */
export function checkBatchFields(fields: readonly string[] | undefined): void {
  const known = BATCH_COLUMNS.map((c) => c.key);
  for (const field of fields ?? []) {
    if (!known.includes(field))
      throw new UsageError(`unknown field ${JSON.stringify(field)} for --fields; available: ${known.join(', ')}`);
  }
}

/**
 * A queue out.list reads while the batch runs: rows are printed as they come (csv, ndjson, json),
 * and the batch waits while too many are unread (a slow stdout slows it instead of buffering).
 */
class RowQueue implements AsyncIterable<BatchRow> {
  #rows: BatchRow[] = [];
  #ended = false;
  #wake: (() => void) | null = null;
  #drained: Array<() => void> = [];

  async push(row: BatchRow): Promise<void> {
    this.#rows.push(row);
    this.#wake?.();
    if (this.#rows.length >= 256) await new Promise<void>((resolve) => this.#drained.push(resolve));
  }

  end(): void {
    this.#ended = true;
    this.#wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<BatchRow> {
    for (;;) {
      const row = this.#rows.shift();
      if (row !== undefined) {
        if (this.#rows.length < 128) for (const resolve of this.#drained.splice(0)) resolve();
        yield row;
        continue;
      }
      if (this.#ended) return;
      await new Promise<void>((resolve) => (this.#wake = resolve));
      this.#wake = null;
    }
  }
}

export function createBatchPrinter(options: {
  out: Output;
  stdout: NodeJS.WritableStream;
  /** -o/--json as given; undefined: NDJSON piped, the table on a terminal. */
  explicit: OutputFormat | undefined;
  fields: string[] | undefined;
  stdoutIsTTY: boolean;
  progress: BatchProgress;
}): BatchPrinter {
  const { out, progress } = options;
  const format: OutputFormat = options.explicit ?? (options.stdoutIsTTY ? 'table' : 'ndjson');
  if (format === 'ndjson' && !options.fields) {
    // The whole result a line, as a script reads it; the progress bar steps aside for each.
    return {
      onResult: async (r) => {
        progress.clear();
        await write(options.stdout, `${jsonText(r)}\n`);
      },
      finish: async () => undefined,
    };
  }
  if (format === 'table') {
    const held: BatchRow[] = [];
    const fields = options.fields ?? TABLE_FIELDS;
    return {
      onResult: async (r) => {
        if (!plain(r)) held.push(batchRow(r));
      },
      finish: async () => {
        if (held.length === 0) return;
        held.sort((a, b) => a.line - b.line);
        await out.list(
          held,
          BATCH_COLUMNS.filter((c) => fields.includes(c.key)).sort(
            (a, b) => fields.indexOf(a.key) - fields.indexOf(b.key),
          ),
        );
      },
    };
  }
  const queue = new RowQueue();
  const printing = out.list(queue, BATCH_COLUMNS);
  // A failure to print ends the batch at the next item (the runner stops on a throwing onResult).
  let failed: { error: unknown } | null = null;
  printing.catch((error: unknown) => (failed = { error }));
  return {
    onResult: async (r) => {
      if (failed) throw failed.error;
      progress.clear();
      await queue.push(batchRow(r));
    },
    finish: async () => {
      queue.end();
      await printing;
    },
  };
}
