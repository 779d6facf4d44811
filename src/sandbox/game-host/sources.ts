/**
 * Where each game's files come from, kept in memory by the running sandbox: a directory it
 * serves, a studio's dev server it proxies, or (when nothing is set) the game's content URI,
 * proxied like a dev server. Which source was used last also answers root-absolute requests
 * (`/@vite/client`, `/assets/x.js`) that a dev server's pages make.
 */
import { contentUriProblem } from '../content-uri.js';
import { PLAY_PATH } from '../constants.js';
import type { GameRecord } from '../repositories/games.js';
import type { GameSourceView } from '../../domain/sandbox-admin-replies.js';

/** What is set for a game: a directory, a URL, or its content URI with connect switched. */
export type GameSourceSetting =
  | { kind: 'dir'; root: string; connect: boolean }
  | { kind: 'url'; base: string; connect: boolean }
  | { kind: 'content-uri'; connect: boolean };

/** A source ready to serve: a URL source knows its upstream prefix and entry page. */
export type ResolvedSource =
  | { kind: 'dir'; root: string; connect: boolean }
  | {
      kind: 'url';
      base: string;
      connect: boolean;
      /** Origin of the upstream, e.g. `http://localhost:3000`. */
      origin: string;
      /** The base URL's folder: `/play/ID/game/<rest>` maps to `${prefix}<rest>`. */
      prefix: string;
      /** What follows the prefix in the base URL: its last path segment and query. */
      entry: string;
    };

export class GameSourceError extends Error {
  constructor(
    readonly status: 400 | 403 | 404,
    message: string,
  ) {
    super(message);
  }
}

/** `url` must be an absolute http(s) URL (the same rule as a content URI). */
export function checkUrl(url: string): string {
  const problem = contentUriProblem(url);
  if (problem !== null) throw new GameSourceError(400, `invalid parameter: url (${problem})`);
  return url;
}

export function resolveUrlSource(base: string, connect: boolean): ResolvedSource {
  const url = new URL(base);
  const slash = url.pathname.lastIndexOf('/');
  const folder = url.pathname.slice(0, slash + 1);
  return {
    kind: 'url',
    base,
    connect,
    origin: url.origin,
    prefix: `${url.origin}${folder}`,
    entry: `${url.pathname.slice(slash + 1)}${url.search}`,
  };
}

export interface GameSources {
  set(gameId: string, setting: GameSourceSetting): void;
  /** True when a setting was removed. */
  delete(gameId: string): boolean;
  /** The setting, or the content URI when none is set; null when there is neither (or the URI is unusable). */
  resolve(game: GameRecord): ResolvedSource | null;
  view(game: GameRecord): GameSourceView | null;
  /** Notes that a game's files were asked for: root-absolute requests go to its source next. */
  touch(gameId: string): void;
  lastUsed(): string | null;
  /**
   * The path of the game's entry page on the game host (the play page's iframe, on that origin); null: nothing serves
   * it.
   */
  framePath(game: GameRecord): string | null;
}

export function gamePath(gameId: string): string {
  return `${PLAY_PATH}/${encodeURIComponent(gameId)}/game/`;
}

export function createGameSources(initial: ReadonlyArray<[string, GameSourceSetting]> = []): GameSources {
  const settings = new Map<string, GameSourceSetting>(initial);
  let last: string | null = null;
  const resolve = (game: GameRecord): ResolvedSource | null => {
    const setting = settings.get(game.id);
    if (setting?.kind === 'dir') return setting;
    if (setting?.kind === 'url') return resolveUrlSource(setting.base, setting.connect);
    const uri = game.contentUri;
    if (uri === null || contentUriProblem(uri) !== null) return null;
    return resolveUrlSource(uri, setting?.connect ?? true);
  };
  return {
    set(gameId, setting) {
      settings.set(gameId, setting);
      last = gameId;
    },
    delete: (gameId) => settings.delete(gameId),
    resolve,
    view(game) {
      const source = resolve(game);
      if (source === null) return null;
      const fromUri = settings.get(game.id)?.kind !== 'dir' && settings.get(game.id)?.kind !== 'url';
      return source.kind === 'dir'
        ? { game_id: game.id, kind: 'dir', dir: source.root, connect: source.connect, from_content_uri: false }
        : { game_id: game.id, kind: 'url', url: source.base, connect: source.connect, from_content_uri: fromUri };
    },
    touch(gameId) {
      last = gameId;
    },
    lastUsed: () => last,
    framePath(game) {
      const source = resolve(game);
      if (source === null) return null;
      return `${gamePath(game.id)}${source.kind === 'dir' ? 'index.html' : source.entry}`;
    },
  };
}
