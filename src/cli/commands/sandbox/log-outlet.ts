/**
 * Where the foreground `sandbox start` writes its request lines without ever waiting on the
 * reader. On a terminal Node writes stdout synchronously, so a terminal stopped with Ctrl-S
 * stops the server; on a pipe nobody reads, Node queues every line in memory, and the process
 * cannot exit before they are written. Instead, stdout (a terminal, a pipe or a socket) is
 * written non-blocking, outside Node's stream, from a bounded buffer: when the reader falls behind and the buffer is
 * full, lines are dropped and counted,
 * and `udcli sandbox: N log lines dropped` is written where the output resumes. A regular file
 * (the detached sandbox's log) never stalls and is written as before.
 */
import { closeSync, constants, fstatSync, openSync, write as fsWrite, writeSync } from 'node:fs';
import { write as writeStream } from '../../../output/pipe.js';

/** Bytes waiting at most; beyond, lines are dropped. */
export const OUTLET_BUFFER_BYTES = 256 * 1024;
const RETRY_MS = 50;

export interface LineOutlet {
  /** Whole lines (each ending in a newline); never blocks, never queues past the bound. */
  write(text: string): void;
  /** Writes what it can without waiting, then lets go of the output. */
  close(): void;
  /** Lines dropped so far (the reader was behind). */
  dropped(): number;
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

const droppedNote = (n: number) =>
  `udcli sandbox: ${n} log line${n === 1 ? '' : 's'} dropped (the output was not read in time)\n`;

/**
 * A non-blocking descriptor of the same terminal, pipe or socket as `fd`, and whether it is ours
 * to close; null when there is none to be had. A terminal or a pipe is opened once more (its
 * own open file, so the shell's is left as it was); a socket cannot be, but Node's stream over it
 * made it non-blocking already.
 */
function nonBlocking(fd: number): { fd: number; owned: boolean } | null {
  try {
    const stat = fstatSync(fd);
    if (stat.isSocket()) return { fd, owned: false };
    if (!(stat.isFIFO() || stat.isCharacterDevice())) return null;
    return {
      fd: openSync(
        `/dev/fd/${fd}`,
        constants.O_WRONLY | constants.O_NONBLOCK | constants.O_APPEND | constants.O_NOCTTY,
      ),
      owned: true,
    };
  } catch {
    return null;
  }
}

/** Over a descriptor opened non-blocking: a full pipe or terminal answers EAGAIN, and we come back later. */
function descriptorOutlet({ fd, owned }: { fd: number; owned: boolean }, limit: number): LineOutlet {
  const release = () => {
    if (owned) closeSync(fd);
  };
  let head: Buffer | null = null; // what is being written (a partial write leaves its rest here)
  let queue: string[] = [];
  let queuedBytes = 0;
  let droppedLines = 0;
  let unreported = 0;
  let writing = false;
  let retry: NodeJS.Timeout | null = null;
  let closed = false;
  let gone = false; // the reader went away (EPIPE) or the descriptor failed: nothing more is written

  const take = (): Buffer | null => {
    if (head === null && (queue.length > 0 || unreported > 0)) {
      head = Buffer.from((unreported > 0 ? droppedNote(unreported) : '') + queue.join(''));
      unreported = 0;
      queue = [];
      queuedBytes = 0;
    }
    return head;
  };

  const written = (n: number) => {
    head = head !== null && n < head.length ? head.subarray(n) : null;
  };

  const pump = (): void => {
    if (writing || retry !== null || closed || gone) return;
    const chunk = take();
    if (chunk === null) return;
    writing = true;
    fsWrite(fd, chunk, 0, chunk.length, null, (error, n) => {
      writing = false;
      if (closed) return release();
      if (error) {
        if (error.code === 'EAGAIN' || error.code === 'EWOULDBLOCK') {
          retry = setTimeout(() => {
            retry = null;
            pump();
          }, RETRY_MS);
          retry.unref();
        } else gone = true;
        return;
      }
      written(n);
      pump();
    });
  };

  return {
    write(text) {
      if (closed || gone || text === '') return;
      const bytes = Buffer.byteLength(text);
      if ((head?.length ?? 0) + queuedBytes + bytes > limit) {
        const n = countLines(text);
        droppedLines += n;
        unreported += n;
        return;
      }
      queue.push(text);
      queuedBytes += bytes;
      pump();
    },
    close() {
      if (closed) return;
      closed = true;
      if (retry !== null) clearTimeout(retry);
      if (writing) return; // its callback closes the descriptor
      try {
        // Once, without waiting: a reader that is behind loses the rest, the process does not hang.
        for (let chunk = take(); chunk !== null && !gone; chunk = take()) written(writeSync(fd, chunk));
      } catch {
        // EAGAIN (still behind) or EPIPE (gone): what is left is not written.
      }
      release();
    },
    dropped: () => droppedLines,
  };
}

/** For a stream without a descriptor of its own (tests) or a regular file: its own buffer, bounded. */
function streamOutlet(stream: NodeJS.WritableStream, limit: number): LineOutlet {
  let droppedLines = 0;
  let unreported = 0;
  let closed = false;
  return {
    write(text) {
      if (closed || text === '') return;
      const waiting = (stream as { writableLength?: number }).writableLength ?? 0;
      if (waiting + Buffer.byteLength(text) > limit) {
        const n = countLines(text);
        droppedLines += n;
        unreported += n;
        return;
      }
      const note = unreported > 0 ? droppedNote(unreported) : '';
      unreported = 0;
      void writeStream(stream, note + text);
    },
    close() {
      closed = true;
    },
    dropped: () => droppedLines,
  };
}

export function openLineOutlet(stream: NodeJS.WritableStream, limit = OUTLET_BUFFER_BYTES): LineOutlet {
  const fd = (stream as { fd?: unknown }).fd;
  const target = typeof fd === 'number' ? nonBlocking(fd) : null;
  return target === null ? streamOutlet(stream, limit) : descriptorOutlet(target, limit);
}
