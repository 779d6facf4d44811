import { describe, expect, it } from 'vitest';
import { backoffDelay, BACKOFF_CAP_MS, retryDecision } from '../../src/client/retry.js';
import { ApiError, MalformedReplyError, NetworkError, UsageError } from '../../src/errors.js';

const half = (): number => 0.5;
const almostOne = (): number => 0.999999;

function decide(error: unknown, idempotent: boolean, attempt = 0, retries = 2) {
  return retryDecision({ error, attempt, retries, idempotent, random: half });
}

describe('retry policy', () => {
  const http503 = new ApiError('internal error', 503, 503);
  const http429 = new ApiError('rate limited', 429, 429, { retryAfter: 2 });
  const refused = new NetworkError('cannot reach', 'unreachable', false);
  const lost = new NetworkError('connection lost', 'reset', true);
  const timedOut = new NetworkError('no reply', 'timeout', true);

  it('retries a safe request on 5xx, 429 and every network failure', () => {
    expect(decide(http503, true)).not.toBeNull();
    expect(decide(http429, true)).not.toBeNull();
    expect(decide(refused, true)).not.toBeNull();
    expect(decide(lost, true)).not.toBeNull();
    expect(decide(timedOut, true)).not.toBeNull();
  });

  it('retries a mutation only when nothing was processed: 429 or not sent', () => {
    expect(decide(http503, false)).toBeNull();
    expect(decide(lost, false)).toBeNull();
    expect(decide(timedOut, false)).toBeNull();
    expect(decide(refused, false)).not.toBeNull();
    expect(decide(http429, false)).not.toBeNull();
  });

  it('a signature the server has seen (401 signature already used) is signed again at once, for any request', () => {
    const used = new ApiError(
      'signature already used (hmac-sha256-v1: one request per signature; sign again, with a new timestamp)',
      401,
      401,
    );
    expect(decide(used, false)).toEqual({ delayMs: 0, reason: 'HTTP 401, signature already used' });
    expect(decide(used, false, 2, 2)).toBeNull();
    expect(decide(new ApiError('signature required', 401, 401), false)).toBeNull();
    expect(decide(new ApiError('bad signature', 403, 403), true)).toBeNull();
  });

  it('an error code inside an HTTP 200 counts: 500 in the body is retried for GET', () => {
    expect(decide(new ApiError('internal error', 500, 200), true)).not.toBeNull();
  });

  it('retries an unreadable reply (truncated, HTML under 200) only when safe to repeat', () => {
    expect(decide(new MalformedReplyError('x'), true)).not.toBeNull();
    expect(decide(new MalformedReplyError('x'), false)).toBeNull();
  });

  it('never retries client errors or usage errors', () => {
    for (const e of [
      new ApiError('not found', 404, 404),
      new ApiError('bad signature', 403, 403),
      new ApiError('insufficient quantity', 409, 409),
      new UsageError('x'),
      new Error('bug'),
    ]) {
      expect(decide(e, true)).toBeNull();
    }
  });

  it('stops after the configured number of retries', () => {
    expect(decide(http503, true, 1, 2)).not.toBeNull();
    expect(decide(http503, true, 2, 2)).toBeNull();
    expect(decide(http503, true, 0, 0)).toBeNull();
  });

  it('waits exactly Retry-After when the server gives one, and gives up on an unreasonable one', () => {
    expect(decide(http429, false)?.delayMs).toBe(2000);
    expect(decide(new ApiError('unavailable', 503, 503, { retryAfter: 1 }), true)?.delayMs).toBe(1000);
    expect(decide(new ApiError('rate limited', 429, 429, { retryAfter: 3600 }), true)).toBeNull();
  });

  it('backs off exponentially with full jitter, capped', () => {
    expect(backoffDelay(0, almostOne)).toBe(199);
    expect(backoffDelay(1, almostOne)).toBe(399);
    expect(backoffDelay(2, almostOne)).toBe(799);
    expect(backoffDelay(10, almostOne)).toBe(BACKOFF_CAP_MS - 1);
    expect(backoffDelay(3, () => 0)).toBe(0);
    expect(decide(http503, true, 1)?.delayMs).toBe(200);
  });
});
