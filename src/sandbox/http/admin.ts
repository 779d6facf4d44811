/**
 * The sandbox's own control endpoints under `/_sandbox/` (request log, faults, clock, ...): plain
 * JSON, never envelopes. They answer only a request addressed to the sandbox itself (its Host
 * header: host-check.ts, which the app applies to every route; kept here too, so a control
 * endpoint stays guarded in whatever app it is registered), so a page on another site cannot
 * reach them through DNS rebinding. Any request a browser sends for a page of another origin is
 * refused too, reads included: its Origin, or its Sec-Fetch-Site when it is not `same-origin`
 * (or `none`, an address typed by the user). Another origin on the same host (the game host's
 * port, whose pages are the games' untrusted code) is "same-site" to a browser, so same-site is
 * refused like cross-site. They never show a signing secret, and api keys only redacted.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { refuseCrossSite } from './cross-site.js';
import { addressedToSandbox } from './host-check.js';
import { ApiFailure, shown } from './failure.js';
import { noteReason } from './request-notes.js';

export const ADMIN_PREFIX = '/_sandbox';

export type AdminMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface AdminRoute {
  method: AdminMethod;
  /** Under /_sandbox, e.g. `/requests`. */
  path: string;
  handler(request: FastifyRequest, reply: FastifyReply): unknown;
}

function sendAdminError(reply: FastifyReply, failure: ApiFailure): FastifyReply {
  noteReason(reply.request, failure.note ?? failure.message);
  for (const [name, value] of Object.entries(failure.headers)) reply.header(name, value);
  return reply
    .code(failure.code)
    .header('cache-control', 'no-store')
    .send({ status: false, code: failure.code, message: failure.message });
}

/** A browser's request made by a page of another origin (the game host's included) is refused. */
function refuseOtherOrigins(request: FastifyRequest, path: string): void {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    throw new ApiFailure(
      403,
      `forbidden: ${path} answers only the sandbox's own pages (Sec-Fetch-Site: ${shown(String(site), 20)})`,
    );
  }
  refuseCrossSite(request, `a request of ${path}`);
}

/** Registers one control endpoint behind the address check; an ApiFailure becomes `{status:false, code, message}`. */
export function registerAdminRoute(app: FastifyInstance, route: AdminRoute): void {
  app.route({
    method: route.method,
    url: `${ADMIN_PREFIX}${route.path}`,
    handler: async (request, reply) => {
      try {
        if (!addressedToSandbox(request)) {
          throw new ApiFailure(
            403,
            'forbidden: /_sandbox answers only requests addressed to the sandbox itself (Host header)',
          );
        }
        refuseOtherOrigins(request, `${ADMIN_PREFIX}${route.path}`);
        const result = await route.handler(request, reply);
        return result === undefined ? reply : reply.header('cache-control', 'no-store').send(result);
      } catch (error) {
        if (error instanceof ApiFailure) return sendAdminError(reply, error);
        throw error;
      }
    },
  });
}
