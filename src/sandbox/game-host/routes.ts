/**
 * The game host's routes: `/play/{game_id}/game/*` (the game's files, from its source), the
 * root-absolute paths no route of the sandbox takes (a dev server's `/@vite/client`,
 * `/assets/x.js`: to the game source used last), upgrades likewise, and the control endpoints
 * `/_sandbox/game-sources`. The file routes live in a plugin of their own whose content-type
 * parser hands the body over unread, so the proxy streams it (the app's parsers would read and
 * bound it); the control endpoints read JSON (or a form) in another.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PLAY_PATH } from '../constants.js';
import { ApiFailure } from '../http/failure.js';
import { parseQuery, splitTarget } from '../http/query.js';
import type { Repositories } from '../repositories/index.js';
import { registerAdminRoute } from '../http/admin.js';
import type { GameRecord } from '../repositories/games.js';
import { gameMissingPage, noSourcePage } from './pages.js';
import { proxy, type ProxyTarget } from './proxy.js';
import { checkDir, checkUrl, gamePath, GameSourceError, type GameSources, type GameSourceSetting, type ResolvedSource } from './sources.js';
import { serveFromDir } from './static.js';
import { proxyUpgrade, refuseUpgrade } from './upgrade.js';

export interface GameHostDeps {
  repos: Repositories;
  sources: GameSources;
  /** Upstream reply headers must come within this; else a 504 page. */
  upstreamTimeoutMs: number;
  /** The sandbox's own answer to a path nobody serves (its 404 envelope). */
  notFound(request: FastifyRequest, reply: FastifyReply): unknown;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
const CONTROL_BODY_LIMIT = 16 * 1024;

/** Paths the sandbox answers itself: never passed to a game source. */
const OWN_PREFIXES = ['/services', '/_sandbox', PLAY_PATH, '/login', '/service', '/avatars', '/docs', '/openapi.json'];

export function isSandboxPath(path: string): boolean {
  return path === '/' || OWN_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

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

function proxyTarget(game: GameRecord, source: Extract<ResolvedSource, { kind: 'url' }>, url: string): ProxyTarget {
  return { url, origin: source.origin, prefix: source.prefix, localPrefix: gamePath(game.id), gameId: game.id, connect: source.connect };
}

async function serve(request: FastifyRequest, reply: FastifyReply, deps: GameHostDeps, game: GameRecord, source: ResolvedSource, rest: string, rootAbsolute: boolean) {
  if (source.kind === 'dir') return serveFromDir(request, reply, source, rest);
  const { query } = splitTarget(request.url);
  const url = rootAbsolute ? `${source.origin}${request.url}` : `${source.prefix}${rest}${request.url.includes('?') ? `?${query}` : ''}`;
  return proxy(request, reply, proxyTarget(game, source, url), deps.upstreamTimeoutMs);
}

/** The game source root-absolute requests go to: the one used last, if it still serves. */
function lastSource(deps: GameHostDeps): { game: GameRecord; source: ResolvedSource } | null {
  const id = deps.sources.lastUsed();
  const game = id === null ? undefined : deps.repos.games.find(id);
  const source = game === undefined ? null : deps.sources.resolve(game);
  return game === undefined || source === null ? null : { game, source };
}

function registerFileRoutes(app: FastifyInstance, deps: GameHostDeps): void {
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

    // Any path no other route takes: a game page's root-absolute reference, or truly unknown.
    scope.route({
      method: METHODS,
      url: '/*',
      handler: (request, reply) => {
        const { path } = splitTarget(request.url);
        const last = isSandboxPath(path) ? null : lastSource(deps);
        if (last === null) return deps.notFound(request, reply);
        return serve(request, reply, deps, last.game, last.source, path.slice(1), true);
      },
    });
  });
}

/** Upgrades go where the same path's request would: its game's source, else the one used last. */
function registerUpgrades(app: FastifyInstance, deps: GameHostDeps): void {
  const open = new Set<Duplex>();
  const track = (socket: Duplex) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  };
  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const target = request.url ?? '/';
    const { path, query } = splitTarget(target);
    const split = splitGamePath(path);
    let found: { game: GameRecord; source: ResolvedSource } | null = null;
    if (split !== null) {
      const game = deps.repos.games.find(split.gameId);
      const source = game === undefined ? null : deps.sources.resolve(game);
      if (game !== undefined && source !== null) found = { game, source };
    } else if (!isSandboxPath(path) || path === '/') {
      // `/` too: Vite's client opens its socket at the root of the page's origin.
      found = lastSource(deps);
    }
    if (found === null || found.source.kind !== 'url') return refuseUpgrade(socket, 404, 'Not Found');
    const { game, source } = found;
    const url = split === null ? `${source.origin}${target}` : `${source.prefix}${split.rest}${target.includes('?') ? `?${query}` : ''}`;
    proxyUpgrade(request, socket, head, proxyTarget(game, source, url), deps.upstreamTimeoutMs, track);
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

/** The setting a PUT asks for, checked: one of dir or url (or neither: the content URI), connect a boolean. */
export function settingOf(body: SourceBody): GameSourceSetting {
  const connect = body.connect ?? true;
  if (typeof connect !== 'boolean') throw new GameSourceError(400, 'invalid parameter: connect (expected true or false)');
  if (body.dir !== undefined && body.url !== undefined) throw new GameSourceError(400, 'invalid parameter: dir and url cannot both be given');
  if (body.dir !== undefined) {
    if (typeof body.dir !== 'string') throw new GameSourceError(400, 'invalid parameter: dir (expected a string)');
    return { kind: 'dir', root: checkDir(body.dir), connect };
  }
  if (body.url !== undefined) {
    if (typeof body.url !== 'string') throw new GameSourceError(400, 'invalid parameter: url (expected a string)');
    return { kind: 'url', base: checkUrl(body.url), connect };
  }
  return { kind: 'content-uri', connect };
}

function registerControlRoutes(app: FastifyInstance, deps: GameHostDeps): void {
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
          deps.sources.set(game.id, settingOf(bodyOf(request)));
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

export function registerGameHost(app: FastifyInstance, deps: GameHostDeps): void {
  registerFileRoutes(app, deps);
  registerUpgrades(app, deps);
  registerControlRoutes(app, deps);
}
