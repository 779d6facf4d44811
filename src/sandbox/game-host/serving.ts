/**
 * What the game host's file routes and its WebSocket upgrades share: what they are given, which
 * game source serves a request, and how a dev server is proxied for it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Repositories } from '../repositories/index.js';
import type { GameRecord } from '../repositories/games.js';
import { addresseeOf, type Addressee, type AddressHeaders } from './addressing.js';
import { gameLabel } from './game-names.js';
import type { CookieSpace, ProxyTarget } from './proxy.js';
import { gamePath, type GameSources, type ResolvedSource } from './sources.js';

export interface GameHostDeps {
  repos: Repositories;
  sources: GameSources;
  /** Upstream reply headers must come within this; else a 504 page. */
  upstreamTimeoutMs: number;
  /** `--insecure-game-host`: an https upstream's certificate is not checked. */
  insecure: boolean;
  /** The answer to a path no game source takes. */
  notFound(request: FastifyRequest, reply: FastifyReply): unknown;
  /** The connect tag for pages answered to this request (it names the main listener's origin). */
  tag(request: { headers: { host?: string | undefined } }): string;
}

/**
 * How an upstream's cookies are kept apart (see proxy.ts): on a game's own name, `__Host-` names
 * (host-only, Path=/, Secure: a `*.localhost` origin is a secure context); on a shared name, a
 * plain prefix (Secure needs https there).
 */
function cookieSpace(addressee: Addressee, gameId: string): CookieSpace {
  return addressee.kind === 'game'
    ? { prefix: `__Host-udcli-${addressee.label}.`, hostOnly: true }
    : { prefix: `udcli-${gameLabel(gameId)}.`, hostOnly: false };
}

export function proxyTarget(
  deps: GameHostDeps,
  request: { headers: AddressHeaders },
  game: GameRecord,
  source: Extract<ResolvedSource, { kind: 'url' }>,
  url: string,
): ProxyTarget {
  return {
    cookies: cookieSpace(addresseeOf(deps, request.headers), game.id),
    url,
    origin: source.origin,
    prefix: source.prefix,
    localPrefix: gamePath(game.id),
    gameId: game.id,
    connect: source.connect,
    tag: deps.tag(request),
    insecure: deps.insecure,
  };
}

/** The game source root-absolute requests go to: the one used last, if it still serves. */
export function lastSource(deps: GameHostDeps): { game: GameRecord; source: ResolvedSource } | null {
  const id = deps.sources.lastUsed();
  const game = id === null ? undefined : deps.repos.games.find(id);
  const source = game === undefined ? null : deps.sources.resolve(game);
  return game === undefined || source === null ? null : { game, source };
}

/** The game a game host name names and its source, when both exist. */
export function ownSource(
  deps: GameHostDeps,
  gameId: string | null,
): { game: GameRecord; source: ResolvedSource } | null {
  const game = gameId === null ? undefined : deps.repos.games.find(gameId);
  const source = game === undefined ? null : deps.sources.resolve(game);
  return game === undefined || source === null ? null : { game, source };
}
