/**
 * The one request pipeline of `/services/rest/v1`, in this order:
 * path (404) → parameters from the query and a form body (400, 415) → method and `method` override (405) → rate limit
 * (429) → api_key (401)
 *   → parameters (400) → the key's own game (403) → signature (401 challenge, 403)
 * → handler (404, 409; in one transaction, 503 when another process holds the lock too long) → envelope (JSON or XML).
 * With --faults, each request's fault is drawn first: most answer at once, before anything runs
 * (so a faulted request changes nothing); `challenge-again` replaces the handler of an accepted
 * agi-signed request; `slow` lets the request run and holds its reply back.
 * Every ApiFailure becomes the envelope with HTTP status = code; anything else goes to the
 * app's error handler (500 `internal error`, no details to the client).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AGI_SESSION_PARAM } from '../../domain/agi-signing.js';
import { normalizeApiKey } from '../../domain/ids.js';
import { pathMatches, splitFile } from '../../domain/endpoints.js';
import type { SandboxDatabase } from '../database.js';
import type { ApiKeyWithGame } from '../repositories/games.js';
import type { Repositories } from '../repositories/index.js';
import type { KeyLookup } from '../repositories/key-cache.js';
import { toUnixSeconds, type Clock } from '../time.js';
import type { ApiMethod, ApiRoute, BoundEndpoint, HandlerResult, KeyRule, ParentRef } from './endpoint.js';
import { contentType, envelope, formatOfPath, serialize, type Format } from './envelope.js';
import { runWhileBusy } from './busy.js';
import { ApiFailure, fail, shown } from './failure.js';
import { splitTarget, type Query } from './query.js';
import { requestOrigin } from './request-origin.js';
import { requestParameters } from './request-parameters.js';
import type { ChallengeStore } from './challenges.js';
import type { UsedSignatures } from './used-signatures.js';
import type { FaultInjector } from '../faults/injector.js';
import type { FaultRule } from '../faults/spec.js';
import { acceptedAsAgi, isImmediateFault, noteFault, sendFault } from '../faults/replies.js';
import type { RateLimiter } from './rate-limit.js';
import { noteChallenge, noteReason, noteSignedWith, reasonOf } from './request-notes.js';
import type { ReplyCache, SentResult } from './reply-cache.js';
import { verifySignature } from './signature.js';

export interface PipelineDeps {
  repos: Repositories;
  /** The api_key lookup (repositories/key-cache.ts: cached until the data changes). */
  keys: KeyLookup;
  /** Each handler runs in one transaction of its own, retried while another process holds the lock. */
  db: Pick<SandboxDatabase, 'transaction' | 'readTransaction'>;
  clock: Clock;
  rateLimiter: RateLimiter | null;
  challenges: ChallengeStore;
  /** hmac-sha256-v1's used signatures, in the database: used up in the change's transaction. */
  signatures: UsedSignatures;
  /** The origin absolute URLs in replies use (avatars); default: where each request came to. */
  publicOrigin?: string;
  /** Injected faults (`--faults`); null: none. */
  faults: FaultInjector | null;
  /** The replies of endpoints with `cachedReply` (reply-cache.ts); null: none kept. */
  replies: ReplyCache | null;
}

/** Methods routed to the pipeline; others known to Node get 405 from the not-found handler. */
export const ROUTED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

export function sendEnvelope(
  reply: FastifyReply,
  format: Format,
  code: number,
  message: string,
  payload: unknown,
): FastifyReply {
  return sendText(reply, format, code, serialize(format, envelope(code, message, payload)));
}

/** An envelope already serialized (a kept reply: reply-cache.ts). */
function sendText(reply: FastifyReply, format: Format, code: number, text: string): FastifyReply {
  return reply.code(code).header('content-type', contentType(format)).header('cache-control', 'no-store').send(text);
}

/** The success reply of a handler's result, as text once and for all (a reply kept for the next requests). */
function sentResult(format: Format, result: HandlerResult): SentResult {
  return { ...result, format, text: serialize(format, envelope(200, result.message, result.payload)) };
}

