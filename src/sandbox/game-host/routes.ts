/**
 * The game host's routes, on its own listener (game-host/app.ts). What a request gets depends on
 * the name it is addressed to (see game-names.ts):
 *
 * - a game's own name, `g1001.sandbox.localhost:PORT`: `/play/1001/game/*` (the game's files, from its
 *   source), any other path (a dev server's root-absolute `/@vite/client`, `/assets/x.js`) from
 *   the same source, and WebSocket upgrades likewise; another game's path is redirected to that
 *   game's own name, so no game's content ever runs on another's origin;
 * - a bare loopback name asked by a browser (`localhost`, `127.0.0.1`, `[::1]`: the one origin all
 *   games shared before issue 40; `sandbox.localhost`): a game's path is redirected to the game's
 *   own name, and nothing else is served; every reply clears what a game left on that origin
 *   (`Clear-Site-Data: "storage"`), and a service worker's update check gets a worker that
 *   unregisters itself. A tool there gets the shared origin below (fromBrowser);
 * - any other name the host check answers (a bound `--host`, reached from another machine, where
 *   `*.localhost` would name that machine): the shared origin as before, root-absolute paths to
 *   the game source used last. Games are not isolated from each other there (docs/SANDBOX-DESIGN.md).
 *
 * The file routes live in a plugin whose content-type parser hands the body over unread, so the
 * proxy streams it. The control endpoints `/_sandbox/game-sources` are the main listener's
 * (registerGameSourceRoutes).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PLAY_PATH } from '../constants.js';
import { ApiFailure } from '../http/failure.js';
import { hostAnswered, hostName } from '../http/host-check.js';
import { parseQuery, splitTarget } from '../http/query.js';
import { noteReason } from '../http/request-notes.js';
import type { RequestLogging } from '../http/request-log.js';
import type { Repositories } from '../repositories/index.js';
import { registerAdminRoute } from '../http/admin.js';
import type { GameRecord } from '../repositories/games.js';
import type { AllowedDirs } from './allowed-dirs.js';
import { gameHostName, gameLabel, gameOfLabel, isLoopbackName, labelOfName } from './game-names.js';
import { gameMissingPage, noSourcePage, sendHostPage } from './pages.js';
import { proxy, type CookieSpace, type ProxyTarget } from './proxy.js';
import {
  checkUrl,
  gamePath,
  GameSourceError,
  type GameSources,
  type GameSourceSetting,
  type ResolvedSource,
} from './sources.js';
import { serveFromDir } from './static.js';
import { proxyUpgrade, refuseUpgrade } from './upgrade.js';
import type { GameSourceEntry, GameSourceList } from '../../domain/sandbox-admin-replies.js';

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

/**
 * Whom a request is addressed to, by its Host (already answered by the host check): a game's own
 * name (`gameId` null: no game has that label), a bare loopback name asked by a browser, or the
 * shared origin (another name; or a bare loopback name asked by a tool, see fromBrowser).
 */
export type Addressee =
  | { kind: 'game'; label: string; gameId: string | null }
  | { kind: 'loopback' }
  | { kind: 'shared' };

type Headers = {
  host?: string | undefined;
  origin?: string | undefined;
  'sec-fetch-site'?: string | string[] | undefined;
};

/**
 * A browser's request: browsers send `Sec-Fetch-Site` on every request to a loopback name (a
 * secure context), and `Origin` on every WebSocket handshake. A tool (curl, a script run by
 * `sandbox exec`) sends neither and may not resolve `*.localhost` (Node does not), so it keeps
 * the shared origin: storage and service workers, what one game could turn on another, are a
 * browser's alone.
 */
export function fromBrowser(headers: Headers): boolean {
  return headers['sec-fetch-site'] !== undefined || headers.origin !== undefined;
}

