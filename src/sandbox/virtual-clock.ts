/**
 * The sandbox's virtual clock: the real clock plus an offset that `/_sandbox/clock` advances or
 * sets, so token, challenge and session expiry and the hmac timestamp window can be tested
 * without waiting. Everything in the sandbox that reads the time reads this clock.
 *
 * It keeps to years 1970-9999 (time.ts): a move that would leave them is refused, naming the
 * bound, and a clock set near the end stops at 9999-12-31T23:59:59.999Z rather than run past it
 * while the real clock goes on.
 */
import { MAX_TIME_MS, MIN_TIME_MS, safeIsoTime, systemClock, TIME_RANGE_TEXT, type Clock } from './time.js';

/** A move of the clock that would take it out of 1970-9999. */
export class ClockRangeError extends RangeError {
  constructor(target: number) {
    const bound =
      target > MAX_TIME_MS
        ? 'after 9999-12-31T23:59:59Z, its last moment'
        : 'before 1970-01-01T00:00:00Z, its first moment';
    super(`the clock cannot go ${bound} (it runs from ${TIME_RANGE_TEXT}); asked for ${safeIsoTime(target)}`);
    this.name = 'ClockRangeError';
  }
}

export interface VirtualClock {
  now: Clock;
  offsetMs(): number;
  /** Moves the clock forward; returns the new time (ms). ClockRangeError past 9999. */
  advance(ms: number): number;
  /** Puts the clock at `ms` (forwards or backwards); returns the new time. ClockRangeError outside 1970-9999. */
  set(ms: number): number;
  /** Back to the real clock (offset 0); returns the new time. */
  reset(): number;
}

function checked(target: number): number {
  if (!(Number.isFinite(target) && target >= MIN_TIME_MS && target <= MAX_TIME_MS)) throw new ClockRangeError(target);
  return target;
}

export function createVirtualClock(base: Clock = systemClock): VirtualClock {
  let offset = 0;
  const now = () => Math.min(MAX_TIME_MS, Math.max(MIN_TIME_MS, base() + offset));
  return {
    now,
    offsetMs: () => offset,
    advance(ms) {
      offset = checked(now() + ms) - base();
      return now();
    },
    set(ms) {
      offset = checked(ms) - base();
      return now();
    },
    reset() {
      offset = 0;
      return now();
    },
  };
}
