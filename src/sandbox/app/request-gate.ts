/**
 * What every request of the main listener goes through first, the API and the site alike: the
 * Host check (DNS rebinding, http/host-check.ts), the refusal of an absolute-form target, the
 * CORS headers on every API reply and an API preflight answered before anything else runs.
 */
import type { FastifyInstance } from 'fastify';
import { CORS_HEADERS, isApiTarget, sendPreflight } from '../http/cors.js';
import { ApiFailure, fail } from '../http/failure.js';
import { addressedToSandbox, allowHostNames, HOST_REFUSED, type HostNames } from '../http/host-check.js';
import { sendFailure } from '../http/pipeline.js';
import { noteReason } from '../http/request-notes.js';
import { originForm } from '../game-host/app.js';
import { PLAY_HOST_NAME } from '../game-host/game-names.js';
import { formatOf } from './error-replies.js';

export function guardEveryRequest(app: FastifyInstance, hostNames: HostNames | undefined): void {
  // Before anything answers (a preflight included): every route is the sandbox's, the API and
  // the site alike (DNS rebinding, http/host-check.ts).
  // sandbox.localhost: the play page's name for a browser (game-host/game-names.ts).
  allowHostNames(app.server, { ...hostNames, matches: (name) => name === PLAY_HOST_NAME });
  // One callback hook for what every request goes through first (a callback hook, not an async one:
  // an async hook costs each request a promise and a turn of the microtask queue). It answers by
  // sending, without calling done.
  app.addHook('onRequest', (request, reply, done) => {
    const api = isApiTarget(request.url);
    // Set now, every API reply carries them, whatever answers it: a handler, an error, a refusal here (cors.ts).
    if (api) reply.headers(CORS_HEADERS);
    if (!addressedToSandbox(request)) {
      const failure = new ApiFailure(403, HOST_REFUSED);
      if (api) return void sendFailure(reply, formatOf(request), failure);
      noteReason(request, failure.message);
      return void reply
        .code(403)
        .header('cache-control', 'no-store')
        .send({ status: false, code: 403, message: failure.message });
    }
    if (!originForm(request.url)) {
      // `GET http://host/x HTTP/1.1`: a proxy's form, never a browser's to a server. One 400, as any bad request.
      const failure = fail.invalidParameter('request', 'the target must be a path, not an absolute URL');
      noteReason(request, failure.message);
      return void sendFailure(reply, formatOf(request), failure);
    }
    // A preflight is answered before anything else runs: it is no call (no fault drawn, no rate limit counted).
    if (api && request.method === 'OPTIONS') return void sendPreflight(reply);
    done();
  });
}
