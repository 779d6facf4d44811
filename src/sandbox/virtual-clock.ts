/**
 * The sandbox's virtual clock: the real clock plus an offset that `/_sandbox/clock` advances or
 * sets, so token, challenge and session expiry and the hmac timestamp window can be tested
 * without waiting. Everything in the sandbox that reads the time reads this clock.
 */
import { systemClock, type Clock } from './time.js';

export interface VirtualClock {
  now: Clock;
  offsetMs(): number;
  /** Moves the clock forward; returns the new time (ms). */
  advance(ms: number): number;
  /** Puts the clock at `ms` (forwards or backwards); returns the new time. */
  set(ms: number): number;
  /** Back to the real clock (offset 0); returns the new time. */
  reset(): number;
}

export function createVirtualClock(base: Clock = systemClock): VirtualClock {
  let offset = 0;
  const now = () => base() + offset;
  return {
    now,
    offsetMs: () => offset,
    advance(ms) {
      offset += ms;
      return now();
    },
    set(ms) {
      offset = ms - base();
      return ms;
    },
    reset() {
      offset = 0;
      return now();
    },
  };
}
