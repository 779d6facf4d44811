/**
 * The lines a journal finished, kept as runs of consecutive line numbers rather than one entry a
 * line: items finish almost in order, so a million finished lines are a handful of runs and
 * resuming costs the same memory as for a thousand. Each run also keeps a checksum of its lines'
 * text, so a resume can tell that the list it reads is the one the journal was written for
 * without keeping the text.
 */

/** A 32-bit FNV-1a hash of the line number and its text. */
export function lineHash(line: number, input: string): number {
  let h = 0x811c9dc5 ^ line;
  for (let i = 0; i < input.length; i++) {
    h ^= input.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export interface LineRun {
  first: number;
  last: number;
  /** Sum of lineHash over the run's lines, modulo 2^32 (order-free: lines finish out of order). */
  sum: number;
}

export class FinishedLines {
  private readonly byFirst = new Map<number, LineRun>();
  private readonly byLast = new Map<number, LineRun>();
  private count = 0;

  /** Adds a line; a line that already ends a run is ignored (a record written twice). */
  add(line: number, input: string): void {
    if (this.byFirst.has(line) || this.byLast.has(line)) return;
    const h = lineHash(line, input);
    const before = this.byLast.get(line - 1);
    const after = this.byFirst.get(line + 1);
    this.count++;
    if (before && after) {
      this.byLast.delete(before.last);
      this.byFirst.delete(after.first);
      this.byLast.delete(after.last);
      before.last = after.last;
      before.sum = (before.sum + h + after.sum) >>> 0;
      this.byLast.set(before.last, before);
    } else if (before) {
      this.byLast.delete(before.last);
      before.last = line;
      before.sum = (before.sum + h) >>> 0;
      this.byLast.set(line, before);
    } else if (after) {
      this.byFirst.delete(after.first);
      after.first = line;
      after.sum = (after.sum + h) >>> 0;
      this.byFirst.set(line, after);
    } else {
      const run = { first: line, last: line, sum: h };
      this.byFirst.set(line, run);
      this.byLast.set(line, run);
    }
  }

  /** Lines held. */
  get size(): number {
    return this.count;
  }

  /** The runs in line order. */
  runs(): LineRun[] {
    return [...this.byFirst.values()].sort((a, b) => a.first - b.first);
  }
}
