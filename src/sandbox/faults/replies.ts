/**
 * The awkward replies the real platform (or a proxy in front of it) sends, made on purpose. Each
 * goes out before the request's handler runs, so a faulted request changes nothing; `slow` and
 * `challenge-again` are applied by the pipeline itself (they need the request's own outcome).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AGI_SESSION_PARAM, AGI_SIG_PARAM } from '../../domain/agi-signing.js';
import type { ApiKeyWithGame } from '../repositories/games.js';
import type { SignatureRule } from '../http/endpoint.js';
import { contentType, envelope, serialize, type Format } from '../http/envelope.js';
import { fail } from '../http/failure.js';
import type { Query } from '../http/query.js';
import { noteReason, reasonOf } from '../http/request-notes.js';
import { logWithoutReply } from '../http/request-log.js';
import type { FaultKind } from './spec.js';

export type ImmediateFault = Exclude<FaultKind, 'slow' | 'challenge-again'>;

/** Retry-After of the `rate-limit` fault: short, so a client that waits it out is not held up. */
export const FAULT_RETRY_AFTER_SECONDS = 1;

/** What nginx answers when the service behind it is down. */
const HTML_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

export function isImmediateFault(kind: FaultKind): kind is ImmediateFault {
  return kind !== 'slow' && kind !== 'challenge-again';
}

/** Notes the fault for the request log; a `slow` request keeps the reason it ended with, if any. */
export function noteFault(request: FastifyRequest, kind: FaultKind): void {
  const prior = kind === 'slow' ? reasonOf(request) : null;
  noteReason(request, prior === null ? `fault: ${kind}` : `fault: ${kind}; ${prior}`);
}

/** A request the signature step accepted as agi-signed (the only kind `challenge-again` applies to). */
export function acceptedAsAgi(rule: SignatureRule, key: ApiKeyWithGame | null, query: Query): boolean {
  return (
    rule !== 'none' &&
    key !== null &&
    key.game.signing !== 'hmac-sha256-v1' &&
    (query.has(AGI_SIG_PARAM) || query.has(AGI_SESSION_PARAM))
  );
}

function raw(reply: FastifyReply, status: number, type: string, body: string): FastifyReply {
  return reply.code(status).header('content-type', type).header('cache-control', 'no-store').send(body);
}

export function sendFault(
  kind: ImmediateFault,
  request: FastifyRequest,
  reply: FastifyReply,
  format: Format,
): FastifyReply {
  noteFault(request, kind);
  switch (kind) {
    case 'envelope-error':
      // The platform's habit: HTTP 200, the failure only in the envelope's code.
      return raw(reply, 200, contentType(format), serialize(format, envelope(500, 'internal error', null)));
    case 'html-502':
      return raw(reply, 502, 'text/html', HTML_502);
    case 'truncated': {
      // A success that stops short inside its payload (Content-Length agrees: the body is all there is).
      const whole = serialize(format, envelope(200, 'OK', { uid: '' }));
      return raw(reply, 200, contentType(format), whole.slice(0, whole.length - 3));
    }
    case 'empty':
      return raw(reply, 200, contentType(format), '');
    case 'rate-limit': {
      const failure = fail.rateLimited(FAULT_RETRY_AFTER_SECONDS);
      for (const [name, value] of Object.entries(failure.headers)) reply.header(name, value);
      return raw(
        reply,
        failure.code,
        contentType(format),
        serialize(format, envelope(failure.code, failure.message, null)),
      );
    }
    case 'reset':
      // Nothing goes out: the connection is torn down with a TCP reset. Logged here: a hijacked
      // reply runs no onResponse hook.
      logWithoutReply(request, reply.elapsedTime);
      reply.hijack();
      request.raw.socket.resetAndDestroy();
      return reply;
  }
}
