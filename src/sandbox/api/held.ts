/**
 * What a handle reads of its sandbox's database, in this process or on a child's database file: the credentials of
 * its game, its games and its users; and what the in-process and the child handle share besides.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { SandboxDatabase } from '../database.js';
import { followed, handleUsers, loadedContents } from '../loaded.js';
import type { SandboxConnection, SandboxData, SandboxGame, SandboxUser } from './public.js';

export interface Held {
  primary: Omit<SandboxConnection, 'url' | 'gameUrl'>;
  games: SandboxGame[];
  users: SandboxUser[];
}

function primaryOf(db: SandboxDatabase): Held['primary'] {
  const primary = followed(db).primary;
  return {
    gameId: primary?.game_id ?? '',
    apiKey: primary?.api_key ?? '',
    signingSecret: primary?.signing_secret ?? '',
    // A game taking both schemes takes the platform's.
    signingScheme: primary?.signing === 'hmac-sha256-v1' ? 'hmac-sha256-v1' : 'agi',
  };
}

function gamesOf(db: SandboxDatabase): SandboxGame[] {
  return loadedContents(db).games.map((g) => ({
    id: g.id,
    name: g.name,
    apiKey: g.keys[0]?.api_key ?? '',
    signingSecret: g.keys[0]?.signing_secret ?? '',
  }));
}

/** One part of what the database holds now, read only when asked (the users are a query of their own). */
export function heldPart<K extends keyof Held>(db: SandboxDatabase, part: K): Held[K] {
  return (part === 'primary' ? primaryOf(db) : part === 'games' ? gamesOf(db) : handleUsers(db)) as Held[K];
}

/** All of it: what the handle keeps answering after stop(), when the database is closed. */
export function heldAll(db: SandboxDatabase): Held {
  return { primary: primaryOf(db), games: gamesOf(db), users: handleUsers(db) };
}

// Node 20.18 has it; an older runtime's `await using` looks for the symbol Node registers under this name.
export const asyncDispose: typeof Symbol.asyncDispose = Symbol.asyncDispose ?? Symbol.for('nodejs.asyncDispose');

/** A data option as a file: a path as given, an object written (JSON, owner only) into the sandbox's own folder. */
export function dataFile(data: string | SandboxData, dir: string, n: number): string {
  if (typeof data === 'string') return resolve(data);
  const file = join(dir, `data-${n}.json`);
  writeFileSync(file, JSON.stringify(data), { mode: 0o600 });
  return file;
}
