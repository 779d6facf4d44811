/**
 * The game host's HTTP routes: a game's files at `/play/{game_id}/game/*`, and any other path (a
 * game page's root-absolute reference) from the source of the game the request is addressed to
 * (addressing.ts). They live in a plugin whose content-type parser hands the body over unread,
 * so the proxy streams it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PLAY_PATH } from '../constants.js';
import { splitTarget } from '../http/query.js';
import { noteReason } from '../http/request-notes.js';
import type { GameRecord } from '../repositories/games.js';
import { addresseeOf, gameOrigin, hostPort, splitGamePath } from './addressing.js';
import { gameMissingPage, noSourcePage, sendHostPage } from './pages.js';
import { proxy } from './proxy.js';
import { lastSource, ownSource, proxyTarget, type GameHostDeps } from './serving.js';
import type { ResolvedSource } from './sources.js';
import { serveFromDir } from './static.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

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
