/**
 * Builds the sandbox HTTP app (does not listen): the API, the site, its play page and the dashboard. One
 * error shape for everything under /services/rest/v1 and for unknown paths: the envelope, never
 * a stack trace. Framework errors (bad URL encoding, oversized bodies, malformed HTTP) become
 * 4xx envelopes too. (The play page answers its own errors in HTML.) Beside it, the game host's
 * own app (game-host/app.ts: game content on an origin of its own), which gameHostOf(app).listen
 * starts on its own port and which closes with the app.
 */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { SERVER_BUSY_TIMEOUT_MS, type SandboxDatabase } from './database.js';
import { isBusy } from './http/busy.js';
import { formatOfPath } from './http/envelope.js';
import { clientErrorResponse } from './http/client-error.js';
import { ApiFailure, fail, shown } from './http/failure.js';
import { allowHeader, apiPathMatcher, registerApiRoutes, sendFailure } from './http/pipeline.js';
import { splitTarget } from './http/query.js';
import { BODY_LIMIT_BYTES, FORM_CONTENT_TYPE, UnreadBody } from './http/request-parameters.js';
import { createChallengeStore, type ChallengeStore } from './http/challenges.js';
import { createUsedSignatures } from './http/used-signatures.js';
import { createRateLimiter } from './http/rate-limit.js';
import { limitConnections } from './http/connections.js';
import type { SlowBodyBounds } from './http/slow-bodies.js';
import { serveKeptReads } from './http/kept-reads.js';
import { registerDashboard } from './dashboard/page.js';
import { cachedKeyLookup, dataVersionOf } from './repositories/key-cache.js';
import { createReplyCache } from './http/reply-cache.js';
import { installRequestLog, type RequestLog } from './http/request-log.js';
import { installLatency } from './http/latency.js';
import { addCorsHeaders, CORS_HEADERS, isApiTarget, isPreflight, sendPreflight } from './http/cors.js';
import { addressedToSandbox, allowHostNames, HOST_REFUSED, hostsOfUrl, type HostNames } from './http/host-check.js';
import { noteReason } from './http/request-notes.js';
import { API_ROUTES } from './routes/index.js';
import { registerOpenApiRoutes } from './routes/openapi.js';
import { registerPlayRoutes } from './routes/play.js';
import { registerSiteRoutes } from './routes/site.js';
import { defaultDatabasePath } from './paths.js';
import { safeIsoTime, systemClock } from './time.js';
import { createVirtualClock, type VirtualClock } from './virtual-clock.js';
import { createFaultInjector } from './faults/injector.js';
import type { FaultSpec } from './faults/spec.js';
import { registerFaultRoutes } from './routes/faults.js';
import { registerClockRoutes } from './routes/clock.js';
import { registerResetRoute, type LoadedData } from './routes/reset.js';
import { registerContentsRoute } from './routes/contents.js';
import { registerWorkerRoutes } from './routes/workers.js';
import { recordedOrigin } from './origin.js';
import { registerGamePageRoutes } from './game-page/routes.js';
import {
  createGameSources,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
  GameSourceError,
  type GameSourceSetting,
} from './game-host/index.js';
import { buildGameHostApp, originForm } from './game-host/app.js';
import { createAllowedDirs } from './game-host/allowed-dirs.js';
import { connectTag } from './game-host/inject.js';
import { fromBrowser, gameOrigin as ownGameOrigin } from './game-host/addressing.js';
import { registerGameSourceRoutes } from './game-host/game-source-routes.js';
import { isLoopbackName, labelOfName, PLAY_HOST_NAME } from './game-host/game-names.js';
import { iframeUrl } from './content-uri.js';
import { hostName } from './http/host-check.js';
import { PLAY_PATH } from './constants.js';

/** What an error handler returns: the reply, sent now or once a write settles. */
type Answered = FastifyReply | Promise<FastifyReply>;

