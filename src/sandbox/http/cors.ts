/**
 * Cross-origin calls (SERVICE.md: CORS). Games call the services from their own site (the SDK sends
 * `mode: 'cors'`), so every `/services/rest/v1` reply — success, every error, the 401 challenge,
 * an injected fault, a path the service lacks — lets any origin read it, and an `OPTIONS`
 * preflight on those paths is answered 204. Never with credentials: the API reads no cookie. The
 * site, `/`, `/docs` and `/_sandbox` get none of this (they answer only the sandbox's own pages).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX } from '../../domain/types.js';
import { splitTarget } from './query.js';

export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  // Retry-After (429) and Allow (405) are what a client acts on beyond the safelisted headers.
  'access-control-expose-headers': 'Retry-After, Allow',
} as const;

export const PREFLIGHT_HEADERS = {
  'access-control-allow-methods': 'GET, POST, PUT, DELETE',
  'access-control-allow-headers': 'Content-Type, Accept',
  'access-control-max-age': '600',
} as const;

export function isApiPath(path: string): boolean {
  return path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
}

const SLASH = 0x2f;
const QUESTION_MARK = 0x3f;
const HASH = 0x23;

/** isApiPath of a request target as sent, not split when it starts with `/` (every request's first check). */
export function isApiTarget(url: string): boolean {
  if (url.charCodeAt(0) !== SLASH) return isApiPath(splitTarget(url).path);
  if (!url.startsWith(API_PREFIX)) return false;
  // The prefix holds no `?` or `#`: the path is the prefix itself, or goes on under it.
  const next = url.charCodeAt(API_PREFIX.length);
  return Number.isNaN(next) || next === SLASH || next === QUESTION_MARK || next === HASH;
}

const onApi = (request: FastifyRequest) => isApiTarget(request.url);

/** An OPTIONS under the prefix, whatever the path (the call it precedes gets its own 404 or 400). */
export function isPreflight(request: FastifyRequest): boolean {
  return request.method === 'OPTIONS' && onApi(request);
}

export function sendPreflight(reply: FastifyReply): FastifyReply {
  return reply.code(204).headers(PREFLIGHT_HEADERS).send();
}

/**
 * The reply headers of an API reply. The app's first hook sets them on every request to the API
 * (app/request-gate.ts), so they go out with any reply; this is for replies sent where no hook runs (Fastify's
 * framework errors).
 */
export function addCorsHeaders(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return onApi(request) ? reply.headers(CORS_HEADERS) : reply;
}
