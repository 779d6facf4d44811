/** The batch progress bar: stderr, a terminal only, redrawn at most a few times a second. */
import type { BatchCounts } from './runner.js';

export interface BatchProgress {
  update(counts: BatchCounts): void;
  /** Takes the bar off its line (before a line is printed on the same terminal); the next update redraws it. */
  clear(): void;
  done(): void;
}

export const noProgress: BatchProgress = { update: () => undefined, clear: () => undefined, done: () => undefined };

const BAR_WIDTH = 20;

/** `[#######.............]` for done of total. */
export function progressBar(done: number, total: number): string {
  const filled = total > 0 ? Math.min(BAR_WIDTH, Math.floor((done / total) * BAR_WIDTH)) : 0;
  return `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}]`;
}

function fmtDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  if (h > 0) return `${h}h${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m${String(r).padStart(2, '0')}s`;
  return `${r}s`;
}

/** The text of the progress bar (without the terminal control codes): done/total, ok/failed/unknown, rate, ETA. */
export function progressText(counts: BatchCounts, elapsedMs: number, total: number | null): string {
  const done = counts.total;
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
  const ok = counts.ok + counts.resolved + counts.skipped + counts.dryRun;
  const parts = [
    total !== null ? `${progressBar(done, total)} ${done}/${total}` : `${done} done`,
    `${ok} ok, ${counts.failed} failed, ${counts.unknown} unknown`,
    `${rate.toFixed(rate < 10 ? 1 : 0)}/s`,
  ];
  if (total !== null && rate > 0 && done < total) parts.push(`ETA ${fmtDuration((total - done) / rate)}`);
  return parts.join(' · ');
}

export function createProgress(options: {
  stream: NodeJS.WritableStream;
  isTTY: boolean;
  /** Items in the input when known (a regular file); null while streaming. */
  total?: number | null;
  now?: () => number;
  intervalMs?: number;
}): BatchProgress {
  if (!options.isTTY) return noProgress;
  const now = options.now ?? Date.now;
  const interval = options.intervalMs ?? 200;
  const start = now();
  let last = -Infinity;
  let shown = false;
  return {
    update(counts) {
      const t = now();
      if (t - last < interval) return;
      last = t;
      shown = true;
      options.stream.write(`\r\x1b[K${progressText(counts, t - start, options.total ?? null)}`);
    },
    clear() {
      if (shown) options.stream.write('\r\x1b[K');
      shown = false;
    },
    done() {
      if (shown) options.stream.write('\r\x1b[K');
      shown = false;
    },
  };
}
