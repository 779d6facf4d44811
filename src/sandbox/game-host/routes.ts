/**
 * The game host's routes, on its own listener (game-host/app.ts): `/play/{game_id}/game/*` (the
 * game's files, from its source), any other path (a dev server's root-absolute `/@vite/client`,
 * `/assets/x.js`: to the game source used last) and WebSocket upgrades likewise. The file routes
 * live in a plugin whose content-type parser hands the body over unread, so the proxy streams it.
 * The control endpoints `/_sandbox/game-sources` are the main listener's (registerGameSourceRoutes).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PLAY_PATH } from '../constants.js';
import { ApiFailure } from '../http/failure.js';
import { hostAnswered } from '../http/host-check.js';
import { parseQuery, splitTarget } from '../http/query.js';
import type { RequestLogging } from '../http/request-log.js';
import type { Repositories } from '../repositories/index.js';
import { registerAdminRoute } from '../http/admin.js';
import type { GameRecord } from '../repositories/games.js';
import type { AllowedDirs } from './allowed-dirs.js';
import { gameMissingPage, noSourcePage } from './pages.js';
import { proxy, type ProxyTarget } from './proxy.js';
import { checkUrl, gamePath, GameSourceError, type GameSources, type GameSourceSetting, type ResolvedSource } from './sources.js';
import { serveFromDir } from './static.js';
import { proxyUpgrade, refuseUpgrade } from './upgrade.js';

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

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
const CONTROL_BODY_LIMIT = 16 * 1024;

/** `/play/ID/game/REST`: the game id (decoded) and REST exactly as sent; null for other paths. */
export function splitGamePath(path: string): { gameId: string; rest: string } | null {
  const m = /^\/play\/([^/]+)\/game\/(.*)$/s.exec(path);
  if (!m) return null;
  try {
    return { gameId: decodeURIComponent(m[1]!), rest: m[2]! };
  } catch {
    return null;
  }
}

function proxyTarget(deps: GameHostDeps, request: { headers: { host?: string | undefined } }, game: GameRecord, source: Extract<ResolvedSource, { kind: 'url' }>, url: string): ProxyTarget {
  return {
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

async function serve(request: FastifyRequest, reply: FastifyReply, deps: GameHostDeps, game: GameRecord, source: ResolvedSource, rest: string, rootAbsolute: boolean) {
  if (source.kind === 'dir') return serveFromDir(request, reply, source, rest, deps.tag(request));
  const { query } = splitTarget(request.url);
  const url = rootAbsolute ? `${source.origin}${request.url}` : `${source.prefix}${rest}${request.url.includes('?') ? `?${query}` : ''}`;
  return proxy(request, reply, proxyTarget(deps, request, game, source, url), deps.upstreamTimeoutMs);
}

/** The game source root-absolute requests go to: the one used last, if it still serves. */
function lastSource(deps: GameHostDeps): { game: GameRecord; source: ResolvedSource } | null {
  const id = deps.sources.lastUsed();
  const game = id === null ? undefined : deps.repos.games.find(id);
  const source = game === undefined ? null : deps.sources.resolve(game);
  return game === undefined || source === null ? null : { game, source };
}

export function registerFileRoutes(app: FastifyInstance, deps: GameHostDeps): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    scope.route({
      method: METHODS,
      url: `${PLAY_PATH}/:gameId/game`,
      handler: (request, reply) => {
        const { path, query } = splitTarget(request.url);
        return reply.code(301).header('location', `${path}/${query === '' ? '' : `?${query}`}`).send();
      },
    });

    scope.route({
      method: METHODS,
      url: `${PLAY_PATH}/:gameId/game/*`,
      handler: (request, reply) => {
        const split = splitGamePath(splitTarget(request.url).path);
        const gameId = (request.params as { gameId: string }).gameId;
        const game = deps.repos.games.find(gameId);
        if (!game || split === null) return gameMissingPage(reply, gameId);
        const source = deps.sources.resolve(game);
        if (source === null) return noSourcePage(reply, game.id);
        deps.sources.touch(game.id);
        return serve(request, reply, deps, game, source, split.rest, false);
      },
    });

    // Any other path: a game page's root-absolute reference (this origin has nothing else).
    scope.route({
      method: METHODS,
      url: '/*',
      handler: (request, reply) => {
        const { path } = splitTarget(request.url);
        const last = lastSource(deps);
        if (last === null) return deps.notFound(request, reply);
        return serve(request, reply, deps, last.game, last.source, path.slice(1), true);
      },
    });
  });
}

/** How an upgrade ended, for the request log. */
export type UpgradeTold = (request: IncomingMessage, status: number, reason: string | null) => void;

/**
 * Upgrades go where the same path's request would: its game's source, else the one used last.
 * Each passes the Host check as every request does and is logged; only a WebSocket handshake
 * (GET, `Upgrade: websocket`, an origin-form target) to a dev server is forwarded.
 */
