/**
 * The replies of the sandbox's own admin API, `/_sandbox/*` (plain JSON, never envelopes): the
 * routes that send them (src/sandbox/routes/, src/sandbox/game-host/) and the client that reads
 * them (src/client/sandbox-admin.ts) both speak these shapes, so neither imports the other.
 */

/** `GET /_sandbox/status`: which process answers on the port, and (when it has one) its database file. */
export interface StatusReply {
  status: 'ok';
  service: 'udcli-sandbox';
  pid: number;
  started_on: number;
  database?: string;
}

/** `GET /_sandbox/clock` and `POST /_sandbox/clock`: the virtual clock, after any move. */
export interface ClockReply {
  now: string;
  unix: number;
  offset_seconds: number;
  moved_seconds?: number;
  note?: string;
}

/** Where the sandbox's contents came from: the demo data, a data file (its name and hash), nothing. */
export interface PresentedOrigin {
  kind: string;
  file: string | null;
  sha256: string | null;
  text: string;
}

/** The answer to `POST /_sandbox/reset`: what the sandbox holds now. */
export interface ResetReply {
  reset: true;
  origin: PresentedOrigin;
  games: string[];
  users: number;
}

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

/** `GET /_sandbox/contents`: what the sandbox holds (src/sandbox/routes/contents.ts). */
export interface PresentedContents {
  origin: PresentedOrigin;
  games: PresentedGame[];
  users: PresentedUser[];
  user_count: number;
  /** The game a client uses by default (see src/sandbox/loaded.ts). */
  primary_game: string | null;
  /** The games data files brought, in the order loaded. */
  loaded_games: string[];
  /** Several loaded games and none the default: the ones to pick among (else []). */
  choices: string[];
}

/** What serves one game's play page on the game host. */
export interface GameSourceView {
  game_id: string;
  kind: 'dir' | 'url';
  dir?: string;
  url?: string;
  connect: boolean;
  /** True when nothing is set and the content URI is used. */
  from_content_uri: boolean;
}

/** One game as `/_sandbox/game-sources` shows it: what serves its play page (null: nothing yet). */
export interface GameSourceEntry {
  game_id: string;
  name: string;
  play_path: string;
  source: GameSourceView | null;
}

/** `GET /_sandbox/game-sources`: every game, and the one whose files were asked for last. */
export interface GameSourceList {
  active_game_id: string | null;
  games: GameSourceEntry[];
}

/** `POST /_sandbox/workers/<id>`: a test worker's fresh game (its key redacted: the caller derives it). */
export interface WorkerReply {
  worker: string;
  game_id: string;
  api_key: string;
  users: Array<{ uid: string; username: string }>;
}
