/**
 * The sandbox web site (`{site_url}`): a password-less login, the token generator of spec 4.2,
 * avatars, and a status probe for `udcli sandbox status`. Replies are plain JSON, not envelopes.
 * The play page is in play.ts (its HTML in ../play-page/).
 */
import { runWhileBusy } from '../http/busy.js';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TokenRecord } from '../../domain/types.js';
import type { StatusReply } from '../../domain/sandbox-admin-replies.js';
import { LOGIN_PATH, SESSION_TTL_SECONDS, STATUS_PATH, TOKEN_GENERATOR_PATH } from '../constants.js';
import { ApiFailure, fail, shown } from '../http/failure.js';
import { parseQuery, splitTarget } from '../http/query.js';
import { refuseCrossSite } from '../http/cross-site.js';
import { noteReason } from '../http/request-notes.js';
import type { Repositories } from '../repositories/index.js';
import { toUnixSeconds, type Clock } from '../time.js';
import { sessionCookieHeader, sessionCookieName, sessionIds, type SessionCookieDeps } from './session-cookie.js';

export interface SiteDeps extends SessionCookieDeps {
  repos: Repositories;
  clock: Clock;
  tokenTtlSeconds: number;
  startedAtMs: number;
  /**
   * The database file (':memory:' for none): a CLI on this machine named this sandbox by URL reads its keys there, as
   * it does the pid file's.
   */
  dbPath?: string;
}

/**
 * A new token for this user and game (the token record of spec 2.3, `duration` 0), stored so
 * that authenticate accepts it with the game's api_key until it expires. A database locked by
 * another process is waited for as the API waits (http/busy.ts: retries, then 503).
 */
export function issueToken(
  deps: Pick<SiteDeps, 'repos' | 'clock' | 'tokenTtlSeconds'>,
  uid: string,
  gameId: string,
): TokenRecord | Promise<TokenRecord> {
  const now = toUnixSeconds(deps.clock());
  const record: TokenRecord = {
    status: true,
    game_id: gameId,
    uid,
    token: randomBytes(16).toString('hex'),
    created_on: now,
    expires_on: now + deps.tokenTtlSeconds,
    duration: 0,
  };
  // Tokens more than a day past expiry are forgotten on the way.
  return runWhileBusy(() => {
    deps.repos.auth.createToken(
      { token: record.token, uid, gameId, createdOn: now, expiresOn: record.expires_on },
      now - 86_400,
    );
    return record;
  });
}

/** Logs `uid` in: a new session, whose id goes in the session cookie (a locked database waited for, as above). */
export function startSession(deps: Pick<SiteDeps, 'repos' | 'clock'>, uid: string): string | Promise<string> {
  const id = randomBytes(16).toString('hex');
  const now = toUnixSeconds(deps.clock());
  return runWhileBusy(() => {
    deps.repos.auth.createSession(id, uid, now, now - SESSION_TTL_SECONDS);
    return id;
  });
}

/**
 * The logged-in user's uid, if the request carries the cookie of a session that has not ended: the
 * first such of its login cookies (session-cookie.ts says which are read).
 */
export function sessionUser(
  deps: Pick<SiteDeps, 'repos' | 'clock' | 'httpsHosts'>,
  request: FastifyRequest,
): string | undefined {
  const startedAfter = toUnixSeconds(deps.clock()) - SESSION_TTL_SECONDS;
  for (const id of sessionIds(request, deps)) {
    const uid = deps.repos.auth.sessionUser(id, startedAfter);
    if (uid !== undefined) return uid;
  }
  return undefined;
}

function sendSiteError(reply: FastifyReply, failure: ApiFailure): FastifyReply {
  noteReason(reply.request, failure.message);
  for (const [name, value] of Object.entries(failure.headers)) reply.header(name, value);
  return reply
    .code(failure.code)
    .header('cache-control', 'no-store')
    .send({ status: false, code: failure.code, message: failure.message });
}

function siteHandler(fn: (request: FastifyRequest, reply: FastifyReply) => unknown) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      return await fn(request, reply);
    } catch (error) {
      if (error instanceof ApiFailure) return sendSiteError(reply, error);
      throw error;
    }
  };
}

