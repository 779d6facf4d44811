/**
 * The `--faults` spec: a comma list of `kind=probability` (`slow=0.2:1500ms` also takes a delay),
 * e.g. `reset=0.1,html-502=0.05,slow=0.2:2s`. Pure (no server code), so the CLI checks it before
 * anything starts, and the sandbox reads the same text. A bad spec throws a FaultSpecError whose
 * message names the bad part.
 */
import { jsonText } from '../../printable.js';

export const FAULT_KINDS = [
  'envelope-error',
  'html-502',
  'truncated',
  'empty',
  'slow',
  'reset',
  'rate-limit',
  'challenge-again',
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRule {
  kind: FaultKind;
  /** In [0, 1]. */
  probability: number;
  /** `slow` only: how late the reply comes. */
  delayMs?: number;
}

export interface FaultSpec {
  /** The spec as normalized text (what /_sandbox/faults shows and a replay passes on). */
  text: string;
  rules: readonly FaultRule[];
}

export const DEFAULT_SLOW_DELAY_MS = 1500;
/** A later reply than this is a hang, not a slow reply (the CLI's own timeout is 15 s). */
export const MAX_SLOW_DELAY_MS = 120_000;
export const MAX_FAULT_SEED = 0xffff_ffff;

export class FaultSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FaultSpecError';
  }
}

const isKind = (name: string): name is FaultKind => (FAULT_KINDS as readonly string[]).includes(name);

function quoted(text: string): string {
  return jsonText(text.length > 40 ? `${text.slice(0, 37)}...` : text);
}

/** `1500ms`, `1.5s`, `2s`, `0`; a plain number is milliseconds. Whole milliseconds; null when it is none of these. */
export function parseDuration(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(text.trim());
  const ms = m ? Number(m[1]) * (m[2] === 's' ? 1000 : 1) : NaN;
  return Number.isFinite(ms) ? Math.round(ms) : null;
}

/** `slow`'s delay: a duration (parseDuration) of at most MAX_SLOW_DELAY_MS. */
export function parseDelay(text: string, where: string): number {
  const ms = parseDuration(text);
  if (ms === null || ms > MAX_SLOW_DELAY_MS) {
    throw new FaultSpecError(
      `bad delay ${quoted(text)} in ${quoted(where)}: expected a duration like 1500ms or 2s (at most ${MAX_SLOW_DELAY_MS / 1000}s)`,
    );
  }
  return ms;
}

function parseProbability(text: string, where: string): number {
  const value = /^(?:0|1|0?\.\d+|[01]\.\d*)$/.test(text.trim()) ? Number(text) : NaN;
  if (!(value >= 0 && value <= 1)) {
    throw new FaultSpecError(`bad probability ${quoted(text)} in ${quoted(where)}: expected a number from 0 to 1`);
  }
  return value;
}

function parseRule(part: string): FaultRule {
  const eq = part.indexOf('=');
  if (eq < 0) throw new FaultSpecError(`${quoted(part)} is not kind=probability`);
  const name = part.slice(0, eq).trim();
  const value = part.slice(eq + 1).trim();
  if (!isKind(name))
    throw new FaultSpecError(`unknown kind ${quoted(name)} in ${quoted(part)} (kinds: ${FAULT_KINDS.join(', ')})`);
  const colon = value.indexOf(':');
  if (colon >= 0 && name !== 'slow') throw new FaultSpecError(`only slow takes a delay: ${quoted(part)}`);
  const probability = parseProbability(colon >= 0 ? value.slice(0, colon) : value, part);
  if (name !== 'slow') return { kind: name, probability };
  return {
    kind: name,
    probability,
    delayMs: colon >= 0 ? parseDelay(value.slice(colon + 1), part) : DEFAULT_SLOW_DELAY_MS,
  };
}

export function formatFaultSpec(rules: readonly FaultRule[]): string {
  return rules
    .map((r) => `${r.kind}=${r.probability}${r.kind === 'slow' ? `:${r.delayMs ?? DEFAULT_SLOW_DELAY_MS}ms` : ''}`)
    .join(',');
}

export function parseFaultSpec(text: string): FaultSpec {
  if (text.trim() === '') throw new FaultSpecError('empty spec: expected kind=probability, e.g. reset=0.1');
  const rules: FaultRule[] = [];
  for (const raw of text.split(',')) {
    const part = raw.trim();
    if (part === '') throw new FaultSpecError(`empty entry in ${quoted(text)} (a stray comma?)`);
    const rule = parseRule(part);
    if (rules.some((r) => r.kind === rule.kind)) throw new FaultSpecError(`${rule.kind} is given twice`);
    rules.push(rule);
  }
  // Each request gets at most one fault: the chances are shares of one draw, so they add up to 1 at most.
  const sum = rules.reduce((total, r) => total + r.probability, 0);
  if (sum > 1 + 1e-9) {
    throw new FaultSpecError(
      `the probabilities add up to ${Number(sum.toFixed(6))}, more than 1 (a request gets at most one fault)`,
    );
  }
  return { text: formatFaultSpec(rules), rules };
}

/** `--fault-seed`: an integer 0..2^32-1. */
export function parseFaultSeed(text: string): number {
  const value = /^\d{1,10}$/.test(text.trim()) ? Number(text) : NaN;
  if (!(value >= 0 && value <= MAX_FAULT_SEED))
    throw new FaultSpecError(`expected an integer from 0 to ${MAX_FAULT_SEED}, got ${quoted(text)}`);
  return value;
}
