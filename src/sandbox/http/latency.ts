/**
 * `--latency`: every API reply (everything under /services/rest, errors, the agi challenge and
 * injected faults included) is held this long before it goes out, as a network's round trip
 * would, so that a client's behaviour across a real round trip can be seen on this machine. The
 * request itself runs at once (a change is made, then its reply waits), and a timer holds the
 * reply: nothing waits in the event loop. The site, the play page, the dashboard and the admin
 * routes under /_sandbox answer at once (they are this machine's tools, not the platform).
 */
import type { FastifyInstance } from 'fastify';
import { isApiPath } from './cors.js';
import { splitTarget } from './query.js';

export function installLatency(app: FastifyInstance, latencyMs: number): void {
  if (!(Number.isInteger(latencyMs) && latencyMs >= 0))
    throw new RangeError(`latencyMs must be a whole number of ms, got ${latencyMs}`);
  if (latencyMs === 0) return;
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (!isApiPath(splitTarget(request.url).path)) return done(null, payload);
    // Unref'd: a held reply does not keep a stopping sandbox's process alive.
    setTimeout(() => done(null, payload), latencyMs).unref();
  });
}