export function addresseeOf(deps: Pick<GameHostDeps, 'repos'>, headers: Headers): Addressee {
  const host = headers.host;
  const name = hostName(host ?? '');
  const label = labelOfName(name);
  if (label !== null) {
    const games = deps.repos.games;
    return {
      kind: 'game',
      label,
      gameId: gameOfLabel(
        label,
        () => games.list().map((g) => g.id),
        (id) => games.find(id) !== undefined,
      ),
    };
  }
  return isLoopbackName(name) && fromBrowser(headers) ? { kind: 'loopback' } : { kind: 'shared' };
}

/** The port of a Host header already answered (`g1001.sandbox.localhost:8788` → `8788`). */
function hostPort(host: string | undefined): string {
  const value = host ?? '';
  return value.slice(hostName(value).length + 1);
}

/** `http://g1001.sandbox.localhost:PORT`: a game's own origin on this game host. */
export function gameOrigin(gameId: string, port: string | number): string {
  return `http://${gameHostName(gameId)}:${port}`;
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

function proxyTarget(
  deps: GameHostDeps,
  request: { headers: Headers },
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

async function serve(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: GameHostDeps,
  game: GameRecord,
  source: ResolvedSource,
  rest: string,
  rootAbsolute: boolean,
) {
  if (source.kind === 'dir') return serveFromDir(request, reply, source, rest, deps.tag(request));
  const { query } = splitTarget(request.url);
  const url = rootAbsolute
    ? `${source.origin}${request.url}`
    : `${source.prefix}${rest}${request.url.includes('?') ? `?${query}` : ''}`;
  return proxy(request, reply, proxyTarget(deps, request, game, source, url), deps.upstreamTimeoutMs);
}

/** The game source root-absolute requests go to: the one used last, if it still serves. */
function lastSource(deps: GameHostDeps): { game: GameRecord; source: ResolvedSource } | null {
  const id = deps.sources.lastUsed();
  const game = id === null ? undefined : deps.repos.games.find(id);
  const source = game === undefined ? null : deps.sources.resolve(game);
  return game === undefined || source === null ? null : { game, source };
}

/** The game a game host name names and its source, when both exist. */
function ownSource(deps: GameHostDeps, gameId: string | null): { game: GameRecord; source: ResolvedSource } | null {
  const game = gameId === null ? undefined : deps.repos.games.find(gameId);
  const source = game === undefined ? null : deps.sources.resolve(game);
  return game === undefined || source === null ? null : { game, source };
}

/**
 * What a profile may keep from the days all games shared one origin: storage, and a service
 * worker one game registered over every game's pages. Each reply on a bare loopback name clears
 * that origin's storage (service workers included), and a worker's update check (the browser
 * asks for the worker's script, with `Service-Worker: script`, whenever a page in its scope is
 * opened) gets this worker, which unregisters itself and reloads the pages it controlled.
 */
export const CLEAR_SITE_DATA = '"storage"';
export const UNREGISTER_WORKER = `'use strict';
self.addEventListener('install', function () { self.skipWaiting(); });
self.addEventListener('activate', function (event) {
  event.waitUntil(self.registration.unregister().then(function () {
    return self.clients.matchAll({ type: 'window' });
  }).then(function (clients) {
    clients.forEach(function (client) { client.navigate(client.url); });
  }));
});
`;

function wrongHostPage(reply: FastifyReply): FastifyReply {
  return sendHostPage(
    reply,
    404,
    'Not a game of this host',
    '<p>Each game is served at a host name of its own, <code>g&lt;game id&gt;.sandbox.localhost</code>, on this port: open it from the play page.</p>',
    'no game at this host name',
  );
}

/** A bare loopback name: a game's path goes to the game's own name; nothing else is served. */
function answerLoopback(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: GameHostDeps,
  split: { gameId: string } | null,
): FastifyReply {
  reply.header('clear-site-data', CLEAR_SITE_DATA).header('cache-control', 'no-store');
  if (split !== null) {
    const game = deps.repos.games.find(split.gameId);
    if (!game) return gameMissingPage(reply, split.gameId);
    return reply
      .code(307)
      .header('location', `${gameOrigin(game.id, hostPort(request.headers.host))}${request.url}`)
      .send();
  }
  if (String(request.headers['service-worker'] ?? '').toLowerCase() === 'script') {
    noteReason(request, 'a worker of the shared game origin, replaced by one that unregisters itself');
    return reply.code(200).header('content-type', 'text/javascript; charset=utf-8').send(UNREGISTER_WORKER);
  }
  return wrongHostPage(reply);
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
        return reply
          .code(301)
          .header('location', `${path}/${query === '' ? '' : `?${query}`}`)
          .send();
      },
    });

    scope.route({
      method: METHODS,
      url: `${PLAY_PATH}/:gameId/game/*`,
      handler: (request, reply) => {
        const split = splitGamePath(splitTarget(request.url).path);
        const gameId = (request.params as { gameId: string }).gameId;
        const addressee = addresseeOf(deps, request.headers);
        if (addressee.kind === 'loopback') return answerLoopback(request, reply, deps, { gameId });
        const game = deps.repos.games.find(gameId);
        if (!game || split === null) return gameMissingPage(reply, gameId);
        if (addressee.kind === 'game' && addressee.gameId !== game.id) {
          // Another game's files run on that game's own origin, never on this one.
          return reply
            .code(307)
            .header('location', `${gameOrigin(game.id, hostPort(request.headers.host))}${request.url}`)
            .header('cache-control', 'no-store')
            .send();
        }
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
        const addressee = addresseeOf(deps, request.headers);
        if (addressee.kind === 'loopback') return answerLoopback(request, reply, deps, null);
        if (addressee.kind === 'game' && addressee.gameId === null) return wrongHostPage(reply);
        // A game's own name: its own source; a shared name: the source used last.
        const found = addressee.kind === 'game' ? ownSource(deps, addressee.gameId) : lastSource(deps);
        if (found === null)
          return addressee.kind === 'game' && addressee.gameId !== null
            ? noSourcePage(reply, addressee.gameId)
            : deps.notFound(request, reply);
        return serve(request, reply, deps, found.game, found.source, path.slice(1), true);
      },
    });
  });
}

