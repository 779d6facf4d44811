/**
 * The API, `/services/rest/v1`: every endpoint through the pipeline (http/pipeline.ts), and, when
 * nothing decides per request, the same GET asked again answered before Fastify (http/kept-reads.ts).
 */
import type { FastifyInstance } from 'fastify';
import { createChallengeStore } from '../http/challenges.js';
import { serveKeptReads } from '../http/kept-reads.js';
import { registerApiRoutes } from '../http/pipeline.js';
import { createUsedSignatures } from '../http/used-signatures.js';
import { cachedKeyLookup } from '../repositories/key-cache.js';
import { API_ROUTES } from '../routes/index.js';
import { systemClock } from '../time.js';
import type { AppParts } from './parts.js';

export function registerApi(app: FastifyInstance, parts: AppParts): void {
  const { db, options } = parts;
  registerApiRoutes(app, API_ROUTES, {
    repos: db.repos,
    keys: cachedKeyLookup(db.sqlite, db.repos.games),
    db,
    clock: parts.virtualClock.now,
    rateLimiter: parts.rateLimiter,
    challenges: options.challenges ?? createChallengeStore(),
    // Kept by the real clock, under the virtual one (used-signatures.ts says why).
    signatures: createUsedSignatures(db.repos.usedSignatures, options.nowMs ?? systemClock),
    faults: parts.faults,
    replies: parts.replies,
    ...(options.publicOrigin === undefined ? {} : { publicOrigin: options.publicOrigin }),
  });
}

export function serveKeptApiReads(app: FastifyInstance, parts: AppParts): void {
  const { options } = parts;
  // Faults, latency and a rate limit each decide per request: with any of them, every request
  // goes through the pipeline.
  if (options.faults === undefined && (options.latencyMs ?? 0) === 0 && parts.rateLimiter === null) {
    serveKeptReads(app, {
      replies: parts.replies,
      faults: parts.faults,
      record: parts.logging.recordRaw,
      ...(options.publicOrigin === undefined ? {} : { publicOrigin: options.publicOrigin }),
    });
  }
}
