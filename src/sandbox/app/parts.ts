/**
 * What the app's pieces share, made once per app: the virtual clock, the request log, the fault
 * injector, the kept replies, the rate limiter, the game sources and where games are served.
 */
import type { SandboxDatabase } from '../database.js';
import { SERVER_BUSY_TIMEOUT_MS } from '../database.js';
import { createFaultInjector, type FaultInjector } from '../faults/injector.js';
import { createGameSources, type GameSources } from '../game-host/index.js';
import { createRateLimiter, type RateLimiter } from '../http/rate-limit.js';
import { createReplyCache, type ReplyCache } from '../http/reply-cache.js';
import type { RequestLogging } from '../http/request-log.js';
import { dataVersionOf } from '../repositories/key-cache.js';
import { API_ROUTES } from '../routes/index.js';
import { systemClock } from '../time.js';
import { createVirtualClock, type VirtualClock } from '../virtual-clock.js';
import { unroutedOf, type Unrouted } from './error-replies.js';
import { createGameOrigins, type GameOrigins } from './game-origins.js';
import type { AppSettings, BuildAppOptions } from './options.js';

export interface AppParts {
  options: BuildAppOptions;
  settings: AppSettings;
  db: SandboxDatabase;
  virtualClock: VirtualClock;
  logging: RequestLogging;
  faults: FaultInjector;
  replies: ReplyCache;
  rateLimiter: RateLimiter | null;
  gameSources: GameSources;
  gameOrigins: GameOrigins;
  unrouted: Unrouted;
}

export function makeParts(options: BuildAppOptions, settings: AppSettings, logging: RequestLogging): AppParts {
  const { db } = options;
  const faults = createFaultInjector(options.faults?.spec ?? null, options.faults?.seed ?? null);
  // From here on the thread never waits on another process's lock for more than a few ms.
  db.setBusyTimeout(SERVER_BUSY_TIMEOUT_MS);
  const rate = settings.rateLimitPerSecond;
  return {
    options,
    settings,
    db,
    virtualClock: createVirtualClock(options.nowMs ?? systemClock),
    logging,
    faults,
    replies: createReplyCache(dataVersionOf(db.sqlite)),
    rateLimiter: rate === undefined ? null : createRateLimiter(rate),
    gameSources: createGameSources(options.gameSources),
    gameOrigins: createGameOrigins(),
    unrouted: unroutedOf(API_ROUTES),
  };
}
