/**
 * One error shape for everything under /services/rest/v1 and for unknown paths: the envelope, in
 * the format the path asks for, never a stack trace. (The play page answers its own errors in HTML.)
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isBusy } from '../http/busy.js';
import type { ApiRoute } from '../http/endpoint.js';
import { formatOfPath } from '../http/envelope.js';
import { ApiFailure, fail, shown } from '../http/failure.js';
import { allowHeader, apiPathMatcher, sendFailure } from '../http/pipeline.js';
import { splitTarget } from '../http/query.js';
import { safeIsoTime } from '../time.js';

/** What an error handler returns: the reply, sent now or once a write settles. */
type Answered = FastifyReply | Promise<FastifyReply>;

/** The envelope's format (JSON or XML) the request's path asks for. */
export const formatOf = (request: FastifyRequest) => formatOfPath(splitTarget(request.url).path);

/** The answer to a request no route takes. */
export interface Unrouted {
  failure(request: FastifyRequest): ApiFailure;
  notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply;
}

export function unroutedOf(routes: readonly ApiRoute[]): Unrouted {
  const matchApiPath = apiPathMatcher(routes);
  // A path of ours with a verb Fastify does not route (TRACE, PROPFIND, ...): 405, not 404.
  const failure = (request: FastifyRequest): ApiFailure => {
    const { path } = splitTarget(request.url);
    const route = matchApiPath(path);
    return route ? fail.methodNotAllowed(request.method, allowHeader(route)) : fail.notFound(`path ${shown(path)}`);
  };
  return { failure, notFound: (request, reply) => sendFailure(reply, formatOf(request), failure(request)) };
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

/**
 * Errors become 4xx envelopes where the request was at fault (bad URL encoding, oversized
 * bodies, malformed HTTP), else a 500 told to `log` in one line.
 */
export function answerErrors(app: FastifyInstance, unrouted: Unrouted, log: (line: string) => void): void {
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
    if (error.code === 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE')
      return sendFailure(reply, format, unrouted.failure(request));
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
}
