/**
 * The sandbox's site: its own pages (login, token generator, avatars, status: routes/site.ts) and
 * the play page (routes/play.ts), whose iframe points at the game host.
 */
import type { FastifyInstance } from 'fastify';
import { iframeUrl } from '../content-uri.js';
import { fromBrowser } from '../game-host/addressing.js';
import { isLoopbackName, PLAY_HOST_NAME } from '../game-host/game-names.js';
import { hostName, hostsOfUrl } from '../http/host-check.js';
import { defaultDatabasePath } from '../paths.js';
import { registerPlayRoutes } from '../routes/play.js';
import { registerSiteRoutes } from '../routes/site.js';
import type { AppParts } from './parts.js';

export function registerSitePages(app: FastifyInstance, parts: AppParts): void {
  const { db, options, gameOrigins, gameSources } = parts;
  const clock = parts.virtualClock.now;
  const siteDeps = {
    repos: db.repos,
    clock,
    tokenTtlSeconds: parts.settings.tokenTtlSeconds,
    startedAtMs: clock(),
    // Reached over https there: the login cookie may be a `__Host-` one (routes/session-cookie.ts).
    httpsHosts: options.publicOrigin?.startsWith('https:') ? hostsOfUrl(options.publicOrigin) : [],
  };
  registerSiteRoutes(app, { ...siteDeps, dbPath: db.path });
  registerPlayRoutes(app, {
    ...siteDeps,
    dbPath: db.path,
    defaultDbPath: options.defaultDbPath ?? defaultDatabasePath(),
    frameSrc: (request, game, userId, authToken) => {
      const origin = gameOrigins.of(request.headers.host, game.id, true);
      const path = gameSources.framePath(game);
      return origin === null || path === null ? null : iframeUrl(`${origin}${path}`, userId, authToken);
    },
    playOrigin: (request) => {
      const host = request.headers.host;
      if (host === undefined || !fromBrowser(request.headers)) return null;
      const name = hostName(host);
      return name === PLAY_HOST_NAME || !isLoopbackName(name)
        ? null
        : `http://${PLAY_HOST_NAME}${host.slice(name.length)}`;
    },
  });
}
