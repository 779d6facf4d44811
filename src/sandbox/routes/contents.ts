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
import { loadedContents, type LoadedKey } from '../loaded.js';
import { price } from '../present.js';
import { DEMO_FACTS } from '../seed/demo-data.js';
import type {
  PresentedContents,
  PresentedGame,
  PresentedKey,
  PresentedUser,
} from '../../domain/sandbox-admin-replies.js';

export const CONTENTS_PATH = '/contents';

/** Games shown with their quests and products (every game is listed): a description, not an export. */
export const DETAILED_GAMES = 20;
/** Quests and products shown per game; progress and holdings per user. */
export const LISTED_PER_GAME = 20;
export const LISTED_PER_USER = 20;

// The CLI's `sandbox info` and `status` read these from here.
export type { PresentedContents, PresentedKey };

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