export function sendFailure(reply: FastifyReply, format: Format, failure: ApiFailure): FastifyReply {
  // An earlier note (an injected fault) says more about the request than the failure it caused.
  if (reasonOf(reply.request) === null) noteReason(reply.request, failure.note ?? failure.message);
  if (failure.handshake !== undefined) noteChallenge(reply.request, failure.handshake);
  for (const [name, value] of Object.entries(failure.headers)) reply.header(name, value);
  return sendEnvelope(reply, format, failure.code, failure.message, failure.payload);
}

/** The verbs a path takes: its own, and POST where a POST with `method=put|delete` reaches one. */
export function allowedMethods(route: ApiRoute): ApiMethod[] {
  const own = Object.keys(route.methods) as ApiMethod[];
  return !route.methods.POST && (route.methods.PUT || route.methods.DELETE) ? [...own, 'POST'] : own;
}

/** What `Allow` lists: the verbs the path takes and the CORS preflight (as the description says). */
export function allowHeader(route: ApiRoute): string[] {
  return [...allowedMethods(route), 'OPTIONS'];
}

/**
 * The verb the request means: the `method` override or the HTTP verb. Only a POST may become a
 * PUT or DELETE (as the platform's SDK sends them); a GET saying so is 405, so that a link or a
 * prefetch never changes state.
 */
function effectiveMethod(httpMethod: string, query: Query, route: ApiRoute): string {
  if (!query.has('method')) return httpMethod === 'HEAD' ? 'GET' : httpMethod;
  const override = query.get('method') ?? '';
  if (httpMethod !== 'GET' && httpMethod !== 'POST') {
    // A verb the path does not take is refused as such first, whatever it carries.
    if (!route.methods[(httpMethod === 'HEAD' ? 'GET' : httpMethod) as ApiMethod])
      throw fail.methodNotAllowed(httpMethod, allowHeader(route));
    throw fail.invalidParameter('method', 'the override is accepted on GET and POST requests only');
  }
  if (!/^(get|put|delete)$/i.test(override)) throw fail.invalidParameter('method', 'expected get, put or delete');
  const method = override.toUpperCase();
  if (httpMethod === 'GET' && method !== 'GET') throw fail.overrideOnGet(override, allowHeader(route));
  return method;
}

/** A key acts on its own game only: naming another one changes nothing (SERVICE.md: errors). */
function checkOwnGame(parent: ParentRef | undefined, key: ApiKeyWithGame | null): void {
  if (parent && key && parent.type === 'Game' && parent.id !== key.gameId) throw fail.forbiddenGame(key.gameId);
}

function resolveApiKey(rule: KeyRule, query: Query, keys: KeyLookup): ApiKeyWithGame | null {
  let given: string | undefined;
  try {
    given = query.get('api_key');
  } catch (error) {
    if (rule === 'optional') return null;
    throw error;
  }
  if (given === undefined) {
    if (rule === 'optional') return null;
    throw fail.missingApiKey();
  }
  const normalized = normalizeApiKey(given);
  const key = normalized === null ? undefined : keys.find(normalized);
  if (key) return key;
  // The users service never fails on a bad key: it answers with the reduced user.
  if (rule === 'optional') return null;
  throw fail.invalidApiKey();
}

/** The bucket: a key that exists in the database, else the client's address (made-up keys share it). */
function rateLimitKey(query: Query, ip: string, keys: KeyLookup): string {
  const raw = query.pairs.find(([name]) => name === 'api_key')?.[1];
  const key = raw === undefined ? null : normalizeApiKey(raw);
  return key !== null && keys.find(key) ? key : `ip:${ip}`;
}

/** The origin absolute URLs in this request's reply use. */
function originOf(request: FastifyRequest, deps: PipelineDeps): string {
  return deps.publicOrigin ?? requestOrigin(request.headers.host, request.socket.localAddress);
}

/**
 * The route handler. Synchronous when it can be (the common case: the transaction gets its lock at
 * once and no fault holds the reply back): it sends and returns nothing, which spares every
 * request a promise and a turn of the microtask queue. Otherwise it returns a promise that sends.
 */
