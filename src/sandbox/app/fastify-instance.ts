/**
 * The main listener's Fastify instance and how it treats a request before any route: its
 * timeouts, its body and path bounds, and the framework's own refusals (bad URL encoding, a path
 * too long, malformed HTTP) as 4xx envelopes.
 */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { clientErrorResponse } from '../http/client-error.js';
import { addCorsHeaders, isPreflight, sendPreflight } from '../http/cors.js';
import { fail } from '../http/failure.js';
import { sendFailure } from '../http/pipeline.js';
import { BODY_LIMIT_BYTES } from '../http/request-parameters.js';
import { formatOf } from './error-replies.js';
import { MAX_PARAM_LENGTH, type AppSettings } from './options.js';
import { NO_SCHEMA_COMPILERS } from '../http/no-schemas.js';

export function createFastify(logger: boolean, settings: Pick<AppSettings, 'requestTimeoutMs'>): FastifyInstance {
  const { requestTimeoutMs } = settings;
  return Fastify({
    logger,
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
    schemaController: NO_SCHEMA_COMPILERS,
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
}
