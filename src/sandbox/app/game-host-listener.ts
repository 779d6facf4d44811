/**
 * The game host's own listener (game-host/app.ts: game content on an origin of its own), made
 * beside the main app, which gameHostOf(app).listen starts on its own port and which closes with
 * the app. The main listener keeps only a 307 from an old link to a game's files there.
 */
import type { FastifyInstance } from 'fastify';
import { PLAY_PATH } from '../constants.js';
import { fromBrowser } from '../game-host/addressing.js';
import { buildGameHostApp } from '../game-host/app.js';
import { labelOfName, PLAY_HOST_NAME } from '../game-host/game-names.js';
import { DEFAULT_UPSTREAM_TIMEOUT_MS } from '../game-host/index.js';
import { connectTag } from '../game-host/inject.js';
import { hostName } from '../http/host-check.js';
import { BODY_LIMIT_BYTES } from '../http/request-parameters.js';
import { MAX_PARAM_LENGTH } from './options.js';
import type { AppParts } from './parts.js';
import { perApp } from './per-app.js';

/** The game host's listener that buildApp makes beside the app (see game-host/app.ts). */
export interface GameHostListener {
  app: FastifyInstance;
  /** Starts it on `port` (0: any free port) at `host`; resolves with the port. */
  listen(port: number, host: string): Promise<number>;
  /** Its port once it listens, else null. */
  port(): number | null;
}

const gameHosts = perApp<GameHostListener>('gameHostOf');

/** The game host listener of an app buildApp made. */
export const gameHostOf = (app: FastifyInstance): GameHostListener => gameHosts.of(app);

export function registerGameHost(app: FastifyInstance, parts: AppParts): void {
  const { options, settings, gameOrigins } = parts;
  // Game content is served by a listener of its own (game-host/app.ts); this one only points there.
  const mainPort = (): number | null => {
    const address = app.server.address();
    return address !== null && typeof address === 'object' ? address.port : null;
  };
  // The main origin a game page loads connect.js from: on a game's own name, the play page's.
  const mainHostFor = (host: string | undefined): string => {
    const name = hostName(host ?? 'localhost');
    return labelOfName(name) !== null ? PLAY_HOST_NAME : name;
  };
  const gameApp = buildGameHostApp({
    repos: parts.db.repos,
    sources: parts.gameSources,
    upstreamTimeoutMs: options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS,
    insecure: options.insecureGameHost === true,
    tag: (request) => connectTag(`http://${mainHostFor(request.headers.host)}:${mainPort() ?? 0}`),
    requestTimeoutMs: settings.requestTimeoutMs,
    maxConnections: settings.maxConnections,
    slowBodies: settings.slowBodies,
    bodyLimit: BODY_LIMIT_BYTES,
    maxParamLength: MAX_PARAM_LENGTH,
    hostNames: {
      names: options.hostNames?.names ?? [],
      matches: (name) => name === PLAY_HOST_NAME || labelOfName(name) !== null,
    },
    logging: parts.logging,
    log: settings.log,
  });
  gameHosts.keep(app, {
    app: gameApp,
    async listen(port, host) {
      await gameApp.listen({ port, host });
      const { port: gamePort } = gameApp.server.address() as { port: number };
      gameOrigins.listening(gamePort);
      return gamePort;
    },
    port: () => gameOrigins.port(),
  });
  app.addHook('onClose', async () => {
    await gameApp.close();
  });
  // An old link to a game's files here: the same path on the game host.
  app.route({
    method: ['GET', 'HEAD'],
    url: `${PLAY_PATH}/:gameId/game*`,
    handler: (request, reply) => {
      const origin = gameOrigins.of(
        request.headers.host,
        (request.params as { gameId: string }).gameId,
        fromBrowser(request.headers),
      );
      if (origin === null) return parts.unrouted.notFound(request, reply);
      return reply.code(307).header('location', `${origin}${request.url}`).header('cache-control', 'no-store').send();
    },
  });
}
