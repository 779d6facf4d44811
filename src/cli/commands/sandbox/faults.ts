/** --faults at start: the seed (the one given, else a random one) and the line that lets a run be replayed. */
import { randomInt } from 'node:crypto';
import { MAX_FAULT_SEED, type FaultSpec } from '../../../sandbox/faults/spec.js';
import type { FaultOptions } from './options.js';

export interface SeededFaults {
  spec: FaultSpec;
  seed: number;
}

export function seedFaults(options: FaultOptions | undefined): SeededFaults | undefined {
  if (options === undefined) return undefined;
  return { spec: options.spec, seed: options.seed ?? randomInt(0, MAX_FAULT_SEED) };
}

/** What a started sandbox says on stderr about its faults. */
export function faultsLine(faults: SeededFaults): string {
  return `injecting faults into /services/rest/v1: ${faults.spec.text} (seed ${faults.seed}; replay with --faults ${faults.spec.text} --fault-seed ${faults.seed})`;
}