export interface BuildAppOptions {
  db: SandboxDatabase;
  /** Lifetime of tokens from the token generator; default 900 s. */
  tokenTtlSeconds?: number;
  /** Requests per second per api_key (or per client address without a key); unset = no limit. */
  rateLimitPerSecond?: number;
  /**
   * The real clock (ms since the epoch) under the virtual one that `/_sandbox/clock` moves: tests
   * move it to check expiry and the timestamp window.
   */
  nowMs?: () => number;
  /** Faults to inject into /services/rest/v1 replies (`--faults`), drawn from a PRNG with this seed. */
  faults?: { spec: FaultSpec; seed: number };
  /** Fastify's logger (pino, to stdout). Off by default: the sandbox also runs embedded in the CLI. */
  logger?: boolean;
  /**
   * Where unexpected errors (the 500s) are told, one line each: method, path (never the query,
   * which holds keys and signatures) and the error. Default: nowhere (startSandbox passes stderr).
   */
  log?: (line: string) => void;
  /**
   * Where the request log's lines go (one per request: time, method, path, status, ms, the
   * failure reason; secrets redacted), a batch of whole lines at a time. Default: nowhere (the
   * log is still kept for `GET /_sandbox/requests`).
   */
  requestLines?: (text: string) => void;
  /** How long a challenge's line waits for its signed retry's (request-log.ts, CHALLENGE_HOLD_MS: the default). */
  challengeHoldMs?: number;
  /** A request must arrive whole (headers and body) within this; else 408 and the socket is closed. Default 30 s. */
  requestTimeoutMs?: number;
  /**
   * Open connections at most, so slow or idle clients cannot use up file descriptors; a new one
   * beyond closes the longest idle, else the one whose body has been arriving the longest
   * (http/connections.ts). Default 256.
   */
  maxConnections?: number;
  /**
   * A request body still arriving after this long must have come at minBodyBytesPerSecond on
   * average, else 408 (http/slow-bodies.ts). Default 10 s.
   */
  bodyGraceMs?: number;
  /** See bodyGraceMs. Default 1024 bytes/s; 0: no minimum (only requestTimeoutMs bounds a body). */
  minBodyBytesPerSecond?: number;
  /**
   * The database `udcli sandbox game set-uri` uses without --db (for the play page's hint); default from the
   * environment.
   */
  defaultDbPath?: string;
  /** The agi challenge store; tests hand in one that issues the worked examples' sessions and keys. */
  challenges?: ChallengeStore;
  /**
   * The origin of absolute URLs in replies (avatars), e.g. the configured base URL when the sandbox
   * runs embedded on a throw-away port; default: the origin each request came to.
   */
  publicOrigin?: string;
  /**
   * Where games' files come from at start (`--game-dir` / `--game-url`), per game id; a game
   * without one is served from its content URI. Changed later through `/_sandbox/game-sources`.
   */
  gameSources?: ReadonlyArray<[string, GameSourceSetting]>;
  /** A game's dev server must send its reply headers within this; else a 504 page. Default 15 s. */
  upstreamTimeoutMs?: number;
  /** `--insecure-game-host`: a dev server's https certificate is not checked (a self-signed one). */
  insecureGameHost?: boolean;
  /**
   * The folders a game may be served from (game-host/allowed-dirs.ts): `allowed`, the ones given
   * at start (`--game-dir`, `--allow-game-dir`), within which `/_sandbox/game-sources` may set
   * one; `own`, udcli's config and data folders, never served. Default: the start's game dirs,
   * and no own folders beyond the home rule.
   */
  gameDirs?: { allowed: readonly string[]; own: readonly string[]; home?: string };
  /**
   * Further Host header values answered besides localhost, 127.0.0.1, [::1] and the address a
   * request came to (http/host-check.ts): the bound --host, and --public-url's.
   */
  hostNames?: HostNames;
  /**
   * What `POST /_sandbox/reset` without fields returns to (with a data file's checked contents); default: the recorded
   * origin.
   */
  startedWith?: LoadedData;
  /** `--latency`: every API reply is held this many ms before it goes out (http/latency.ts); default 0. */
  latencyMs?: number;
}

