/**
 * The retry policy of docs/CLI.md "Retries", as pure functions so it can be tested without timers.
 *
 * - 429: retried for every request (a rate-limited request changed nothing), honouring Retry-After.
 * - 401 `signature already used` (hmac-sha256-v1): retried for every request, at once: the server
 *   refused a signature it had seen, which changed nothing, and the next attempt signs anew with a
 *   new nonce (signer.ts).
 * - 5xx: retried only when the request is safe to repeat (GET, progress, reset, delete).
 * - Network failure before the request was sent: retried for every request.
 * - Network failure after it may have been sent: retried only when safe to repeat.
 * - A reply that could not be read (truncated, HTML under 200): retried only when safe to repeat,
 *   like a connection lost mid-reply (a read before a change must not give up at the first one).
 * Delays: exponential backoff with full jitter, or the server's Retry-After when it gave one.
 */
import { ApiError, MalformedReplyError, NetworkError } from '../errors.js';

export const BACKOFF_BASE_MS = 200;
export const BACKOFF_CAP_MS = 5_000;
/** A Retry-After longer than this is not waited for: the error goes to the user instead. */
export const MAX_RETRY_AFTER_SECONDS = 60;

const SIGNATURE_USED = /^signature already used\b/;

export interface RetryInput {
  error: unknown;
  /** 0 for the first attempt. */
  attempt: number;
  retries: number;
  idempotent: boolean;
  /** In [0, 1). */
  random: () => number;
}

export interface RetryDecision {
  delayMs: number;
  /** Short reason for the --verbose trace, e.g. "HTTP 503". */
  reason: string;
}

/** The delay before the next attempt, or null when the error must go to the caller. */
export function retryDecision({ error, attempt, retries, idempotent, random }: RetryInput): RetryDecision | null {
  if (attempt >= retries) return null;
  const backoff = (): number => backoffDelay(attempt, random);

  if (error instanceof ApiError) {
    // The envelope code decides (it equals the HTTP status when there was no envelope).
    const status = error.httpStatus === 429 ? 429 : error.code;
    const reason = `HTTP ${status}`;
    if (status === 401 && SIGNATURE_USED.test(error.message))
      return { delayMs: 0, reason: `${reason}, signature already used` };
    if (status === 429 || (status >= 500 && idempotent)) {
      if (error.retryAfter === undefined) return { delayMs: backoff(), reason };
      if (error.retryAfter > MAX_RETRY_AFTER_SECONDS) return null;
      return { delayMs: error.retryAfter * 1000, reason: `${reason}, Retry-After ${error.retryAfter} s` };
    }
    return null;
  }

  if (error instanceof NetworkError && (!error.sent || idempotent)) {
    return { delayMs: backoff(), reason: error.failure };
  }
  if (error instanceof MalformedReplyError && idempotent) return { delayMs: backoff(), reason: 'unreadable reply' };
  return null;
}

/** Full jitter: uniform in [0, min(cap, base * 2^attempt)). */
export function backoffDelay(attempt: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
  return Math.floor(random() * ceiling);
}
