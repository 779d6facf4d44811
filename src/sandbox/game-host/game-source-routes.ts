/**
 * `/_sandbox/game-sources`: what serves each game's play page, read and set. These control
 * endpoints are the main listener's (src/sandbox/app/game-source-controls.ts registers them), not
 * the game host's.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PLAY_PATH } from '../constants.js';
import { registerAdminRoute } from '../http/admin.js';
import { ApiFailure } from '../http/failure.js';
import { parseQuery } from '../http/query.js';
import type { Repositories } from '../repositories/index.js';
import type { GameRecord } from '../repositories/games.js';
import type { GameSourceEntry, GameSourceList } from '../../domain/sandbox-admin-replies.js';
import type { AllowedDirs } from './allowed-dirs.js';
import { checkUrl, GameSourceError, type GameSources, type GameSourceSetting } from './sources.js';

const CONTROL_BODY_LIMIT = 16 * 1024;

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
