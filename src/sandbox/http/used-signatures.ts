/**
 * hmac-sha256-v1 signatures already used (issue 31, 5): the scheme has no nonce, so without this a
 * captured signed `give` could be sent again and again within its timestamp's 300 s window. A
 * good signature is remembered until its window closes (timestamp + 300 s by the sandbox clock)
 * and refused from its second use on. Memory is bounded: at most `limit` signatures are kept;
 * when all are still in their windows a new one is refused (503, Retry-After until the first
 * window closes) rather than an old one forgotten, which would make it replayable again. Only a
 * holder of a game's signing secret can fill the set, at 333 signed changes a second for the
 * default limit, sustained over five minutes.
 */
import { TIMESTAMP_WINDOW_SECONDS } from '../../domain/signing.js';

/** Signatures kept at most (about 150 bytes each). */
export const MAX_USED_SIGNATURES = 100_000;

export type SpendResult = { ok: true } | { ok: false; reason: 'used' } | { ok: false; reason: 'full'; retryAfterSeconds: number };

export interface UsedSignatures {
  /** Marks a good signature with its timestamp as used; refused when it was already, or when the set is full. */
  spend(signature: string, timestampSeconds: number, nowSeconds: number): SpendResult;
  readonly size: number;
}

export function createUsedSignatures(limit = MAX_USED_SIGNATURES): UsedSignatures {
  /** signature (lower case) → the second its window closes. */
  const used = new Map<string, number>();
  let earliest = Infinity;

  function sweep(nowSeconds: number): void {
    if (nowSeconds < earliest) return;
    earliest = Infinity;
    for (const [signature, closes] of used) {
      if (closes < nowSeconds) used.delete(signature);
      else earliest = Math.min(earliest, closes);
    }
  }

  return {
    spend(signature, timestampSeconds, nowSeconds) {
      sweep(nowSeconds);
      const key = signature.toLowerCase();
      if (used.has(key)) return { ok: false, reason: 'used' };
      if (used.size >= limit) return { ok: false, reason: 'full', retryAfterSeconds: Math.max(1, earliest - nowSeconds + 1) };
      const closes = timestampSeconds + TIMESTAMP_WINDOW_SECONDS;
      used.set(key, closes);
      earliest = Math.min(earliest, closes);
      return { ok: true };
    },
    get size() {
      return used.size;
    },
  };
}
