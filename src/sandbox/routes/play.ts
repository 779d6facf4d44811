/**
 * The play page of the sandbox site, `GET /play/{game_id}`: the platform's game page (spec 1.1,
 * docs/PLATFORM.md "The game page around the game"). It shows the game's name, who is logged in and a
 * user switcher, and iframes the game with a fresh `user_id` and `auth_token` appended on every
 * load, exactly as the platform does. Around the game it gives what the platform's page gives:
 * `parent.apiAuth` and `parent.agi` (`/_sandbox/platform.js`: the store, quest notices, the
 * purchase handler), which a game reaches through the connect script's stand-in `parent`
 * (postMessage). The game is served by the game host, an origin of its own, when it can be
 * (`frameSrc`: a game directory, a proxied dev server or content URI); `?direct=1` iframes the
 * content URI itself, as the platform does, for a game that includes `/_sandbox/connect.js` on
 * its own server.
 *
 * Its parts are in src/sandbox/play-page/: the HTML around it (template.ts, style.ts), switching
 * users (user-switch.ts: the login is a form POST to `/play/{game_id}/login`, answered here) and
 * the game's own view (game-view.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PLAY_PATH } from '../constants.js';
import { ApiFailure, shown } from '../http/failure.js';
import { parseQuery, splitTarget } from '../http/query.js';
import { refuseCrossSite } from '../http/cross-site.js';
import type { PlayDeps } from '../play-page/deps.js';
import { gamePage } from '../play-page/game-view.js';
import { errorBody, gamesListHtml, playHref, sendPage, withFlags } from '../play-page/template.js';
import { confirmPage, currentUser, pageFlags, pickUserPage, unknownUser } from '../play-page/user-switch.js';
import { sessionCookieHeader } from './session-cookie.js';
import { startSession } from './site.js';

function methodCheck(request: FastifyRequest, reply: FastifyReply, deps: PlayDeps): FastifyReply | null {
  if (request.method === 'GET' || request.method === 'HEAD') return null;
  reply.header('allow', 'GET, HEAD');
  return sendPage(
    reply,
    405,
    'Method not allowed',
    errorBody('Method not allowed', `${shown(request.method, 16)}: the play page answers GET only.`, deps),
  );
}

function gameNotFound(reply: FastifyReply, deps: PlayDeps, gameId: string): FastifyReply {
  return sendPage(
    reply,
    404,
    'Game not found',
    errorBody('Game not found', `There is no game ${shown(gameId)} in this sandbox.`, deps),
  );
}

export function registerPlayRoutes(app: FastifyInstance, deps: PlayDeps): void {
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

  // The user switch: a form POST (username=NAME), then back to the page, so a reload keeps the user.
  app.route<{ Params: { gameId: string } }>({
    method: methods,
    url: `${PLAY_PATH}/:gameId/login`,
    handler: async (request, reply) => {
      if (request.method !== 'POST') {
        reply.header('allow', 'POST');
        return sendPage(
          reply,
          405,
          'Method not allowed',
          errorBody('Method not allowed', 'Switching users is a form POST.', deps),
        );
      }
      const gameId = (request.params as { gameId: string }).gameId;
      const game = deps.repos.games.find(gameId);
      if (!game) return gameNotFound(reply, deps, gameId);
      let username: string | undefined;
      let flags: string;
      try {
        refuseCrossSite(request, 'a login');
        username = parseQuery(typeof request.body === 'string' ? request.body : '').get('username');
        flags = pageFlags(splitTarget(request.url).query);
      } catch (error) {
        if (!(error instanceof ApiFailure)) throw error;
        return sendPage(
          reply,
          error.code,
          error.code === 403 ? 'Forbidden' : 'Bad request',
          errorBody(error.code === 403 ? 'Forbidden' : 'Bad request', error.message, deps),
        );
      }
      if (username === undefined)
        return sendPage(reply, 400, 'Bad request', errorBody('Bad request', 'missing parameter: username', deps));
      const user = deps.repos.users.findByUsername(username);
      if (!user) return unknownUser(reply, deps, game, username, flags);
      return reply
        .code(303)
        .header('set-cookie', sessionCookieHeader(request, deps, await startSession(deps, user.uid)))
        .header('cache-control', 'no-store')
        .header('location', withFlags(playHref(game.id), flags))
        .send();
    },
  });

  app.route({
    method: methods,
    url: PLAY_PATH,
    handler: (request, reply) =>
      methodCheck(request, reply, deps) ??
      sendPage(
        reply,
        200,
        'Play · udcli sandbox',
        `<main><div class="box"><h1>Play a game</h1>${gamesListHtml(deps)}</div></main>`,
      ),
  });

  app.route<{ Params: { gameId: string } }>({
    method: methods,
    url: `${PLAY_PATH}/:gameId`,
    handler: async (request, reply) => {
      const refused = methodCheck(request, reply, deps);
      if (refused) return refused;
      const gameId = (request.params as { gameId: string }).gameId;
      const game = deps.repos.games.find(gameId);
      if (!game) return gameNotFound(reply, deps, gameId);
      let as: string | undefined;
      let direct = false;
      let flags: string;
      try {
        const rawQuery = splitTarget(request.url).query;
        const query = parseQuery(rawQuery);
        as = query.get('as');
        direct = query.has('direct') && query.get('direct') !== '0';
        flags = pageFlags(rawQuery);
      } catch (error) {
        if (!(error instanceof ApiFailure)) throw error;
        return sendPage(reply, error.code, 'Bad request', errorBody('Bad request', error.message, deps));
      }
      // On the games' site, so that the game's frame is not a third-party one (?direct=1 frames
      // the content URI, another site anyway). The login is made there too.
      const moved = direct ? null : (deps.playOrigin?.(request) ?? null);
      if (moved !== null)
        return reply.code(307).header('location', `${moved}${request.url}`).header('cache-control', 'no-store').send();
      const user = currentUser(request, deps);
      if (as !== undefined) {
        const wanted = deps.repos.users.findByUsername(as);
        if (!wanted) return unknownUser(reply, deps, game, as, flags);
        return sendPage(reply, 200, `${game.name} · udcli sandbox`, confirmPage(deps, game, wanted, user, flags));
      }
      if (!user) return sendPage(reply, 200, `${game.name} · udcli sandbox`, pickUserPage(deps, game, flags));
      const { status, body, head } = await gamePage(deps, request, game, user, direct, flags);
      return sendPage(reply, status, `${game.name} · udcli sandbox`, body, head);
    },
  });
}
