/**
 * A change sent from another site's page is refused (CSRF): a browser's form or script request
 * carries that page's Origin. Tools (curl, udcli) send none and are let through. The Host check
 * of /_sandbox stops DNS rebinding, not a form on another site posting here: this does.
 */
import type { FastifyRequest } from 'fastify';
import { ApiFailure } from './failure.js';

/** `what` names the change in the 403's message, e.g. `a login`. */
export function refuseCrossSite(request: FastifyRequest, what: string): void {
  const { origin, host } = request.headers;
  if (origin === undefined) return;
  if (origin !== 'null' && host !== undefined && (origin === `http://${host}` || origin === `https://${host}`)) return;
  throw new ApiFailure(403, `forbidden: ${what} from another site (its Origin is not this sandbox)`);
}
