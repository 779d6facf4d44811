/**
 * Decides which API requests get a fault: one draw of a seeded PRNG per request, in arrival
 * order, so the same seed and the same request sequence fault the same requests. Counts what it
 * applied, for `GET /_sandbox/faults`.
 */
import { mulberry32 } from '../seed/prng.js';
import { FAULT_KINDS, type FaultKind, type FaultRule, type FaultSpec } from './spec.js';

export interface FaultSummary {
  spec: string | null;
  seed: number | null;
  /** API requests seen (each had its draw). */
  requests: number;
  /** Faults applied, per kind of the spec. */
  counts: Partial<Record<FaultKind, number>>;
}

export interface FaultInjector {
  /** The fault drawn for the next API request, or null. Call once per request, before it runs. */
  draw(): FaultRule | null;
  /** Counts a fault that was applied (a drawn `challenge-again` applies to agi-signed requests only). */
  applied(kind: FaultKind): void;
  summary(): FaultSummary;
}

/** The fault draws' generator: the seed is used as the state itself, so a printed seed replays. */
export const seededRandom = mulberry32;

export function createFaultInjector(spec: FaultSpec | null, seed: number | null): FaultInjector {
  const random = spec && seed !== null ? seededRandom(seed) : null;
  const counts = new Map<FaultKind, number>(spec ? spec.rules.map((r) => [r.kind, 0]) : []);
  let requests = 0;
  return {
    draw() {
      requests++;
      if (!spec || !random) return null;
      // One number per request whatever the spec, so a request's fault depends only on its place in the sequence.
      const x = random();
      let upper = 0;
      for (const rule of spec.rules) {
        upper += rule.probability;
        if (x < upper) return rule;
      }
      return null;
    },
    applied(kind) {
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    },
    summary() {
      const ordered = FAULT_KINDS.filter((k) => counts.has(k)).map((k) => [k, counts.get(k)!] as const);
      return { spec: spec?.text ?? null, seed: spec ? seed : null, requests, counts: Object.fromEntries(ordered) };
    },
  };
}