function handlerFor(route: ApiRoute, deps: PipelineDeps) {
  const { elementParam } = route;
  return (
    request: FastifyRequest<{ Params: Record<string, string> }>,
    reply: FastifyReply,
  ): Promise<void> | undefined => {
    const { path, query: rawQuery } = splitTarget(request.url);
    const file = splitFile(request.params.file!);
    // The element is the placeholder's wherever it stands; the last segment still carries the format.
    const element = file && (elementParam === null ? file.element : request.params[elementParam]);
    const format: Format = file ? file.format : formatOfPath(path);
    const fault = deps.faults?.draw() ?? null;
    if (fault && isImmediateFault(fault.kind)) {
      deps.faults?.applied(fault.kind);
      sendFault(fault.kind, request, reply, format);
      return undefined;
    }
    const slow = fault?.kind === 'slow' ? fault : null;
    let outcome: HandlerResult | Promise<HandlerResult>;
    try {
      outcome = answer(route, deps, request, { path, rawQuery, element, file: file?.element, fault, format });
    } catch (error) {
      if (!(error instanceof ApiFailure)) throw error;
      if (slow === null) return void sendFailure(reply, format, error);
      outcome = Promise.reject(error);
    }
    // The common case, without a closure: the result is there and nothing holds it back.
    if (slow === null && !(outcome instanceof Promise)) return void sendResult(reply, format, outcome);
    const settled = Promise.resolve(outcome).then(
      (result) => () => sendResult(reply, format, result),
      (error: unknown) => {
        if (!(error instanceof ApiFailure)) throw error;
        return () => sendFailure(reply, format, error);
      },
    );
    if (slow === null) return settled.then((send) => void send());
    return settled.then((send) => {
      // Applied (or refused) already; only the reply is late.
      deps.faults?.applied(slow.kind);
      noteFault(request, slow.kind);
      return new Promise<void>((resolve) => setTimeout(resolve, slow.delayMs ?? 0)).then(() => void send());
    });
  };
}

/** A handler's result as the 200 envelope (a kept reply: its text as it was made). */
function sendResult(reply: FastifyReply, format: Format, result: HandlerResult): FastifyReply {
  return 'text' in result
    ? sendText(reply, format, 200, (result as SentResult).text)
    : sendEnvelope(reply, format, 200, result.message, result.payload);
}

/**
 * Every step from the path to the handler's result (see the order at the top); a failure is
 * thrown. The result itself when the transaction ran at once, a promise while it waits for a lock.
 */
