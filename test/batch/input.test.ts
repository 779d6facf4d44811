import { writeFileSync, createWriteStream } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { countBatchItems, isBatchArg, readBatchInput, type BatchItem } from '../../src/batch/input.js';
import { UsageError } from '../../src/errors.js';
import { fileScratch } from '../scratch.js';
import { collect } from '../collect.js';

const dir = fileScratch('udcli-input-');

describe('isBatchArg', () => {
  it('recognises @FILE and @- but not uids or usernames', () => {
    expect(isBatchArg('@testers.txt')).toBe(true);
    expect(isBatchArg('@-')).toBe(true);
    expect(isBatchArg('01e528d59829836fd23b09085b56edab')).toBe(false);
    expect(isBatchArg('demo_player')).toBe(false);
  });
});

describe('readBatchInput from a named pipe', () => {
  it('reads it as a stream, without blocking the event loop while the writer is slow', async () => {
    const fifo = join(dir, 'users.fifo');
    execFileSync('mkfifo', [fifo]);
    let done = false;
    const reading = collect(readBatchInput(`@${fifo}`, process.stdin)).finally(() => (done = true));
    // The writer opens the pipe only on a later turn of the event loop, which a blocking read
    // would never give (the test would hang); the reader waits for it, unfinished.
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    const writer = createWriteStream(fifo);
    await new Promise<void>((resolve, reject) =>
      writer.write('alice\n', (error) => (error ? reject(error) : resolve())),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    writer.end('bob\r\ncarol\n');
    const items = await reading;
    expect(items).toEqual([
      { line: 1, input: 'alice' },
      { line: 2, input: 'bob' },
      { line: 3, input: 'carol' },
    ]);
  });
});

describe('readBatchInput', () => {
  it('yields trimmed lines with their line numbers, skipping blanks and # comments (CRLF too)', async () => {
    const path = join(dir, 'list.txt');
    writeFileSync(
      path,
      '\uFEFF# testers\r\n  alice  \r\n\r\n01E528D59829836FD23B09085B56EDAB\r\n   # indented comment\n\tbob\n\nlast-without-newline',
    );
    expect(await collect(readBatchInput(`@${path}`, new PassThrough()))).toEqual([
      { line: 2, input: 'alice' },
      { line: 4, input: '01E528D59829836FD23B09085B56EDAB' },
      { line: 6, input: 'bob' },
      { line: 8, input: 'last-without-newline' },
    ]);
  });

  it('reads @- from the given stdin stream', async () => {
    const stdin = new PassThrough();
    stdin.end('carol\n# no\ndave\n');
    expect(await collect(readBatchInput('@-', stdin))).toEqual([
      { line: 1, input: 'carol' },
      { line: 3, input: 'dave' },
    ]);
  });

  it('throws a UsageError naming a missing file as soon as it is called, before iterating', () => {
    const missing = join(dir, 'nope.txt');
    expect(() => readBatchInput(`@${missing}`, new PassThrough())).toThrow(UsageError);
    expect(() => readBatchInput(`@${missing}`, new PassThrough())).toThrow(missing);
  });

  it('refuses a directory and a bare @', () => {
    expect(() => readBatchInput(`@${dir}`, new PassThrough())).toThrow(/not a file/);
    expect(() => readBatchInput('@', new PassThrough())).toThrow(UsageError);
  });

  it('counts the items of a regular file, and gives null for stdin', async () => {
    const path = join(dir, 'count.txt');
    writeFileSync(path, 'a\n\n#c\nb\nc\n');
    expect(await countBatchItems(`@${path}`)).toBe(3);
    expect(await countBatchItems('@-')).toBeNull();
  });

  it('streams 250,000 lines with flat memory, and closes the file when stopped early', async () => {
    const path = join(dir, 'million.txt');
    await new Promise<void>((resolve, reject) => {
      const ws = createWriteStream(path);
      ws.on('error', reject);
      const chunk: string[] = [];
      for (let i = 0; i < 250_000; i++) {
        chunk.push(`user_${String(i).padStart(27, '0')}`);
        if (chunk.length === 50_000) {
          ws.write(`${chunk.join('\n')}\n`);
          chunk.length = 0;
        }
      }
      ws.end(() => resolve());
    }); // ~8 MB: loaded whole (the text and its 250,000 line strings) it adds about 18 MB of heap,
    // streamed it holds under 1 MB: the 10 MB bound below tells the two apart at a quarter of a
    // million-line run's cost.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;
    gc();
    const base = process.memoryUsage().heapUsed;
    let peak = 0;
    let n = 0;
    let last = '';
    for await (const item of readBatchInput(`@${path}`, new PassThrough())) {
      n++;
      last = item.input;
      // After a scavenge: what the reader keeps, not young garbage (Node 24's young generation is larger).
      if (n % 25_000 === 0) {
        gc({ type: 'minor' });
        peak = Math.max(peak, process.memoryUsage().heapUsed - base);
      }
    }
    expect(n).toBe(250_000);
    expect(last).toBe(`user_${String(249_999).padStart(27, '0')}`);
    expect(peak).toBeLessThan(10 * 1024 * 1024);

    // breaking out of the loop returns the iterator, which must close the file (Linux: /proc)
    const openOnList = () =>
      existsSync('/proc/self/fd')
        ? readdirSync('/proc/self/fd').filter((fd) => {
            try {
              return readlinkSync(`/proc/self/fd/${fd}`) === path;
            } catch {
              return false;
            }
          }).length
        : 0;
    let seen = 0;
    for await (const _ of readBatchInput(`@${path}`, new PassThrough())) {
      if (++seen === 1) expect(openOnList()).toBe(1);
      if (seen === 3) break;
    }
    expect(seen).toBe(3);
    // Closing is asynchronous: wait for it (the test's limit catches a file never closed).
    await expect.poll(openOnList, { timeout: 30_000 }).toBe(0);
  }, 60_000);

  it('a line over 4,096 characters is one item with an error, shown cut short; the lines around it go on', async () => {
    const path = join(dir, 'long-line.txt');
    writeFileSync(path, `alice\n${'x'.repeat(5000)}\r\nbob\n${'y'.repeat(4096)}\ncarol`);
    const items = await collect(readBatchInput(`@${path}`, new PassThrough()));
    expect(items.map((i) => i.input.length)).toEqual([5, 41, 3, 4096, 5]);
    expect(items[1]).toEqual({
      line: 2,
      input: `${'x'.repeat(40)}…`,
      error: 'line 2 is 5000 characters long, over the 4096 a line allows (one uid or username a line): not sent',
    });
    expect(items[2]).toEqual({ line: 3, input: 'bob' });
    expect(items[3]!.error).toBeUndefined();
  });

  it('one 32 MB line among users: a single failed item, quickly, with flat memory (no re-splitting of what was read)', async () => {
    const path = join(dir, 'huge-line.txt');
    const ws = createWriteStream(path);
    ws.write('alice\n');
    const mb = 'z'.repeat(1024 * 1024);
    for (let i = 0; i < 32; i++) ws.write(mb);
    await new Promise<void>((resolve) => ws.end('\nbob\n', () => resolve()));
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;
    const minorGc = () => gc({ type: 'minor' });
    gc();
    const base = process.memoryUsage().heapUsed;
    let peak = 0;
    // Sampled while reading (the reader yields to the event loop between chunks), after a GC, so
    // what is measured is what the reader keeps, not garbage a young generation has not yet
    // collected (Node 24's is larger than Node 20's).
    const sampler = setInterval(() => {
      minorGc(); // a scavenge: cheap, and it is the young garbage that would be counted
      peak = Math.max(peak, process.memoryUsage().heapUsed - base);
    }, 5);
    const items: BatchItem[] = [];
    try {
      for await (const item of readBatchInput(`@${path}`, new PassThrough())) items.push(item);
    } finally {
      clearInterval(sampler);
    }
    expect(items.map((i) => [i.line, i.input.length, i.error !== undefined])).toEqual([
      [1, 5, false],
      [2, 41, true],
      [3, 3, false],
    ]);
    expect(items[1]!.error).toMatch(/^line 2 is 33554432 characters long/);
    expect(peak).toBeLessThan(24 * 1024 * 1024); // holding the line alone would take 32 MB
  }, 30_000);

  it('an endless line (like /dev/zero) ends the input with a UsageError instead of reading forever', async () => {
    const zeros = Buffer.alloc(64 * 1024);
    let sent = 0;
    const endless = new Readable({
      read() {
        sent += zeros.length;
        this.push(zeros);
      },
    });
    const reading = collect(readBatchInput('@-', endless));
    await expect(reading).rejects.toThrow(UsageError);
    await expect(
      collect(
        readBatchInput(
          '@-',
          new Readable({
            read() {
              this.push(zeros);
            },
          }),
        ),
      ),
    ).rejects.toThrow('line 1 of the batch input runs past 64 MiB without a line break: not a list of users');
    expect(sent).toBeLessThan(80 * 1024 * 1024);
  }, 30_000);
});