export function registerUpgrades(app: FastifyInstance, deps: GameHostDeps, logging: Pick<RequestLogging, 'recordRaw'>): void {
  const open = new Set<Duplex>();
  const track = (socket: Duplex) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  };
  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const started = performance.now();
    let logged = false;
    const told = (status: number, reason: string | null) => {
      if (logged) return;
      logged = true;
      logging.recordRaw({ method: request.method ?? 'GET', url: request.url ?? '/', status, ms: performance.now() - started, reason });
    };
    const refuse = (status: number, message: string, reason: string) => {
      told(status, reason);
      refuseUpgrade(socket, status, message);
    };
    socket.on('error', () => socket.destroy());
    if (!hostAnswered(app.server, request.headers.host, request.socket)) return refuse(403, 'Forbidden', 'Host is not the sandbox (upgrade refused)');
    const target = request.url ?? '/';
    if (!target.startsWith('/')) return refuse(400, 'Bad Request', 'invalid parameter: request (not an origin-form target)');
    if (request.method !== 'GET' || String(request.headers.upgrade ?? '').trim().toLowerCase() !== 'websocket') {
      return refuse(400, 'Bad Request', 'only WebSocket upgrades are forwarded');
    }
    const { path, query } = splitTarget(target);
    const split = splitGamePath(path);
    let found: { game: GameRecord; source: ResolvedSource } | null = null;
    if (split !== null) {
      const game = deps.repos.games.find(split.gameId);
      const source = game === undefined ? null : deps.sources.resolve(game);
      if (game !== undefined && source !== null) found = { game, source };
    } else {
      // `/` too: Vite's client opens its socket at the root of the page's origin.
      found = lastSource(deps);
    }
    if (found === null || found.source.kind !== 'url') return refuse(404, 'Not Found', 'no dev server to forward the upgrade to');
    const { game, source } = found;
    const url = split === null ? `${source.origin}${target}` : `${source.prefix}${split.rest}${target.includes('?') ? `?${query}` : ''}`;
    proxyUpgrade(request, socket, head, proxyTarget(deps, request, game, source, url), deps.upstreamTimeoutMs, track, told);
  });
  app.addHook('onClose', (_app, done) => {
    for (const socket of open) socket.destroy();
    done();
  });
}

interface SourceBody {
  dir?: unknown;
  url?: unknown;
  connect?: unknown;
}

function bodyOf(request: FastifyRequest): SourceBody {
  const body = request.body;
  if (typeof body === 'string') {
    const form = parseQuery(body);
    const connect = form.get('connect');
    return { dir: form.get('dir'), url: form.get('url'), connect: connect === undefined ? undefined : connect !== 'false' && connect !== '0' };
  }
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new ApiFailure(400, 'invalid parameter: body (expected a JSON object {dir|url, connect})');
  return body as SourceBody;
}

/**
 * The setting a PUT asks for, checked: one of dir or url (or neither: the content URI), connect a
 * boolean; a dir only inside the folders allowed when the sandbox started.
 */
export function settingOf(body: SourceBody, allowed: AllowedDirs): GameSourceSetting {
  const connect = body.connect ?? true;
  if (typeof connect !== 'boolean') throw new GameSourceError(400, 'invalid parameter: connect (expected true or false)');
  if (body.dir !== undefined && body.url !== undefined) throw new GameSourceError(400, 'invalid parameter: dir and url cannot both be given');
  if (body.dir !== undefined) {
    if (typeof body.dir !== 'string') throw new GameSourceError(400, 'invalid parameter: dir (expected a string)');
    return { kind: 'dir', root: allowed.check(body.dir), connect };
  }
  if (body.url !== undefined) {
    if (typeof body.url !== 'string') throw new GameSourceError(400, 'invalid parameter: url (expected a string)');
    return { kind: 'url', base: checkUrl(body.url), connect };
  }
  return { kind: 'content-uri', connect };
}

export interface GameSourceRouteDeps {
  repos: Repositories;
  sources: GameSources;
  allowed: AllowedDirs;
}

/** `/_sandbox/game-sources`: what serves each game (the main listener's control routes). */
export function registerGameSourceRoutes(app: FastifyInstance, deps: GameSourceRouteDeps): void {
  const gameOf = (request: FastifyRequest): GameRecord => {
    const gameId = (request.params as { gameId: string }).gameId;
    const game = deps.repos.games.find(gameId);
    if (!game) throw new ApiFailure(404, `not found: game ${JSON.stringify(gameId.slice(0, 64))}`);
    return game;
  };
  const entry = (game: GameRecord) => ({ game_id: game.id, name: game.name, play_path: `${PLAY_PATH}/${encodeURIComponent(game.id)}`, source: deps.sources.view(game) });

  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: CONTROL_BODY_LIMIT }, (_request, text, done) => {
      try {
        done(null, text === '' ? undefined : JSON.parse(text as string));
      } catch {
        done(new ApiFailure(400, 'invalid parameter: body (not JSON)'), undefined);
      }
    });
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: CONTROL_BODY_LIMIT }, (_request, text, done) =>
      done(null, text),
    );

    registerAdminRoute(scope, {
      method: 'GET',
      path: '/game-sources',
      handler: () => ({ active_game_id: deps.sources.lastUsed(), games: deps.repos.games.list().map(entry) }),
    });
    registerAdminRoute(scope, { method: 'GET', path: '/game-sources/:gameId', handler: (request) => entry(gameOf(request)) });
    registerAdminRoute(scope, {
      method: 'PUT',
      path: '/game-sources/:gameId',
      handler: (request) => {
        const game = gameOf(request);
        try {
          deps.sources.set(game.id, settingOf(bodyOf(request), deps.allowed));
        } catch (error) {
          if (error instanceof GameSourceError) throw new ApiFailure(error.status, error.message);
          throw error;
        }
        return entry(game);
      },
    });
    registerAdminRoute(scope, {
      method: 'DELETE',
      path: '/game-sources/:gameId',
      handler: (request) => {
        const game = gameOf(request);
        return { ...entry(game), removed: deps.sources.delete(game.id) };
      },
    });
  });
}
