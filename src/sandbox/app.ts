/**
 * Builds the sandbox HTTP app (does not listen): the API, the site, its play page and the
 * dashboard, each piece registered by one line below (src/sandbox/app/ holds the pieces). Beside
 * it, the game host's own app (game-host/app.ts: game content on an origin of its own), which
 * gameHostOf(app).listen starts on its own port and which closes with the app.
 */
import type { FastifyInstance } from 'fastify';
import { limitConnections } from './http/connections.js';
import { installLatency } from './http/latency.js';
import { installRequestLog } from './http/request-log.js';
import { registerDashboard } from './dashboard/page.js';
import { registerGamePageRoutes } from './game-page/routes.js';
import { recordedOrigin } from './origin.js';
import { registerClockRoutes } from './routes/clock.js';
import { registerContentsRoute } from './routes/contents.js';
import { registerFaultRoutes } from './routes/faults.js';
import { API_ROUTES } from './routes/index.js';
import { registerOpenApiRoutes } from './routes/openapi.js';
import { registerResetRoute } from './routes/reset.js';
import { registerWorkerRoutes } from './routes/workers.js';
import { registerApi, serveKeptApiReads } from './app/api-routes.js';
import { keepControls } from './app/controls.js';
import { answerErrors } from './app/error-replies.js';
import { createFastify } from './app/fastify-instance.js';
import { keepFormBodiesAsText } from './app/form-bodies.js';
import { registerGameHost } from './app/game-host-listener.js';
import { registerGameSourceControls } from './app/game-source-controls.js';
import { settingsOf, type BuildAppOptions } from './app/options.js';
import { makeParts } from './app/parts.js';
import { guardEveryRequest } from './app/request-gate.js';
import { registerSitePages } from './app/site-pages.js';

export type { BuildAppOptions } from './app/options.js';
export { controlsOf, type SandboxControls } from './app/controls.js';
export { gameHostOf, type GameHostListener } from './app/game-host-listener.js';

export function buildApp(options: BuildAppOptions): FastifyInstance {
  const settings = settingsOf(options);
  const { db } = options;
  const app = createFastify(options.logger ?? false, settings);
  // First, so that its hook sees every route, the not-found handler included.
  const logging = installRequestLog(app, {
    ...(options.requestLines ? { lines: options.requestLines } : {}),
    ...(options.challengeHoldMs === undefined ? {} : { challengeHoldMs: options.challengeHoldMs }),
  });
  guardEveryRequest(app, options.hostNames);
  installLatency(app, options.latencyMs ?? 0);
  keepFormBodiesAsText(app);
  const parts = makeParts(options, settings, logging);
  keepControls(app, { clock: parts.virtualClock, requestLog: logging.log });

  // The routes, one line each; Fastify routes by path, so their order is no precedence.
  registerApi(app, parts);
  registerSitePages(app, parts);
  registerDashboard(app, db.repos);
  registerGamePageRoutes(app);
  registerOpenApiRoutes(app, API_ROUTES);
  registerFaultRoutes(app, parts.faults);
  registerClockRoutes(app, parts.virtualClock);
  registerContentsRoute(app, db);
  registerResetRoute(app, db, options.startedWith ?? { origin: recordedOrigin(db) ?? { kind: 'demo' } });
  registerWorkerRoutes(app, db, parts.virtualClock);
  registerGameHost(app, parts);
  registerGameSourceControls(app, parts);

  app.setNotFoundHandler(parts.unrouted.notFound);
  answerErrors(app, parts.unrouted, settings.log);
  serveKeptApiReads(app, parts);
  limitConnections(app.server, settings.maxConnections, settings.slowBodies);
  return app;
}