export const DEFAULT_TOKEN_TTL_SECONDS = 900;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_CONNECTIONS = 256;
export const DEFAULT_BODY_GRACE_MS = 10_000;
export const DEFAULT_MIN_BODY_BYTES_PER_SECOND = 1024;
export { BODY_LIMIT_BYTES };
const MAX_PARAM_LENGTH = 256;

/** The game host's listener that buildApp makes beside the app (see game-host/app.ts). */
export interface GameHostListener {
  app: FastifyInstance;
  /** Starts it on `port` (0: any free port) at `host`; resolves with the port. */
  listen(port: number, host: string): Promise<number>;
  /** Its port once it listens, else null. */
  port(): number | null;
}

const gameHosts = new WeakMap<FastifyInstance, GameHostListener>();

/**
 * What the routes `/_sandbox/clock` and `/_sandbox/requests` act on, for a caller in the same process (the
 * `udcli/sandbox` API, src/sandbox/api/): the same clock and log those routes move and read, reached without a request
 * of its own in the log.
 */
export interface SandboxControls {
  clock: VirtualClock;
  requestLog: RequestLog;
}

const controls = new WeakMap<FastifyInstance, SandboxControls>();

/** The clock and request log of an app buildApp made. */
export function controlsOf(app: FastifyInstance): SandboxControls {
  const found = controls.get(app);
  if (found === undefined) throw new Error('controlsOf: not an app of buildApp');
  return found;
}

/** The game host listener of an app buildApp made. */
export function gameHostOf(app: FastifyInstance): GameHostListener {
  const listener = gameHosts.get(app);
  if (listener === undefined) throw new Error('gameHostOf: not an app of buildApp');
  return listener;
}

/**
 * An unexpected error as one line (the README's promise): its name, message and where it was
 * thrown (the stack's first frame), never the whole stack.
 */
export function oneLine(error: unknown): string {
  if (!(error instanceof Error)) return String(error).replace(/\s+/g, ' ');
  const frame = /\n\s+at (.+)/.exec(error.stack ?? '')?.[1];
  return `${error.name}: ${error.message}${frame === undefined ? '' : ` (at ${frame})`}`.replace(/\s+/g, ' ');
}

