import { describe, expect, it } from 'vitest';
import type { BatchItem } from '../../src/batch/input.js';
import { createProgress, progressText } from '../../src/batch/progress.js';
import { createRateGate, parseRate } from '../../src/batch/rate.js';
import {
  classifyError,
  formatSummary,
  runBatch,
  type BatchResult,
  type RunBatchOptions,
} from '../../src/batch/runner.js';
import { ApiError, MalformedReplyError, NetworkError, UsageError, markUnchanged } from '../../src/errors.js';

const HEX = (i: number) => i.toString(16).padStart(32, '0');
const items = (inputs: string[]): BatchItem[] => inputs.map((input, i) => ({ line: i + 1, input }));
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));
const passThrough = async (input: string) => input;

async function run<R>(opts: Partial<RunBatchOptions<R>> & Pick<RunBatchOptions<R>, 'items' | 'operation'>) {
  const results: BatchResult<R>[] = [];
  const summary = await runBatch<R>({
    resolve: passThrough,
    idempotent: true,
    onResult: (r) => {
      results.push(r);
    },
    ...opts,
  });
  return { results, summary, byInput: new Map(results.map((r) => [r.input, r])) };
}

describe('runBatch', () => {
  it('runs the operation once per item, resolving usernames, and reports each result', async () => {
    const calls: string[] = [];
    const { results, summary } = await run({
      items: items([HEX(1), 'alice', HEX(2)]),
      resolve: async (input) => (input === 'alice' ? HEX(99) : input),
      operation: async (uid) => {
        calls.push(uid);
        return { current_value: 0 };
      },
    });
    expect(calls.sort()).toEqual([HEX(1), HEX(2), HEX(99)].sort());
    expect(results.find((r) => r.input === 'alice')).toEqual({
      input: 'alice',
      line: 2,
      uid: HEX(99),
      status: 'ok',
      result: { current_value: 0 },
    });
    expect(summary).toMatchObject({ total: 3, ok: 3, failed: 0, unknown: 0, skipped: 0 });
    expect(summary.stopped).toBeUndefined();
  });

  it('an input line that is no user (too long) is one failed item: nothing resolved or sent for it, the rest go on', async () => {
    const resolved: string[] = [];
    const calls: string[] = [];
    const tooLong = { line: 2, input: 'xxxx…', error: 'line 2 is 5000 characters long, over the 4096 a line allows' };
    const { results, summary } = await run({
      items: [{ line: 1, input: HEX(1) }, tooLong, { line: 3, input: HEX(3) }],
      resolve: async (input) => (resolved.push(input), input),
      operation: async (uid) => void calls.push(uid),
    });
    expect(resolved.sort()).toEqual([HEX(1), HEX(3)]);
    expect(calls.sort()).toEqual([HEX(1), HEX(3)]);
    expect(results.find((r) => r.line === 2)).toEqual({
      input: 'xxxx…',
      line: 2,
      uid: null,
      status: 'failed',
      error: { message: tooLong.error },
      sent: false,
    });
    expect(summary).toMatchObject({ total: 3, ok: 2, failed: 1 });
  });

  it('keeps at most `concurrency` items in flight and pulls the input only as fast as items finish', async () => {
    let pulled = 0;
    let finished = 0;
    let inFlight = 0;
    let maxInFlight = 0;
    let maxAhead = 0;
    async function* source() {
      for (let i = 0; i < 200; i++) {
        pulled++;
        maxAhead = Math.max(maxAhead, pulled - finished);
        yield { line: i + 1, input: HEX(i) };
      }
    }
    const { summary } = await run({
      items: source(),
      concurrency: 5,
      operation: async () => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await tick(Math.random() * 3);
        inFlight--;
        finished++;
      },
    });
    expect(summary.ok).toBe(200);
    expect(maxInFlight).toBe(5);
    expect(maxAhead).toBeLessThanOrEqual(5);
  });

  it('reports a lost reply of a non-idempotent mutation as unknown and never retries it', async () => {
    let calls = 0;
    const { results, summary } = await run({
      items: items([HEX(1)]),
      idempotent: false,
      operation: async () => {
        calls++;
        throw new NetworkError('timeout after 15000 ms', 'timeout', true);
      },
    });
    expect(calls).toBe(1);
    expect(results[0]).toMatchObject({ status: 'unknown', uid: HEX(1), error: { message: 'timeout after 15000 ms' } });
    expect(summary).toMatchObject({ unknown: 1, failed: 0 });
  });

  it('classifies outcomes: unsent or idempotent network errors and API errors fail; lost replies of inc/give/take are unknown', () => {
    const sent = new NetworkError('reset', 'reset', true);
    const unsent = new NetworkError('refused', 'unreachable', false);
    expect(classifyError(sent, false).status).toBe('unknown');
    expect(classifyError(sent, true).status).toBe('failed');
    expect(classifyError(unsent, false).status).toBe('failed');
    expect(classifyError(new MalformedReplyError('html'), false).status).toBe('unknown');
    expect(classifyError(new MalformedReplyError('html'), true).status).toBe('failed');
    expect(classifyError(new ApiError('gateway timeout', 504, 504), false).status).toBe('unknown');
    expect(classifyError(new ApiError('insufficient quantity', 409, 409), false)).toEqual({
      status: 'failed',
      error: { message: 'insufficient quantity', code: 409 },
      sent: true,
    });
    // Nothing was sent (a read before the change failed after its retries): failed, never unknown.
    expect(classifyError(markUnchanged(new ApiError('bad gateway', 502, 502)), false)).toMatchObject({
      status: 'failed',
      sent: false,
    });
    expect(classifyError(markUnchanged(new MalformedReplyError('truncated')), false)).toMatchObject({
      status: 'failed',
      sent: false,
    });
    expect(classifyError(markUnchanged(new ApiError('bad gateway', 502, 502), true), false)).toMatchObject({
      status: 'failed',
      sent: true,
    });
    expect(classifyError(unsent, false).sent).toBe(false);
    expect(classifyError(sent, false).sent).toBe(true);
    expect(classifyError(new ApiError('rate limited', 429, 429), false)).toMatchObject({
      status: 'failed',
      error: { code: 429 },
    });
    expect(classifyError(new UsageError('bad'), false).status).toBe('failed');
  });

  it('fails an item whose username does not resolve, without calling the operation', async () => {
    const called: string[] = [];
    const { byInput, summary } = await run({
      items: items(['ghost', HEX(1)]),
      resolve: async (input) => {
        if (input === 'ghost') throw new ApiError('not found: user', 404, 404);
        return input;
      },
      operation: async (uid) => {
        called.push(uid);
      },
    });
    expect(byInput.get('ghost')).toEqual({
      input: 'ghost',
      line: 1,
      uid: null,
      status: 'failed',
      error: { message: 'not found: user', code: 404 },
      sent: false,
    });
    expect(called).toEqual([HEX(1)]);
    expect(summary).toMatchObject({ ok: 1, failed: 1 });
  });

  it('--fail-fast starts nothing after the first failure; items already in flight finish and are reported', async () => {
    const started: number[] = [];
    const { results, summary } = await run({
      items: items(Array.from({ length: 50 }, (_, i) => HEX(i))),
      concurrency: 3,
      failFast: true,
      operation: async (uid) => {
        const i = parseInt(uid, 16);
        started.push(i);
        if (i === 4) throw new ApiError('boom', 500, 500);
        await tick(5);
      },
    });
    expect(started.length).toBeLessThan(10);
    expect(results.length).toBe(started.length); // every started item was reported
    expect(summary.failed).toBe(1);
    expect(summary.stopped).toBe('fail-fast');
    expect(formatSummary(summary)).toMatch(/stopped after the first failure/);
  });

  it('--fail-fast: an item not yet at its send when the first failure comes is not sent nor reported; one already sent finishes and is counted as in flight', async () => {
    const sent: number[] = [];
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let twoSent!: () => void;
    const secondSent = new Promise<void>((r) => (twoSent = r));
    const results: BatchResult<string>[] = [];
    const { summary } = await run<string>({
      items: items([HEX(1), HEX(2), HEX(3), HEX(4)]),
      concurrency: 4,
      failFast: true,
      idempotent: false,
      journalsBefore: true,
      onResult: (r) => {
        results.push(r);
        if (r.status === 'failed') release();
      },
      operation: async (uid, _item, ctx) => {
        const i = parseInt(uid, 16);
        if (i === 1) {
          await secondSent;
          throw new ApiError('insufficient quantity', 409, 409);
        }
        if (i === 2) {
          await ctx.started(null);
          sent.push(i);
          twoSent();
          await released;
          return 'ok';
        }
        // Still reading the state before when the first failure is reported.
        await released;
        await ctx.started(null);
        sent.push(i);
        return 'ok';
      },
    });
    expect(sent).toEqual([2]);
    expect(results.map((r) => [r.line, r.status])).toEqual([
      [1, 'failed'],
      [2, 'ok'],
    ]);
    expect(summary).toMatchObject({ stopped: 'fail-fast', inFlightAtStop: 1, failed: 1, ok: 1 });
    expect(formatSummary(summary)).toMatch(
      /stopped after the first failure \(--fail-fast\): nothing started after it, 1 already in flight finished$/,
    );
  });

  it('--dry-run describes each item and sends nothing', async () => {
    let calls = 0;
    const { results, summary } = await run({
      items: items([HEX(1), HEX(2)]),
      dryRun: true,
      describe: (uid) => `PUT /services/rest/v1/achievements/user/${uid}.json reset=1`,
      operation: async () => {
        calls++;
      },
    });
    expect(calls).toBe(0);
    expect(results.map((r) => r.status)).toEqual(['dry-run', 'dry-run']);
    expect(results[0]!.result).toBe(`PUT /services/rest/v1/achievements/user/${HEX(1)}.json reset=1`);
    expect(summary).toMatchObject({ total: 2, dryRun: 2, ok: 0 });
    expect(formatSummary(summary)).toMatch(/2 dry-run/);
  });

  it('stops starting items when the signal aborts (Ctrl-C)', async () => {
    const ac = new AbortController();
    let calls = 0;
    const { summary } = await run({
      items: items(Array.from({ length: 100 }, (_, i) => HEX(i))),
      concurrency: 2,
      signal: ac.signal,
      operation: async () => {
        if (++calls === 4) ac.abort();
        await tick(1);
      },
    });
    expect(calls).toBeLessThanOrEqual(5);
    expect(summary.total).toBe(calls);
    expect(summary.stopped).toBe('interrupted');
  });

  it('rejects with the input error after the items in flight finish', async () => {
    let finished = 0;
    async function* broken() {
      yield { line: 1, input: HEX(1) };
      yield { line: 2, input: HEX(2) };
      throw new Error('EIO: read failed');
    }
    await expect(
      run({
        items: broken(),
        concurrency: 4,
        operation: async () => {
          await tick(5);
          finished++;
        },
      }),
    ).rejects.toThrow('EIO');
    expect(finished).toBe(2);
  });

  it('awaits onResult, so a slow stdout slows the batch instead of buffering', async () => {
    let writing = 0;
    let maxWriting = 0;
    await runBatch({
      items: items(Array.from({ length: 30 }, (_, i) => HEX(i))),
      resolve: passThrough,
      idempotent: true,
      concurrency: 4,
      operation: async () => undefined,
      onResult: async () => {
        writing++;
        maxWriting = Math.max(maxWriting, writing);
        await tick(2);
        writing--;
      },
    });
    expect(maxWriting).toBeLessThanOrEqual(4);
  });

  it('--rate spaces the starts evenly', async () => {
    const starts: number[] = [];
    const t0 = Date.now();
    await run({
      items: items(Array.from({ length: 6 }, (_, i) => HEX(i))),
      concurrency: 6,
      ratePerSecond: 50,
      operation: async () => {
        starts.push(Date.now() - t0);
      },
    });
    expect(starts.length).toBe(6);
    // 6 starts at 50/s take at least 5 intervals of 20 ms
    expect(Math.max(...starts)).toBeGreaterThanOrEqual(95);
    // Never ahead of the schedule: the i-th start comes no earlier than i intervals after the run
    // began (a lower bound, so a busy machine, which only delays, cannot fail it).
    const sorted = [...starts].sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]!).toBeGreaterThanOrEqual(i * 20 - 5);
  });
});

