/**
 * What a sandbox database was started from — the demo data, a studio's data file (its path and
 * the SHA-256 of its bytes), or nothing — recorded in its meta table, so that `udcli sandbox
 * reset` returns to it (issue 10) and `start --data`, `info`, `status` and the dashboard can say
 * what the sandbox holds (issue 23).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { SandboxDatabase } from './database.js';
import { readMeta, writeMeta } from './repositories/meta.js';
import type { DataFile } from './data/model.js';
import type { PresentedOrigin } from '../domain/sandbox-admin-replies.js';

/**
 * `added`: what `sandbox load` and `sandbox seed` put on top since (e.g. "seed 7: 1000 users"),
 * newest last; `loaded`: the games those `sandbox load`s brought, in the order first loaded (the
 * built-in profile uses the one such game, issue 33).
 */
export type SandboxOrigin = (
  | { kind: 'demo' }
  | { kind: 'none' }
  /** `sha256` is absent in databases recorded before issue 23; `games` lists the file's games in its order. */
  | { kind: 'data'; file: string; sha256?: string; games?: string[] }
) & { added?: string[]; loaded?: string[] };

/** Additions remembered: the last few say enough. */
const MAX_ADDED = 10;
/** Games loaded on top remembered: more than a person picks among. */
const MAX_LOADED = 100;

const strings = (value: unknown): boolean => Array.isArray(value) && value.every((a) => typeof a === 'string');

const KEY = 'origin';
const HEX64 = /^[0-9a-f]{64}$/;

function valid(value: SandboxOrigin): boolean {
  if (value.added !== undefined && !strings(value.added)) return false;
  if (value.loaded !== undefined && !strings(value.loaded)) return false;
  if (value.kind === 'demo' || value.kind === 'none') return true;
  if (value.kind !== 'data' || typeof value.file !== 'string') return false;
  if (value.sha256 !== undefined && !(typeof value.sha256 === 'string' && HEX64.test(value.sha256))) return false;
  return value.games === undefined || (Array.isArray(value.games) && value.games.every((g) => typeof g === 'string'));
}

export function recordedOrigin(db: SandboxDatabase): SandboxOrigin | undefined {
  const text = readMeta(db.sqlite, KEY);
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as SandboxOrigin;
    if (valid(value)) return value;
  } catch {
    // A hand-edited value: as if nothing was recorded.
  }
  return undefined;
}

export function recordOrigin(db: SandboxDatabase, origin: SandboxOrigin): void {
  writeMeta(db.sqlite, KEY, JSON.stringify(origin));
}

export function sha256Of(bytes: string | Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The SHA-256 of a file's bytes (a file that cannot be read was refused by readDataFile already). */
export function fileSha256(path: string): string {
  return sha256Of(readFileSync(path));
}

/** A data origin for a file that was read and checked: its path, hash and games in file order. */
export function dataOrigin(file: string, sha256: string, data: DataFile): SandboxOrigin {
  return { kind: 'data', file, sha256, games: (data.games ?? []).map((g) => g.id) };
}

/** "the demo data", "nothing (--seed none)", "qa.yaml (sha256 0123abcd…)", then what was added on top. */
export function originText(origin: SandboxOrigin | undefined): string {
  return `${baseText(origin)}${origin?.added?.length ? ` + ${origin.added.join(' + ')}` : ''}`;
}

function baseText(origin: SandboxOrigin | undefined): string {
  if (origin === undefined) return 'data not recorded by udcli';
  if (origin.kind === 'demo') return 'the demo data';
  if (origin.kind === 'none') return 'nothing loaded (--seed none)';
  return `${origin.file}${origin.sha256 ? ` (sha256 ${origin.sha256.slice(0, 12)}…)` : ''}`;
}

/**
 * Records that `what` was put on top of what the database holds (`sandbox load`, `sandbox
 * seed`), and the games a `sandbox load` brought.
 */
export function recordAddition(db: SandboxDatabase, what: string, games: readonly string[] = []): void {
  const origin = recordedOrigin(db);
  if (origin === undefined) return; // nothing recorded to add to: info says so already
  const loaded = [...new Set([...(origin.loaded ?? []), ...games])].slice(0, MAX_LOADED);
  recordOrigin(db, {
    ...origin,
    added: [...(origin.added ?? []), what].slice(-MAX_ADDED),
    ...(loaded.length > 0 ? { loaded } : {}),
  });
}

/** The origin as JSON for `info`, `status`, the dashboard and `/_sandbox/reset`. */
export function originJson(origin: SandboxOrigin | undefined): PresentedOrigin {
  return {
    kind: origin?.kind ?? 'unknown',
    file: origin?.kind === 'data' ? origin.file : null,
    sha256: origin?.kind === 'data' ? (origin.sha256 ?? null) : null,
    text: originText(origin),
  };
}

export type DataStartDecision = { action: 'load' } | { action: 'keep' } | { action: 'refuse'; holds: string };

/**
 * `start --data FILE` on this database: load into an empty one, keep one loaded from the same
 * bytes (its state is the point of a file database), refuse one that holds anything else.
 */
export function dataStartDecision(db: SandboxDatabase, file: string, sha256: string): DataStartDecision {
  const origin = recordedOrigin(db);
  if (origin?.kind === 'data' && (origin.sha256 === sha256 || (origin.sha256 === undefined && origin.file === file)))
    return { action: 'keep' };
  if (db.isEmpty()) return { action: 'load' };
  if (origin?.kind === 'data' && origin.file === file)
    return { action: 'refuse', holds: `an earlier version of ${originText(origin)}` };
  if (origin === undefined && db.isEmpty()) return { action: 'load' };
  return { action: 'refuse', holds: originText(origin) };
}

/**
 * Seeds the database from `origin` and records it. A data file must have been read (and checked)
 * by the caller, before anything was changed; it is loaded in one transaction.
 */
export async function seedFrom(db: SandboxDatabase, origin: SandboxOrigin, data?: DataFile): Promise<void> {
  if (origin.kind === 'demo') {
    const { seedDemo } = await import('./seed/demo.js');
    seedDemo(db);
  } else if (origin.kind === 'data') {
    if (!data) throw new Error('seedFrom: a data origin needs the data file read first');
    const { loadData } = await import('./data/load.js');
    loadData(db, data, Math.floor(Date.now() / 1000), origin.file);
  }
  recordOrigin(db, origin);
}
