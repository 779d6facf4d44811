/**
 * What a sandbox database holds, told the same way by `sandbox info`, `status`, the dashboard,
 * `sandbox exec` and the built-in `sandbox` profile (issue 23): where it came from (the demo
 * data, a data file and its hash), its games with their keys, some of its users, and the game
 * and key a client should use — the one game data files brought (issue 33), else the demo game
 * on the demo data, else the loaded data's first game that has a key of its own (see `choose`).
 */
import { DEMO } from '../domain/demo.js';
import type { SandboxDatabase } from './database.js';
import { originJson, recordedOrigin, type SandboxOrigin } from './origin.js';
import type { GameSigning } from './repositories/games.js';
import type { Repositories } from './repositories/index.js';
import type { UserRecord } from './repositories/users.js';
import { DEMO_FACTS } from './seed/demo-data.js';

/** Users listed (the rest are counted): enough to pick one, few enough to read. */
export const LISTED_USERS = 10;

/**
 * Users a `udcli/sandbox` handle (and a test worker's) lists: every one a test's data file holds, without reading a
 * generated million.
 */
const HANDLE_USERS = 1000;

/** The users a test's handle lists, as uid and username. */
export function handleUsers(db: SandboxDatabase): Array<{ uid: string; username: string }> {
  return db.repos.users.first(HANDLE_USERS).map((u) => ({ uid: u.uid, username: u.username }));
}

export interface LoadedKey {
  api_key: string;
  signing_secret: string;
  partner: boolean;
}

export interface LoadedGame {
  id: string;
  name: string;
  signing: GameSigning;
  keys: LoadedKey[];
}

export interface LoadedContents {
  origin: ReturnType<typeof originJson>;
  games: LoadedGame[];
  users: Array<{ username: string; uid: string }>;
  user_count: number;
  /** The game and key a client uses by default; null when no game has a key. */
  primary: Primary;
  /** The games a data file brought (`start --data`, `sandbox load`), in the order loaded. */
  loaded_games: string[];
  /** Several loaded games with a key and none of them the default: the ones to pick among (else []). */
  choices: string[];
}

type Primary = { game_id: string; api_key: string; signing_secret: string; signing: GameSigning } | null;

/**
 * Why the default game is the one it is: the one game a data file loaded, the demo game of the
 * demo data, or the first game with a key (of a data file of several, or of loaded games to pick among).
 */
export type PrimaryReason = 'loaded' | 'demo' | 'first';

/** Whom the built-in profile follows: the default game and key, and the loaded games to pick among. */
export interface Followed {
  primary: Primary;
  reason: PrimaryReason;
  choices: string[];
  /** Every game with a key, with the key a client of it uses (`UDCLI_GAME_ID` picks among them). */
  keyed: Array<NonNullable<Primary>>;
}

/** The games, ranked: the data file's own order first (it names its main game first), then the rest by id. */
function rankedGames(db: SandboxDatabase, order: readonly string[]): LoadedGame[] {
  const games = db.repos.games.list().map((g) => ({
    id: g.id,
    name: g.name,
    signing: g.signing,
    keys: db.repos.games
      .apiKeysOf(g.id)
      .map((k) => ({ api_key: k.apiKey, signing_secret: k.signingSecret, partner: k.partner })),
  }));
  return [
    ...order.map((id) => games.find((g) => g.id === id)).filter((g): g is LoadedGame => g !== undefined),
    ...games.filter((g) => !order.includes(g.id)),
  ];
}

function keyOf(game: LoadedGame): NonNullable<Primary> | null {
  const key = game.keys.find((k) => !k.partner) ?? game.keys[0];
  return key
    ? { game_id: game.id, api_key: key.api_key, signing_secret: key.signing_secret, signing: game.signing }
    : null;
}

/** The games data files brought: a data origin's own, then those `sandbox load` put on top. */
function loadedGames(origin: SandboxOrigin | undefined): string[] {
  return [...new Set([...(origin?.kind === 'data' ? (origin.games ?? []) : []), ...(origin?.loaded ?? [])])];
}

