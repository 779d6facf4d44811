/**
 * `GET /_sandbox/contents`: what the sandbox holds, read from its database at the time of the
 * request (issues 23 and 33) — where it came from (the demo data, a data file and its hash, what
 * was loaded on top), its games with their api keys redacted (never a signing secret), their
 * quests and products, the user count, the first users with their current progress and holdings,
 * and the game a client uses by default. The one description: the dashboard shows it, `udcli
 * sandbox info` and `status` print it (from a running sandbox over HTTP, else from the database
 * file through the same function), so they cannot disagree.
 */
import type { FastifyInstance } from 'fastify';
import { redact } from '../../redact.js';
import type { SandboxDatabase } from '../database.js';
import { registerAdminRoute } from '../http/admin.js';
import { PLAY_PATH } from '../constants.js';
import { loadedContents, type LoadedContents, type LoadedKey } from '../loaded.js';
import { price } from '../present.js';
import { DEMO_FACTS } from '../seed/demo-data.js';

export const CONTENTS_PATH = '/contents';

/** Games shown with their quests and products (every game is listed): a description, not an export. */
export const DETAILED_GAMES = 20;
/** Quests and products shown per game; progress and holdings per user. */
export const LISTED_PER_GAME = 20;
export const LISTED_PER_USER = 20;

export interface PresentedKey {
  /** Redacted. */
  api_key: string;
  partner: boolean;
  /** The demo's own key with the demo's secret: public sandbox-only values that `sandbox info` shows whole. */
  demo: boolean;
}

export interface PresentedGame {
  id: string;
  name: string;
  type: string;
  launchable: boolean;
  signing: string;
  play_path: string;
  keys: PresentedKey[];
  /** Active quests in definition order (the first LISTED_PER_GAME; none beyond the first DETAILED_GAMES games). */
  achievements: Array<{ developer_id: string; name: string; target_value: number }>;
  achievement_count: number;
  /** Active products in display order (as achievements). */
  products: Array<{ sku: string; name: string; type: string; price: string }>;
  product_count: number;
}

export interface PresentedUser {
  username: string;
  uid: string;
  premium: boolean;
  friends: number;
  /** Started quests (the records the API lists), as they are now. */
  progress: Array<{
    game_id: string;
    developer_id: string;
    current_value: number;
    target_value: number;
    state: string;
  }>;
  /** What the user holds (units above 0), per game and item, with the skus counted on it. */
  holdings: Array<{ game_id: string; item: string; units: number; skus: string[] }>;
}

export interface PresentedContents {
  origin: LoadedContents['origin'];
  games: PresentedGame[];
  users: PresentedUser[];
  user_count: number;
  /** The game a client uses by default (see loaded.ts). */
  primary_game: string | null;
  /** The games data files brought, in the order loaded. */
  loaded_games: string[];
  /** Several loaded games and none the default: the ones to pick among (else []). */
  choices: string[];
}

function isDemoKey(gameId: string, key: LoadedKey): boolean {
  const known = [
    ...DEMO_FACTS.games.map((g) => ({ gameId: g.id, apiKey: g.apiKey, secret: g.signingSecret })),
    { gameId: DEMO_FACTS.partner.gameId, apiKey: DEMO_FACTS.partner.apiKey, secret: DEMO_FACTS.partner.signingSecret },
  ];
  return known.some((k) => k.gameId === gameId && k.apiKey === key.api_key && k.secret === key.signing_secret);
}

/** What the database holds now, every key redacted and no secret: safe to show and to send. */
export function describeContents(db: SandboxDatabase): PresentedContents {
  const contents = loadedContents(db);
  const { repos } = db;
  const records = new Map(repos.games.list().map((g) => [g.id, g]));
  const games = contents.games.map((g, index): PresentedGame => {
    const record = records.get(g.id);
    const type = record?.type ?? 'Game';
    const detailed = index < DETAILED_GAMES;
    const definitions = detailed ? repos.achievements.definitionsOf(type, g.id) : [];
    const products = detailed ? repos.products.listFor('', type, g.id).map((h) => h.product) : [];
    return {
      id: g.id,
      name: g.name,
      type,
      launchable: record?.launchable ?? false,
      signing: g.signing,
      play_path: `${PLAY_PATH}/${encodeURIComponent(g.id)}`,
      keys: g.keys.map((k) => ({ api_key: redact(k.api_key), partner: k.partner, demo: isDemoKey(g.id, k) })),
      achievements: definitions
        .slice(0, LISTED_PER_GAME)
        .map((d) => ({ developer_id: d.developerId, name: d.name, target_value: d.targetValue })),
      achievement_count: definitions.length,
      products: products
        .slice(0, LISTED_PER_GAME)
        .map((p) => ({ sku: p.sku, name: p.name, type: p.type, price: price(p.priceCents) })),
      product_count: products.length,
    };
  });
  const users = contents.users.map((listed): PresentedUser => {
    const user = repos.users.findByUid(listed.uid);
    return {
      username: listed.username,
      uid: listed.uid,
      premium: user?.premium ?? false,
      friends: repos.users.friendCount(listed.uid),
      progress: repos.achievements.startedOf(listed.uid, LISTED_PER_USER).map((a) => ({
        game_id: a.parentId,
        developer_id: a.developerId,
        current_value: a.currentValue,
        target_value: a.targetValue,
        state: a.state,
      })),
      holdings: repos.products
        .holdingsOf(listed.uid)
        .slice(0, LISTED_PER_USER)
        .map((h) => ({ game_id: h.parentId, item: h.item, units: h.quantity, skus: h.products.map((p) => p.sku) })),
    };
  });
  return {
    origin: contents.origin,
    games,
    users,
    user_count: contents.user_count,
    primary_game: contents.primary?.game_id ?? null,
    loaded_games: contents.loaded_games,
    choices: contents.choices,
  };
}

export function registerContentsRoute(app: FastifyInstance, db: SandboxDatabase): void {
  // One read transaction: the counts, users and progress are of one moment.
  registerAdminRoute(app, {
    method: 'GET',
    path: CONTENTS_PATH,
    handler: () => db.sqlite.transaction(() => describeContents(db))(),
  });
}
