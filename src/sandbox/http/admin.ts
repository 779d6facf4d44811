/**
 * The sandbox's own control endpoints under `/_sandbox/` (request log, faults, clock, ...): plain
 * JSON, never envelopes. They answer only a request addressed to the sandbox itself — its Host
 * header names the address and port the request arrived at, or localhost with that port — so a
 * page on another site cannot reach them through DNS rebinding, and a sandbox published with
 * --allow-remote keeps them off any other name it may be reached by. A change (any verb but GET)
 * sent from another site's page is refused too (its Origin). They never show a signing secret,
 * and api keys only redacted.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { refuseCrossSite } from './cross-site.js';
import { ApiFailure } from './failure.js';
import { noteReason } from './request-notes.js';

export const ADMIN_PREFIX = '/_sandbox';

export type AdminMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface AdminRoute {
  method: AdminMethod;
  /** Under /_sandbox, e.g. `/requests`. */
  path: string;
  handler(request: FastifyRequest, reply: FastifyReply): unknown;
}

function bracketed(address: string): string {
  return address.includes(':') ? `[${address}]` : address;
}

/** Is the Host header this sandbox's own address (the socket's local address or localhost, with its port)? */
export function addressedToSandbox(request: FastifyRequest): boolean {
  const host = request.headers.host;
  const socket = request.socket;
  if (host === undefined || socket.localPort === undefined) return false;
  const port = String(socket.localPort);
  const own = new Set([`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]);
  const local = socket.localAddress?.replace(/^::ffff:/, '');
  if (local !== undefined) own.add(`${bracketed(local)}:${port}`);
  return own.has(host.toLowerCase());
}

function sendAdminError(reply: FastifyReply, failure: ApiFailure): FastifyReply {
  noteReason(reply.request, failure.note ?? failure.message);
  for (const [name, value] of Object.entries(failure.headers)) reply.header(name, value);
  return reply.code(failure.code).header('cache-control', 'no-store').send({ status: false, code: failure.code, message: failure.message });
}

/** Registers one control endpoint behind the address check; an ApiFailure becomes `{status:false, code, message}`. */
export function registerAdminRoute(app: FastifyInstance, route: AdminRoute): void {
  app.route({
    method: route.method,
    url: `${ADMIN_PREFIX}${route.path}`,
    handler: async (request, reply) => {
      try {
        if (!addressedToSandbox(request)) {
          throw new ApiFailure(403, 'forbidden: /_sandbox answers only requests addressed to the sandbox itself (Host header)');
        }
        if (route.method !== 'GET') refuseCrossSite(request, `a change of ${ADMIN_PREFIX}${route.path}`);
        const result = await route.handler(request, reply);
        return result === undefined ? reply : reply.header('cache-control', 'no-store').send(result);
      } catch (error) {
        if (error instanceof ApiFailure) return sendAdminError(reply, error);
        throw error;
      }
    },
  });
}