/**
 * The default game and key: the one loaded game with a key, when a data file brought just one
 * (issue 33: `sandbox load` of one's own game onto the demo makes it the default); else the demo
 * game on the demo data, else the data's first game with a key. A data file of several games
 * names its main one first; games loaded on top of other data leave the choice to the user.
 */
function choose(
  db: SandboxDatabase,
  origin: SandboxOrigin | undefined,
  games: LoadedGame[],
): { primary: Primary; reason: PrimaryReason; choices: string[] } {
  const loaded = loadedGames(origin)
    .map((id) => games.find((g) => g.id === id))
    .map((g) => (g ? keyOf(g) : null))
    .filter((k): k is NonNullable<Primary> => k !== null);
  if (loaded.length === 1) return { primary: loaded[0]!, reason: 'loaded', choices: [] };
  let primary: Primary = null;
  const demoGame = games.find((g) => g.id === DEMO.game.id);
  if (origin?.kind !== 'data' && demoGame && db.repos.games.findApiKey(DEMO.game.apiKey)?.gameId === DEMO.game.id) {
    primary = {
      game_id: DEMO.game.id,
      api_key: DEMO.game.apiKey,
      signing_secret: DEMO.game.signingSecret,
      signing: demoGame.signing,
    };
  }
  primary ??= games.map(keyOf).find((k) => k !== null) ?? null;
  // One data file of several games (nothing on top) names its main one first: no choice to offer.
  const onTop = (origin?.loaded ?? []).length > 0;
  const ambiguous = loaded.length > 1 && (origin?.kind !== 'data' || onTop);
  const reason: PrimaryReason =
    primary?.game_id === DEMO.game.id && primary.api_key === DEMO.game.apiKey ? 'demo' : 'first';
  return { primary, reason, choices: ambiguous ? loaded.map((k) => k.game_id) : [] };
}

/** Games ranked as the data files named them. */
function gamesOf(db: SandboxDatabase, origin: SandboxOrigin | undefined): LoadedGame[] {
  return rankedGames(db, loadedGames(origin));
}

/** The game and key a client uses by default (cheap: no user is read). */
export function primaryCredentials(db: SandboxDatabase): Primary {
  return followed(db).primary;
}

/** What the built-in profile follows (cheap: no user is read). */
export function followed(db: SandboxDatabase): Followed {
  const origin = recordedOrigin(db);
  const games = gamesOf(db, origin);
  return { ...choose(db, origin, games), keyed: games.map(keyOf).filter((k): k is NonNullable<Primary> => k !== null) };
}

export function loadedContents(db: SandboxDatabase): LoadedContents {
  const origin = recordedOrigin(db);
  const games = gamesOf(db, origin);
  const { primary, choices } = choose(db, origin, games);
  const users = primary ? usersOfGame(db.repos, primary.game_id, LISTED_USERS) : db.repos.users.first(LISTED_USERS);
  return {
    origin: originJson(origin),
    games,
    users: users.map((u) => ({ username: u.username, uid: u.uid })),
    user_count: db.repos.users.count(),
    primary,
    loaded_games: loadedGames(origin).filter((id) => games.some((g) => g.id === id)),
    choices,
  };
}

/**
 * The users to offer for a game: the demo's named users who play it first (they have the
 * interesting state), then its other players; the first users of all when nobody plays it.
 */
export function usersOfGame(repos: Repositories, gameId: string, limit: number): UserRecord[] {
  const named = DEMO_FACTS.users
    .filter((u) => u.plays.includes(gameId))
    .map((u) => repos.users.findByUsername(u.username))
    .filter((u): u is UserRecord => u !== undefined);
  const players = repos.users
    .playersOf(gameId, limit + named.length)
    .filter((p) => !named.some((n) => n.uid === p.uid));
  const users = [...named, ...players].slice(0, limit);
  return users.length > 0 ? users : repos.users.first(limit);
}