/** Is `origin` (an Origin header) the origin of the Host the request came to? */
export function sameOrigin(origin: string, host: string | undefined): boolean {
  return host !== undefined && origin.toLowerCase() === `http://${host.toLowerCase()}`;
}

/** An Origin as the request log may show it: bounded, printable ASCII only. */
function shownOrigin(origin: string): string {
  const text = origin.replace(/[^\x21-\x7e]/g, '?');
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** How an upgrade ended, for the request log. */
export type UpgradeTold = (request: IncomingMessage, status: number, reason: string | null) => void;

/**
 * Upgrades go where the same path's request would: its game's source, else the one used last.
 * Each passes the Host check as every request does and is logged; only a WebSocket handshake
 * (GET, `Upgrade: websocket`, an origin-form target) to a dev server is forwarded.
 */
export function registerUpgrades(
  app: FastifyInstance,
  deps: GameHostDeps,
  logging: Pick<RequestLogging, 'recordRaw'>,
): void {
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
      logging.recordRaw({
        method: request.method ?? 'GET',
        url: request.url ?? '/',
        status,
        ms: performance.now() - started,
        reason,
      });
    };
    const refuse = (status: number, message: string, reason: string) => {
      told(status, reason);
      refuseUpgrade(socket, status, message);
    };
    socket.on('error', () => socket.destroy());
    if (!hostAnswered(app.server, request.headers.host, request.socket))
      return refuse(403, 'Forbidden', 'Host is not the sandbox (upgrade refused)');
    const target = request.url ?? '/';
    if (!target.startsWith('/'))
      return refuse(400, 'Bad Request', 'invalid parameter: request (not an origin-form target)');
    if (
      request.method !== 'GET' ||
      String(request.headers.upgrade ?? '')
        .trim()
        .toLowerCase() !== 'websocket'
    ) {
      return refuse(400, 'Bad Request', 'only WebSocket upgrades are forwarded');
    }
    // A page of another origin (another game's, another site's) may not open a socket here, as
    // cross-site requests cannot reach /_sandbox: a dev server's socket is the page's own.
    const origin = request.headers.origin;
    if (origin !== undefined && !sameOrigin(origin, request.headers.host)) {
      return refuse(
        403,
        'Forbidden',
        `forbidden: a WebSocket upgrade from another origin (${shownOrigin(origin)}) refused`,
      );
    }
    const { path, query } = splitTarget(target);
    const split = splitGamePath(path);
    const addressee = addresseeOf(deps, request.headers);
    if (addressee.kind === 'loopback') return refuse(404, 'Not Found', 'no game at this host name');
    let found: { game: GameRecord; source: ResolvedSource } | null = null;
    if (addressee.kind === 'game') {
      // A game's own name: its own source alone, whatever the path names.
      if (split !== null && split.gameId !== addressee.gameId)
        return refuse(404, 'Not Found', "another game's path at this host name");
      found = ownSource(deps, addressee.gameId);
    } else if (split !== null) {
      const game = deps.repos.games.find(split.gameId);
      const source = game === undefined ? null : deps.sources.resolve(game);
      if (game !== undefined && source !== null) found = { game, source };
    } else {
      // `/` too: Vite's client opens its socket at the root of the page's origin.
      found = lastSource(deps);
    }
    if (found === null || found.source.kind !== 'url')
      return refuse(404, 'Not Found', 'no dev server to forward the upgrade to');
    const { game, source } = found;
    const url =
      split === null
        ? `${source.origin}${target}`
        : `${source.prefix}${split.rest}${target.includes('?') ? `?${query}` : ''}`;
    proxyUpgrade(
      request,
      socket,
      head,
      proxyTarget(deps, request, game, source, url),
      deps.upstreamTimeoutMs,
      track,
      told,
    );
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
    return {
      dir: form.get('dir'),
      url: form.get('url'),
      connect: connect === undefined ? undefined : connect !== 'false' && connect !== '0',
    };
  }
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw new ApiFailure(400, 'invalid parameter: body (expected a JSON object {dir|url, connect})');
  return body as SourceBody;
}

