/**
 * hmac-sha256-v1 signatures already used (SERVICE.md: hmac-sha256-v1, 5; issues 31 and 40): a good
 * signature is good for one request, on every process of one database. They are kept in the
 * database (repositories/used-signatures.ts) and used up in the transaction that makes the
 * change: two processes cannot both accept one, and a change refused by its handler (409) has
 * still used its signature, as agi's challenge is used by its first signed request. There is
 * no cap to fill (the 100,000 of an in-memory set refused legitimate traffic past 333 signed
 * changes a second): the rows are on disk, and memory stays flat at any rate.
 *
 * How long a row is kept, and why moving the clock back revives nothing. A timestamp is good
 * while it is within 300 s (W) of the clock of the process that checks it, and that clock is
 * virtual: `/_sandbox/clock` moves it, each process its own. So a row is kept by the real
 * clock: until 2W + 1 s after it was used. By then the timestamp is outside the window of
 * every process whose clock has only run on since (it was at most W ahead of the clock that
 * accepted it), however the clocks were set before. What only a move back could reach again is
 * covered by the swept rows' spans (`forgotten_signatures`: per W of timestamps, the first and
 * the last swept): a signature whose timestamp is in one is refused as one that may have been
 * used. A request signed now is never in one unless the clock was moved back onto seconds whose
 * signed requests were swept; those seconds then take no signed change until the clock is past
 * them again (the reply says so).
 *
 * The sweep costs little: at most once a second per process, it moves the rows whose time has
 * come, a second's worth, through the `forget_at` index.
 */
import { TIMESTAMP_WINDOW_SECONDS } from '../../domain/signing.js';
import type { UsedSignaturesRepository } from '../repositories/used-signatures.js';

/** Real seconds a used signature is kept: past it, no process whose clock ran on can accept it. */
export const KEEP_SECONDS = 2 * TIMESTAMP_WINDOW_SECONDS + 1;
/** Real ms between two sweeps of one process. */
export const SWEEP_EVERY_MS = 1000;

export type SpendResult = { ok: true } | { ok: false; reason: 'used' | 'forgotten' };

export interface UsedSignatures {
  /**
   * Uses a good signature with its timestamp up; refused when it was used already (here or by
   * another process), or when its timestamp is in a span already swept. Runs in the caller's
   * write transaction.
   */
  spend(signatureHex: string, timestampSeconds: number): SpendResult;
}

export function createUsedSignatures(repo: UsedSignaturesRepository, realNowMs: () => number): UsedSignatures {
  let nextSweepMs = -Infinity;
  return {
    spend(signatureHex, timestampSeconds) {
      const nowMs = realNowMs();
      const nowSeconds = Math.floor(nowMs / 1000);
      if (nowMs >= nextSweepMs) {
        repo.sweep(nowSeconds, TIMESTAMP_WINDOW_SECONDS);
        nextSweepMs = nowMs + SWEEP_EVERY_MS;
      }
      if (repo.forgotten(Math.floor(timestampSeconds / TIMESTAMP_WINDOW_SECONDS), timestampSeconds))
        return { ok: false, reason: 'forgotten' };
      const added = repo.add({
        signature: Buffer.from(signatureHex.toLowerCase(), 'hex'),
        timestamp: timestampSeconds,
        forgetAt: nowSeconds + KEEP_SECONDS,
      });
      return added ? { ok: true } : { ok: false, reason: 'used' };
    },
  };
}