export function buildApp(options: BuildAppOptions): FastifyInstance {
  const { db } = options;
  const virtualClock = createVirtualClock(options.nowMs ?? systemClock);
  const clock = virtualClock.now;
  const rateLimit = options.rateLimitPerSecond;
  if (rateLimit !== undefined && !(Number.isInteger(rateLimit) && rateLimit > 0)) {
    throw new RangeError(`rateLimitPerSecond must be a positive integer, got ${rateLimit}`);
  }
  const tokenTtlSeconds = options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS;
  if (!(Number.isInteger(tokenTtlSeconds) && tokenTtlSeconds > 0)) {
    throw new RangeError(`tokenTtlSeconds must be a positive integer, got ${tokenTtlSeconds}`);
  }

  const formatOf = (request: FastifyRequest) => formatOfPath(splitTarget(request.url).path);
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const slowBodies = slowBodyBounds(options);
  for (const [gameId] of options.gameSources ?? []) {
    if (!db.repos.games.find(gameId))
      throw new GameSourceError(404, `no game ${JSON.stringify(gameId)} in the sandbox database`);
  }
  const gameSources = createGameSources(options.gameSources);
  const log = options.log ?? (() => undefined);

  const app = Fastify({
    logger: options.logger ?? false,
    // Node answers 408 (through clientErrorHandler) to a request not whole in time; it looks
    // at its connections every connectionsCheckingInterval, so that is kept well below the timeout.
    requestTimeout: requestTimeoutMs,
    http: {
      headersTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(requestTimeoutMs / 4))),
    },
    // A socket silent this long (no request at all, or idle between them) is closed.
    connectionTimeout: requestTimeoutMs * 2,
    bodyLimit: BODY_LIMIT_BYTES,
    exposeHeadRoutes: false,
    return503OnClosing: true,
    forceCloseConnections: true,
    routerOptions: {
      maxParamLength: MAX_PARAM_LENGTH,
      // The pipeline parses the query itself (signatures need it exactly as sent).
      querystringParser: () => ({}),
    },
    clientErrorHandler: clientErrorResponse,
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      // Answered before routing, so no hook runs: the preflight and the CORS headers are done here.
      if (isPreflight(request)) return void sendPreflight(addCorsHeaders(request, reply));
      const failure =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? fail.invalidParameter('path', 'too long')
          : fail.invalidParameter('path', 'bad URL encoding');
      void sendFailure(addCorsHeaders(request, reply), formatOf(request), failure);
    },
  });

  // First, so that its hook sees every route, the not-found handler included.
  const logging = installRequestLog(app, {
    ...(options.requestLines ? { lines: options.requestLines } : {}),
    ...(options.challengeHoldMs === undefined ? {} : { challengeHoldMs: options.challengeHoldMs }),
  });
  // Before anything answers (a preflight included): every route is the sandbox's, the API and
  // the site alike (DNS rebinding, http/host-check.ts).
  // sandbox.localhost: the play page's name for a browser (game-host/game-names.ts).
  allowHostNames(app.server, { ...options.hostNames, matches: (name) => name === PLAY_HOST_NAME });
  // One callback hook for what every request goes through first (a callback hook, not an async one:
  // an async hook costs each request a promise and a turn of the microtask queue). It answers by
  // sending, without calling done.
  app.addHook('onRequest', (request, reply, done) => {
    const api = isApiTarget(request.url);
    // Set now, every API reply carries them, whatever answers it: a handler, an error, a refusal here (cors.ts).
    if (api) reply.headers(CORS_HEADERS);
    if (!addressedToSandbox(request)) {
      const failure = new ApiFailure(403, HOST_REFUSED);
      if (api) return void sendFailure(reply, formatOf(request), failure);
      noteReason(request, failure.message);
      return void reply
        .code(403)
        .header('cache-control', 'no-store')
        .send({ status: false, code: 403, message: failure.message });
    }
    if (!originForm(request.url)) {
      // `GET http://host/x HTTP/1.1`: a proxy's form, never a browser's to a server. One 400, as any bad request.
      const failure = fail.invalidParameter('request', 'the target must be a path, not an absolute URL');
      noteReason(request, failure.message);
      return void sendFailure(reply, formatOf(request), failure);
    }
    // A preflight is answered before anything else runs: it is no call (no fault drawn, no rate limit counted).
    if (api && request.method === 'OPTIONS') return void sendPreflight(reply);
    done();
  });
  installLatency(app, options.latencyMs ?? 0);

  // Parameters travel in the query string or a form body (the platform's SDK sends its PUTs as
  // form-encoded POSTs, a game save's data in the body): the form is kept as text, parsed by the
  // pipeline beside the query (signatures need both as sent). Any other body is read (bounded) and
  // left unread: a POST carrying one is 415, its parameters would be lost.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    FORM_CONTENT_TYPE,
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (_request, body, done) => done(null, body),
  );
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES }, (request, body, done) =>
    done(null, (body as Buffer).length === 0 ? undefined : new UnreadBody(request.headers['content-type'] ?? '')),
  );

  const faults = createFaultInjector(options.faults?.spec ?? null, options.faults?.seed ?? null);
  // From here on the thread never waits on another process's lock for more than a few ms.
  db.setBusyTimeout(SERVER_BUSY_TIMEOUT_MS);
  const replies = createReplyCache(dataVersionOf(db.sqlite));
  const rateLimiter = rateLimit === undefined ? null : createRateLimiter(rateLimit);
  registerApiRoutes(app, API_ROUTES, {
    repos: db.repos,
    keys: cachedKeyLookup(db.sqlite, db.repos.games),
    db,
    clock,
    rateLimiter,
    challenges: options.challenges ?? createChallengeStore(),
    // Kept by the real clock, under the virtual one (used-signatures.ts says why).
    signatures: createUsedSignatures(db.repos.usedSignatures, options.nowMs ?? systemClock),
    faults,
    replies,
    ...(options.publicOrigin === undefined ? {} : { publicOrigin: options.publicOrigin }),
  });
  const siteDeps = {
    repos: db.repos,
    clock,
    tokenTtlSeconds,
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
      const origin = gameOrigin(request.headers.host, game.id, true);
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
  registerDashboard(app, db.repos);
  registerGamePageRoutes(app);
  registerOpenApiRoutes(app, API_ROUTES);
  registerFaultRoutes(app, faults);
  registerClockRoutes(app, virtualClock);
  controls.set(app, { clock: virtualClock, requestLog: logging.log });
  registerContentsRoute(app, db);
  registerResetRoute(app, db, options.startedWith ?? { origin: recordedOrigin(db) ?? { kind: 'demo' } });
  registerWorkerRoutes(app, db, virtualClock);

  const matchApiPath = apiPathMatcher(API_ROUTES);
  // A path of ours with a verb Fastify does not route (TRACE, PROPFIND, ...): 405, not 404.
  const unrouted = (request: FastifyRequest): ApiFailure => {
    const { path } = splitTarget(request.url);
    const route = matchApiPath(path);
    return route ? fail.methodNotAllowed(request.method, allowHeader(route)) : fail.notFound(`path ${shown(path)}`);
  };
  const notFound = (request: FastifyRequest, reply: FastifyReply) =>
    sendFailure(reply, formatOf(request), unrouted(request));
  app.setNotFoundHandler(notFound);
  // Game content is served by a listener of its own (game-host/app.ts); this one only points there.
  const mainPort = (): number | null => {
    const address = app.server.address();
    return address !== null && typeof address === 'object' ? address.port : null;
  };
  let gamePort: number | null = null;
  // A game's own origin (game-host/game-names.ts) for a browser that reached a loopback name; on
  // any other name (a bound --host, from another machine) `*.localhost` would be that machine, and a
  // tool may not resolve it (game-host/addressing.ts, fromBrowser): the one shared origin there.
  const gameOrigin = (host: string | undefined, gameId: string, browser: boolean): string | null => {
    if (host === undefined || gamePort === null) return null;
    return browser && isLoopbackName(hostName(host))
      ? ownGameOrigin(gameId, gamePort)
      : `http://${hostName(host)}:${gamePort}`;
  };
  // The main origin a game page loads connect.js from: on a game's own name, the play page's.
  const mainHostFor = (host: string | undefined): string => {
    const name = hostName(host ?? 'localhost');
    return labelOfName(name) !== null ? PLAY_HOST_NAME : name;
  };
  const gameApp = buildGameHostApp({
    repos: db.repos,
    sources: gameSources,
    upstreamTimeoutMs: options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS,
    insecure: options.insecureGameHost === true,
    tag: (request) => connectTag(`http://${mainHostFor(request.headers.host)}:${mainPort() ?? 0}`),
    requestTimeoutMs,
    maxConnections: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    slowBodies,
    bodyLimit: BODY_LIMIT_BYTES,
    maxParamLength: MAX_PARAM_LENGTH,
    hostNames: {
      names: options.hostNames?.names ?? [],
      matches: (name) => name === PLAY_HOST_NAME || labelOfName(name) !== null,
    },
    logging,
    log,
  });
  gameHosts.set(app, {
    app: gameApp,
    async listen(port, host) {
      await gameApp.listen({ port, host });
      gamePort = (gameApp.server.address() as { port: number }).port;
      return gamePort;
    },
    port: () => gamePort,
  });
  app.addHook('onClose', async () => {
    await gameApp.close();
  });
  registerGameSourceRoutes(app, {
    repos: db.repos,
    sources: gameSources,
    allowed: createAllowedDirs({
      allowed:
        options.gameDirs?.allowed ??
        (options.gameSources ?? []).flatMap(([, setting]) => (setting.kind === 'dir' ? [setting.root] : [])),
      own: options.gameDirs?.own ?? [],
      ...(options.gameDirs?.home === undefined ? {} : { home: options.gameDirs.home }),
    }),
  });
  // An old link to a game's files here: the same path on the game host.
  app.route({
    method: ['GET', 'HEAD'],
    url: `${PLAY_PATH}/:gameId/game*`,
    handler: (request, reply) => {
      const origin = gameOrigin(
        request.headers.host,
        (request.params as { gameId: string }).gameId,
        fromBrowser(request.headers),
      );
      if (origin === null) return notFound(request, reply);
      return reply.code(307).header('location', `${origin}${request.url}`).header('cache-control', 'no-store').send();
    },
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    try {
      return handleError(error, request, reply);
    } catch (failed) {
      return sendInternal(failed, request, reply);
    }
  });

  function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): Answered {
    const format = formatOf(request);
    if (error instanceof ApiFailure) return sendFailure(reply, format, error);
    // The site and the play page write without retrying: a lock held by another process is a 503 there too.
    if (isBusy(error)) return sendFailure(reply, format, fail.databaseBusy(1));
    // Fastify refuses a QUERY without a Content-Type (RFC 10008) before any route is looked up;
    // the service takes no QUERY, so it is the same 405 (or 404) as any other verb it lacks.
    if (error.code === 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE') return sendFailure(reply, format, unrouted(request));
    const status = error.statusCode ?? 500;
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413)
      return sendFailure(reply, format, fail.payloadTooLarge());
    if (status === 415)
      return sendFailure(reply, format, new ApiFailure(415, 'invalid parameter: content-type (unreadable)'));
    if (status >= 400 && status < 500) {
      return sendFailure(
        reply,
        format,
        new ApiFailure(status, `invalid parameter: request (${shown(error.message, 80)})`),
      );
    }
    return sendInternal(error, request, reply);
  }

  // The last resort must not fail itself (else Fastify answers a bare 500 and nothing is told):
  // the line is written with the real time, which cannot be out of range like the virtual one.
  function sendInternal(error: unknown, request: FastifyRequest, reply: FastifyReply): Answered {
    try {
      request.log.error({ err: error }, 'unexpected error');
      log(`${safeIsoTime(Date.now())} 500 ${request.method} ${splitTarget(request.url).path}: ${oneLine(error)}`);
    } catch {
      // Telling failed; the reply below still goes out.
    }
    return sendFailure(reply, formatOf(request), fail.internal());
  }

  // Faults, latency and a rate limit each decide per request: with any of them, every request
  // goes through the pipeline.
  if (options.faults === undefined && (options.latencyMs ?? 0) === 0 && rateLimiter === null) {
    serveKeptReads(app, {
      replies,
      faults,
      record: logging.recordRaw,
      ...(options.publicOrigin === undefined ? {} : { publicOrigin: options.publicOrigin }),
    });
  }
  limitConnections(app.server, options.maxConnections ?? DEFAULT_MAX_CONNECTIONS, slowBodies);
  return app;
}

function slowBodyBounds(options: Pick<BuildAppOptions, 'bodyGraceMs' | 'minBodyBytesPerSecond'>): SlowBodyBounds {
  const graceMs = options.bodyGraceMs ?? DEFAULT_BODY_GRACE_MS;
  const minBytesPerSecond = options.minBodyBytesPerSecond ?? DEFAULT_MIN_BODY_BYTES_PER_SECOND;
  if (!(Number.isFinite(graceMs) && graceMs > 0)) throw new RangeError(`bodyGraceMs must be positive, got ${graceMs}`);
  if (!(Number.isFinite(minBytesPerSecond) && minBytesPerSecond >= 0)) {
    throw new RangeError(`minBodyBytesPerSecond must be 0 or more, got ${minBytesPerSecond}`);
  }
  return { graceMs, minBytesPerSecond };
}