function allowOnly(allowed: 'GET' | 'POST', request: FastifyRequest): void {
  if (request.method !== allowed && !(allowed === 'GET' && request.method === 'HEAD')) {
    throw fail.methodNotAllowed(request.method, [allowed]);
  }
}

/** A tiny generated avatar: the username's initial on a colour derived from the uid. */
function avatarSvg(uid: string, letter: string, size: number): string {
  const hue = parseInt(uid.slice(0, 4), 16) % 360;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 64 64">` +
    `<rect width="64" height="64" fill="hsl(${hue},55%,45%)"/>` +
    `<text x="32" y="42" font-family="sans-serif" font-size="30" text-anchor="middle" fill="#fff">${letter}</text></svg>`
  );
}

export function registerSiteRoutes(app: FastifyInstance, deps: SiteDeps): void {
  const { repos } = deps;
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

  // POST /login?username=NAME — sets the session cookie. No password: it is a sandbox.
  app.route({
    method: [...methods],
    url: LOGIN_PATH,
    handler: siteHandler(async (request, reply) => {
      allowOnly('POST', request);
      refuseCrossSite(request, 'a login');
      const query = parseQuery(splitTarget(request.url).query);
      const username = query.require('username');
      const user = repos.users.findByUsername(username);
      if (!user) throw fail.notFound(`user named ${shown(username)}`);
      const id = await startSession(deps, user.uid);
      return reply
        .header('set-cookie', sessionCookieHeader(request, deps, id))
        .header('cache-control', 'no-store')
        .send({
          status: true,
          uid: user.uid,
          username: user.username,
          cookie: `${sessionCookieName(request, deps)}=${id}`,
        });
    }),
  });

  // GET /service/user-auth-token-generator/{game_id} — spec 4.2, with the session cookie.
  app.route<{ Params: { gameId: string } }>({
    method: [...methods],
    url: `${TOKEN_GENERATOR_PATH}/:gameId`,
    handler: siteHandler(async (request, reply) => {
      const started = performance.now();
      allowOnly('GET', request);
      const uid = sessionUser(deps, request);
      if (uid === undefined) {
        throw new ApiFailure(401, 'not logged in: POST /login?username=NAME first and send its cookie');
      }
      const gameId = (request.params as { gameId: string }).gameId;
      const game = repos.games.find(gameId);
      if (!game) throw fail.notFound(`game ${shown(gameId)}`);
      const record = await issueToken(deps, uid, game.id);
      record.duration = Math.round(performance.now() - started) / 1000;
      return reply.header('cache-control', 'no-store').send(record);
    }),
  });

  app.route<{ Params: { file: string } }>({
    method: ['GET', 'HEAD'],
    url: '/avatars/:file',
    handler: siteHandler((request, reply) => {
      const m = /^([0-9a-fA-F]{32})\.svg$/.exec((request.params as { file: string }).file);
      const uid = m?.[1]?.toLowerCase();
      const user = uid === undefined ? undefined : repos.users.findByUid(uid);
      if (!user) throw fail.notFound('avatar');
      const sizeText = parseQuery(splitTarget(request.url).query).get('size');
      const size =
        sizeText !== undefined && /^\d{1,4}$/.test(sizeText) ? Math.min(1024, Math.max(8, Number(sizeText))) : 96;
      const letter = (user.username.match(/[A-Za-z0-9]/)?.[0] ?? '?').toUpperCase();
      return reply
        .header('content-type', 'image/svg+xml')
        .header('cache-control', 'public, max-age=3600')
        .send(avatarSvg(user.uid, letter, size));
    }),
  });

  // For `udcli sandbox status/stop`: proves that this pid is the sandbox answering on the port.
  app.get(
    STATUS_PATH,
    async (): Promise<StatusReply> => ({
      status: 'ok',
      service: 'udcli-sandbox',
      pid: process.pid,
      started_on: toUnixSeconds(deps.startedAtMs),
      ...(deps.dbPath === undefined ? {} : { database: deps.dbPath }),
    }),
  );
}
