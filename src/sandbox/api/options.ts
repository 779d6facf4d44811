/**
 * startSandbox()'s options, checked before anything starts: a wrong one is a TypeError or RangeError naming it,
 * as a library's caller expects (a misspelt option too: it would otherwise be ignored and the test run against
 * something else than asked).
 */
import { randomInt } from 'node:crypto';
import { parseAdvance, parseSetTime } from '../clock-input.js';
import { MAX_FAULT_SEED, parseDuration, parseFaultSpec, type FaultSpec } from '../faults/spec.js';
import type { SandboxData, SandboxOptions } from './public.js';

/** The longest latency, as `sandbox start --latency` allows it. */
const MAX_LATENCY_MS = 10_000;

const KNOWN = new Set([
  'data',
  'seed',
  'port',
  'db',
  'latency',
  'faults',
  'faultSeed',
  'rateLimit',
  'tokenTtl',
  'clock',
  'process',
]);

export interface CheckedOptions {
  data: string | SandboxData | undefined;
  seed: 'demo' | 'none';
  port: number;
  db: string;
  latencyMs: number;
  faults: { spec: FaultSpec; seed: number } | undefined;
  rateLimitPerSecond: number | undefined;
  tokenTtlSeconds: number | undefined;
  /** ms since the epoch. */
  clock: number | undefined;
  /** Run it as a child process (`udcli sandbox start`) rather than in this one. */
  process: boolean;
}

function integer(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new RangeError(`startSandbox: ${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
  return value;
}

export function checkData(value: unknown, name = 'data'): string | SandboxData {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as SandboxData;
  throw new TypeError(`startSandbox: ${name} must be a data file's path or its contents as an object`);
}

function latencyOf(value: unknown): number {
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? parseDuration(value) : null;
  if (ms === null || !Number.isFinite(ms) || ms < 0 || ms > MAX_LATENCY_MS)
    throw new RangeError(`startSandbox: latency must be ms or a duration like '40ms', from 0 to 10 s`);
  return ms;
}

/** A time as clock.set() and the clock option take it: a Date, ms since the epoch, or an ISO 8601 date-time. */
export function timeOf(value: unknown, name: string): number {
  if (value instanceof Date || typeof value === 'number') {
    const ms = value instanceof Date ? value.getTime() : value;
    if (Number.isFinite(ms)) return ms;
  } else if (typeof value === 'string') return parseSetTime(value);
  throw new TypeError(`${name} must be a Date, ms since the epoch or an ISO 8601 date-time`);
}

/** How far clock.advance() moves: ms, or a duration such as '901s' or '15m'. */
export function advanceOf(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  if (typeof value === 'string') return parseAdvance(value) * 1000;
  throw new TypeError(`clock.advance() takes ms (0 or more) or a duration such as '901s' or '15m'`);
}

export function checkOptions(options: SandboxOptions): CheckedOptions {
  if (typeof options !== 'object' || options === null) throw new TypeError('startSandbox: options must be an object');
  for (const key of Object.keys(options))
    if (!KNOWN.has(key))
      throw new TypeError(`startSandbox: unknown option ${JSON.stringify(key)} (known: ${[...KNOWN].join(', ')})`);
  const o = options as Record<string, unknown>;
  if (o.seed !== undefined && o.seed !== 'demo' && o.seed !== 'none')
    throw new TypeError(`startSandbox: seed must be 'demo' or 'none'`);
  if (o.db !== undefined && (typeof o.db !== 'string' || o.db === ''))
    throw new TypeError(`startSandbox: db must be ':memory:' or a file's path`);
  if (o.faultSeed !== undefined && o.faults === undefined) throw new TypeError('startSandbox: faultSeed needs faults');
  if (o.process !== undefined && typeof o.process !== 'boolean')
    throw new TypeError('startSandbox: process must be true or false');
  if (o.faults !== undefined && typeof o.faults !== 'string')
    throw new TypeError(`startSandbox: faults must be a string such as 'reset=0.1,slow=0.2:1500ms'`);
  return {
    data: o.data === undefined ? undefined : checkData(o.data),
    seed: (o.seed as 'demo' | 'none' | undefined) ?? 'demo',
    port: o.port === undefined ? 0 : integer('port', o.port, 0, 65_535),
    db: (o.db as string | undefined) ?? ':memory:',
    latencyMs: o.latency === undefined ? 0 : latencyOf(o.latency),
    faults:
      o.faults === undefined
        ? undefined
        : {
            spec: parseFaultSpec(o.faults as string),
            seed:
              o.faultSeed === undefined
                ? randomInt(0, MAX_FAULT_SEED)
                : integer('faultSeed', o.faultSeed, 0, MAX_FAULT_SEED),
          },
    rateLimitPerSecond: o.rateLimit === undefined ? undefined : integer('rateLimit', o.rateLimit, 1, 1_000_000),
    tokenTtlSeconds: o.tokenTtl === undefined ? undefined : integer('tokenTtl', o.tokenTtl, 1, 10 * 365 * 86_400),
    clock: o.clock === undefined ? undefined : timeOf(o.clock, 'startSandbox: clock'),
    process: o.process === true,
  };
}
