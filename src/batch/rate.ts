/** `--rate N/s`: evenly spaced starts, so a batch never bursts past the server's limit. */
import { setTimeout as delay } from 'node:timers/promises';
import { UsageError } from '../errors.js';

const UNITS: Record<string, number> = { s: 1, sec: 1, m: 60, min: 60, h: 3600 };

/** `20/s`, `20` (per second), `600/m`, `0.5/s`, `3000/h` → starts per second. */
export function parseRate(value: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?:\/\s*([a-z]+))?\s*$/i.exec(value);
  const per = m ? UNITS[(m[2] ?? 's').toLowerCase()] : undefined;
  const n = m ? Number(m[1]) : NaN;
  if (!m || per === undefined || !(n > 0)) {
    throw new UsageError(`invalid --rate: ${value}`, {
      hint: 'Give a number per second like 20/s (or per minute: 600/m).',
    });
  }
  return n / per;
}

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = { now: () => Date.now(), sleep: (ms) => delay(ms) };

/**
 * Returns `wait()`: each call resolves at the next free slot, slots 1/perSecond apart.
 * Slots are reserved when `wait` is called, so concurrent callers are spaced too.
 */
export function createRateGate(perSecond: number, clock: Clock = realClock): () => Promise<void> {
  const interval = 1000 / perSecond;
  let next = -Infinity;
  return async () => {
    const t = clock.now();
    const slot = Math.max(t, next);
    next = slot + interval;
    if (slot > t) await clock.sleep(slot - t);
  };
}
