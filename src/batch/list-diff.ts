/**
 * Which lines of a list differ from the ones a journal finished, once a run of finished lines has
 * failed its checksum (which says only that some line of the run changed). Found in bounded
 * memory, reading the journal and the list again: sums over blocks of the run name the first
 * blocks that differ, and only those blocks are compared line by line.
 */
import { lineHash } from './finished-lines.js';
import type { BatchItem } from './input.js';
import type { FinishedRecord } from './journal.js';

/** Blocks a run is cut into: their sums are all that is held for the whole run. */
const BLOCKS = 4096;
/** Differing lines named in the refusal; more are mentioned, not listed. */
export const SHOWN = 3;

export interface LineDifference {
  line: number;
  /** The text the journal finished on that line. */
  was: string;
  /** The list's text there now; null when the line is now blank, a comment, or past the end. */
  now: string | null;
}

export async function differingLines(
  run: { first: number; last: number },
  finished: () => Iterable<FinishedRecord>,
  reread: () => AsyncIterable<BatchItem>,
): Promise<{ shown: LineDifference[]; more: boolean }> {
  const size = run.last - run.first + 1;
  const per = Math.ceil(size / BLOCKS);
  const blockOf = (line: number) => Math.floor((line - run.first) / per);
  const inRun = (line: number) => line >= run.first && line <= run.last;
  const count = Math.ceil(size / per);
  const journalSums = new Uint32Array(count);
  const listSums = new Uint32Array(count);
  for (const rec of finished()) {
    if (inRun(rec.line))
      journalSums[blockOf(rec.line)] = (journalSums[blockOf(rec.line)]! + lineHash(rec.line, rec.input)) >>> 0;
  }
  for await (const item of reread()) {
    if (item.line > run.last) break;
    if (inRun(item.line))
      listSums[blockOf(item.line)] = (listSums[blockOf(item.line)]! + lineHash(item.line, item.input)) >>> 0;
  }
  const differing: number[] = [];
  for (let b = 0; b < count; b++) if (journalSums[b] !== listSums[b]) differing.push(b);
  const looked = new Set(differing.slice(0, SHOWN));
  const wanted = (line: number) => inRun(line) && looked.has(blockOf(line));

  const was = new Map<number, string>();
  for (const rec of finished()) if (wanted(rec.line)) was.set(rec.line, rec.input);
  const now = new Map<number, string>();
  for await (const item of reread()) {
    if (item.line > run.last) break;
    if (wanted(item.line)) now.set(item.line, item.input);
  }
  const found: LineDifference[] = [];
  for (const [line, text] of [...was].sort((a, b) => a[0] - b[0])) {
    const current = now.get(line) ?? null;
    if (current !== text) found.push({ line, was: text, now: current });
  }
  return { shown: found.slice(0, SHOWN), more: found.length > SHOWN || differing.length > looked.size };
}