function answer(
  route: ApiRoute,
  deps: PipelineDeps,
  request: FastifyRequest,
  target: {
    path: string;
    rawQuery: string;
    element: string | null | undefined;
    /** The last segment before its format. */
    file: string | undefined;
    fault: FaultRule | null;
    format: Format;
  },
): HandlerResult | Promise<HandlerResult> {
  const { path, element, fault } = target;
  if (!element || (route.fixedName !== null && target.file !== route.fixedName)) {
    throw fail.notFound(`path ${shown(path)}`);
  }
  // One parameter set from the query and a form body; the signature checks also get each as sent.
  const params = requestParameters(target.rawQuery, request.body, request.method);
  const query = params.merged;
  const method = effectiveMethod(request.method, query, route);
  const ep: BoundEndpoint | undefined = route.methods[method as ApiMethod];
  if (!ep) {
    // A POST is taken here only as the SDK's form of a PUT or DELETE: it is the override that is missing.
    if (method === 'POST' && allowedMethods(route).includes('POST')) throw fail.missingParameter('method');
    throw fail.methodNotAllowed(method, allowHeader(route));
  }

  // A signed retry names its challenge's session: the request log shows the two together.
  const session = query.pairs.find(([name]) => name === AGI_SESSION_PARAM)?.[1];
  if (session !== undefined && session !== '') noteSignedWith(request, session);

  const nowMs = deps.clock();
  if (deps.rateLimiter) {
    const retryAfter = deps.rateLimiter.hit(rateLimitKey(query, request.ip, deps.keys), nowMs);
    if (retryAfter !== null) throw fail.rateLimited(retryAfter);
  }
  // From the api_key on, every step up to the handler's result. A read (never signed) runs it
  // all in one read transaction: one consistent view, one lock for the key and the data
  // (nothing in it changes anything, so it can be tried again while busy). A change checks
  // first, then takes the write lock for the handler alone, so an attempt that cannot get it
  // has done nothing yet (the signature's challenge is used once).
  const checked = () => {
    const apiKey = resolveApiKey(ep.row.apiKey, query, deps.keys);
    const prepared = ep.prepare(query, element);
    checkOwnGame(prepared.parent, apiKey);
    // An endpoint that takes no signature (every read) builds nothing for the check.
    const spend =
      ep.row.signature === 'none'
        ? undefined
        : verifySignature(
            ep.row.signature,
            apiKey,
            { httpMethod: request.method, path, ...params },
            { nowMs, challenges: deps.challenges },
          );
    if (fault?.kind === 'challenge-again' && apiKey && acceptedAsAgi(ep.row.signature, apiKey, query)) {
      // The platform sometimes wants one more round: the session was used, a fresh one comes back.
      deps.faults?.applied(fault.kind);
      noteFault(request, fault.kind);
      throw fail.challenge(
        'stale session',
        deps.challenges.issue(apiKey.apiKey, nowMs),
        'unknown, used or expired: sign again with this one',
      );
    }
    return {
      prepared,
      spend,
      context: { repos: deps.repos, apiKey, now: toUnixSeconds(nowMs), origin: originOf(request, deps) },
    };
  };
  if (method === 'GET' && ep.row.signature === 'none') {
    // A form body's fields are parameters too: only a request without one is told by its target alone.
    const replies = ep.cachedReply && params.body === null ? deps.replies : null;
    const read = (): HandlerResult => {
      const { prepared, context } = checked();
      if (replies === null) return prepared.run(context);
      // Every check above ran; the same target, key and origin get the same reply while the data stays.
      const kept = replies.get(context.origin, request.url);
      if (kept !== undefined) return kept;
      const sent = sentResult(target.format, prepared.run(context));
      // Kept only when a later request may skip everything: a signed retry's session is noted (above) each time.
      if (session === undefined) replies.set(context.origin, request.url, sent);
      return sent;
    };
    // The key comes from memory (key-cache.ts), so a handler of one statement reads one consistent view without one.
    return runWhileBusy(ep.oneStatement ? read : () => deps.db.readTransaction(read));
  }
  const { prepared, context, spend } = checked();
  if (spend === undefined) {
    const transaction = method === 'GET' ? deps.db.readTransaction : deps.db.transaction;
    return runWhileBusy(() => transaction(() => prepared.run(context)));
  }
  // The signature is used up in the change's own transaction, so every process on the database
  // sees it used exactly when the change is made. The handler runs in a savepoint inside it: a
  // change it refuses (409) is undone, and the signature stays used, whatever the outcome.
  const { db, signatures } = deps;
  const outcome = runWhileBusy(() =>
    db.transaction((): { result: HandlerResult } | { refused: ApiFailure } => {
      const spent = signatures.spend(spend.signature, spend.timestamp);
      if (!spent.ok) throw spent.reason === 'used' ? fail.signatureUsed() : fail.signatureForgotten();
      try {
        return { result: db.transaction(() => prepared.run(context)) };
      } catch (error) {
        if (error instanceof ApiFailure) return { refused: error };
        throw error;
      }
    }),
  );
  const settle = (o: { result: HandlerResult } | { refused: ApiFailure }): HandlerResult => {
    if ('refused' in o) throw o.refused;
    return o.result;
  };
  return outcome instanceof Promise ? outcome.then(settle) : settle(outcome);
}

/** A matcher for "is this path one of ours?" (405 rather than 404 for exotic methods). */
export function apiPathMatcher(routes: readonly ApiRoute[]): (path: string) => ApiRoute | undefined {
  return (path) => routes.find((route) => pathMatches(route.template, path));
}

export function registerApiRoutes(app: FastifyInstance, routes: readonly ApiRoute[], deps: PipelineDeps): void {
  for (const route of routes) {
    app.route<{ Params: Record<string, string> }>({
      method: [...ROUTED_METHODS],
      url: route.url,
      handler: handlerFor(route, deps),
    });
  }
}
