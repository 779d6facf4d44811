/**
 * `GET /_sandbox/contents`: what the sandbox holds (issue 23) — where it came from (the demo
 * data, a data file and its hash), its games with their api keys redacted (never a signing
 * secret), its first users, and the game a client uses by default. The dashboard shows it;
 * `udcli sandbox info` and `status` read it from a running sandbox.
 */
import type { FastifyInstance } from 'fastify';
import { redact } from '../../redact.js';
import type { SandboxDatabase } from '../database.js';
import { registerAdminRoute } from '../http/admin.js';
import { loadedContents, type LoadedContents } from '../loaded.js';

export const CONTENTS_PATH = '/contents';

export interface PresentedContents {
  origin: LoadedContents['origin'];
  games: Array<{ id: string; name: string; signing: string; keys: Array<{ api_key: string; partner: boolean }> }>;
  users: LoadedContents['users'];
  user_count: number;
  /** The game a client uses by default (the demo game, else the data's first game with a key). */
  primary_game: string | null;
}

/** The contents with every key redacted and no secret: safe to show and to send. */
export function presentContents(contents: LoadedContents): PresentedContents {
  return {
    origin: contents.origin,
    games: contents.games.map((g) => ({ id: g.id, name: g.name, signing: g.signing, keys: g.keys.map((k) => ({ api_key: redact(k.api_key), partner: k.partner })) })),
    users: contents.users,
    user_count: contents.user_count,
    primary_game: contents.primary?.game_id ?? null,
  };
}

export function registerContentsRoute(app: FastifyInstance, db: SandboxDatabase): void {
  registerAdminRoute(app, { method: 'GET', path: CONTENTS_PATH, handler: () => presentContents(loadedContents(db)) });
}
