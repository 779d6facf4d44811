/**
 * The game host's own listener: a second Fastify app on a port of its own, started with the
 * sandbox, that serves game content and nothing else (see docs/SANDBOX-DESIGN.md, "Game content
 * runs on an origin of its own"). It has no /_sandbox route, no dashboard, no site and no API:
 * whatever a game's page (or a script it loads) asks of its own origin can only be the game's
 * files. It reaches the play page by postMessage and the API cross-origin (CORS), like a game on
 * the platform, whose games are served from a host of their own.
 *
 * Like the main listener it answers only requests addressed to it (Host), refuses a target that
 * is not origin-form, and logs every request (upgrades included) in the sandbox's request log.
 */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { clientErrorResponse } from '../http/client-error.js';
import { limitConnections } from '../http/connections.js';
import type { SlowBodyBounds } from '../http/slow-bodies.js';
import { escapeHtml } from '../http/html.js';
import { allowHostNames, addressedToSandbox, HOST_REFUSED, type HostNames } from '../http/host-check.js';
import { splitTarget } from '../http/query.js';
import type { RequestLogging } from '../http/request-log.js';
import { safeIsoTime } from '../time.js';
import { sendHostPage } from './pages.js';
import { registerFileRoutes } from './file-routes.js';
import type { GameHostDeps } from './serving.js';
import { registerUpgrades } from './upgrade-routing.js';
import { NO_SCHEMA_COMPILERS } from '../http/no-schemas.js';

export interface GameHostAppOptions extends Omit<GameHostDeps, 'notFound'> {
  requestTimeoutMs: number;
  maxConnections: number;
  /** A body arriving slower than this is cut with a 408 (http/slow-bodies.ts), as on the main listener. */
  slowBodies: SlowBodyBounds;
  bodyLimit: number;
  maxParamLength: number;
  /** Names answered besides the loopback ones and the listening address (the bound --host). */
  hostNames: HostNames;
  logging: Pick<RequestLogging, 'watch' | 'recordRaw'>;
  /** Where an unexpected error is told, one line. */
  log(line: string): void;
}

/** A request target that is not a path (absolute-form `http://host/x`, authority-form, `*`): 400. */
export function originForm(url: string): boolean {
  return url.startsWith('/');
}

export function buildGameHostApp(options: GameHostAppOptions): FastifyInstance {
  const app = Fastify({
    logger: false,
    requestTimeout: options.requestTimeoutMs,
    http: {
      headersTimeout: options.requestTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(options.requestTimeoutMs / 4))),
    },
    connectionTimeout: options.requestTimeoutMs * 2,
    bodyLimit: options.bodyLimit,
    schemaController: NO_SCHEMA_COMPILERS,
    exposeHeadRoutes: false,
    return503OnClosing: true,
    forceCloseConnections: true,
    routerOptions: { maxParamLength: options.maxParamLength, querystringParser: () => ({}) },
    clientErrorHandler: clientErrorResponse,
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) =>
      void sendHostPage(
        reply,
        400,
        'Bad request',
        `<p>${escapeHtml(error.message)}</p>`,
        `invalid parameter: path (${error.code})`,
      ),
  });
  options.logging.watch(app);
  allowHostNames(app.server, options.hostNames);
  app.addHook('onRequest', (request, reply, done) => {
    if (!addressedToSandbox(request)) {
      return void sendHostPage(reply, 403, 'Forbidden', `<p>${escapeHtml(HOST_REFUSED)}</p>`, HOST_REFUSED);
    }
    if (!originForm(request.url)) {
      return void sendHostPage(
        reply,
        400,
        'Bad request',
        '<p>The request target must be a path.</p>',
        'invalid parameter: request (not an origin-form target)',
      );
    }
    done();
  });

  const deps: GameHostDeps = {
    ...options,
    notFound: (_request, reply) =>
      sendHostPage(
        reply,
        404,
        'Nothing to serve',
        '<p>No game has been played yet, so no game server takes this path.</p>',
        'no game source for this path',
      ),
  };
  registerFileRoutes(app, deps);
  registerUpgrades(app, deps, options.logging);
  app.setNotFoundHandler((request, reply) => deps.notFound(request, reply));
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500)
      return sendHostPage(
        reply,
        status,
        'Bad request',
        `<p>${escapeHtml(error.message)}</p>`,
        `invalid parameter: request (${error.code ?? status})`,
      );
    try {
      options.log(
        `${safeIsoTime(Date.now())} 500 ${request.method} ${splitTarget(request.url).path}: ${error.name}: ${error.message}`.replace(
          /\s+/g,
          ' ',
        ),
      );
    } catch {
      // Telling failed; the reply still goes out.
    }
    return sendHostPage(
      reply,
      500,
      'The sandbox failed',
      '<p>The game host could not answer; the sandbox log says why.</p>',
      'internal error',
    );
  });
  limitConnections(app.server, options.maxConnections, options.slowBodies);
  return app;
}