describe('rate', () => {
  it('parseRate takes N/s, N, N/m and refuses nonsense', () => {
    for (const [rate, perSecond] of [
      ['20/s', 20],
      ['20', 20],
      ['600/m', 10],
      ['0.5/s', 0.5],
    ] as const) {
      expect(parseRate(rate), rate).toBe(perSecond);
    }
    for (const bad of ['0/s', '-3/s', 'fast', '10/y', '']) expect(() => parseRate(bad)).toThrow(UsageError);
  });

  it('createRateGate reserves slots 1/rate apart, also for concurrent callers', async () => {
    let now = 1000;
    const sleeps: number[] = [];
    const gate = createRateGate(4, { now: () => now, sleep: async (ms) => void sleeps.push(ms) });
    await Promise.all([gate(), gate(), gate()]);
    expect(sleeps).toEqual([250, 500]);
    now = 5000; // idle for a while: no catch-up burst beyond the next slot
    sleeps.length = 0;
    await gate();
    await gate();
    expect(sleeps).toEqual([250]);
  });
});

describe('progress', () => {
  const counts = { total: 500, ok: 498, resolved: 0, failed: 1, unknown: 1, skipped: 0, dryRun: 0 };

  it('shows a bar with done/total, ok/failed/unknown, rate and ETA when the total is known; the count while streaming', () => {
    expect(progressText(counts, 5000, 2000)).toBe(
      '[#####...............] 500/2000 · 498 ok, 1 failed, 1 unknown · 100/s · ETA 15s',
    );
    expect(progressText({ ...counts, failed: 0, unknown: 0 }, 5000, null)).toBe(
      '500 done · 498 ok, 0 failed, 0 unknown · 100/s',
    );
  });

  it('clear() takes the bar off its line so a printed line starts clean', () => {
    const writes: string[] = [];
    const stream = { write: (s: string) => writes.push(s) } as unknown as NodeJS.WritableStream;
    const p = createProgress({ stream, isTTY: true, total: 10, now: () => 1000, intervalMs: 0 });
    p.clear();
    expect(writes).toEqual([]); // nothing shown: nothing to clear
    p.update({ ...counts, total: 1, ok: 1, failed: 0, unknown: 0 });
    p.clear();
    expect(writes.at(-1)).toBe('\r\x1b[K');
  });

  it('writes to a terminal only, and clears its line when done', () => {
    const writes: string[] = [];
    const stream = { write: (s: string) => writes.push(s) } as unknown as NodeJS.WritableStream;
    createProgress({ stream, isTTY: false }).update(counts);
    expect(writes).toEqual([]);
    let t = 0;
    const p = createProgress({ stream, isTTY: true, total: 1000, now: () => t, intervalMs: 100 });
    t = 1000;
    p.update(counts);
    t = 1050;
    p.update(counts); // throttled
    p.done();
    expect(writes).toEqual([
      '\r\x1b[K[##########..........] 500/1000 · 498 ok, 1 failed, 1 unknown · 500/s · ETA 1s',
      '\r\x1b[K',
    ]);
  });
});