/**
 * The setting a PUT asks for, checked: one of dir or url (or neither: the content URI), connect a
 * boolean; a dir only inside the folders allowed when the sandbox started.
 */
export function settingOf(body: SourceBody, allowed: AllowedDirs): GameSourceSetting {
  const connect = body.connect ?? true;
  if (typeof connect !== 'boolean')
    throw new GameSourceError(400, 'invalid parameter: connect (expected true or false)');
  if (body.dir !== undefined && body.url !== undefined)
    throw new GameSourceError(400, 'invalid parameter: dir and url cannot both be given');
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
  const entry = (game: GameRecord): GameSourceEntry => ({
    game_id: game.id,
    name: game.name,
    play_path: `${PLAY_PATH}/${encodeURIComponent(game.id)}`,
    source: deps.sources.view(game),
  });

  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: CONTROL_BODY_LIMIT },
      (_request, text, done) => {
        try {
          done(null, text === '' ? undefined : JSON.parse(text as string));
        } catch {
          done(new ApiFailure(400, 'invalid parameter: body (not JSON)'), undefined);
        }
      },
    );
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: CONTROL_BODY_LIMIT },
      (_request, text, done) => done(null, text),
    );

    registerAdminRoute(scope, {
      method: 'GET',
      path: '/game-sources',
      handler: (): GameSourceList => ({
        active_game_id: deps.sources.lastUsed(),
        games: deps.repos.games.list().map(entry),
      }),
    });
    registerAdminRoute(scope, {
      method: 'GET',
      path: '/game-sources/:gameId',
      handler: (request) => entry(gameOf(request)),
    });
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
