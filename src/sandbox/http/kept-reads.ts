/**
 * A kept read (reply-cache.ts: GET users/{uid}.json, the hottest request) answered again straight
 * from the HTTP server's request event, before Fastify builds its request and reply, routes and
 * runs its hooks: that is about a third of what such a request costs the sandbox.
 *
 * Only a reply the whole pipeline made before, for the same target at the same origin, with the
 * data unchanged since: every check it passed then (the path, the parameters, the api_key, the
 * key's game) would pass again, and the reply would be the same. What each request gets still
 * happens here: the Host check (host-check.ts), the fault injector's count of API requests, the
 * request log; the reply is the same bytes under the same headers (CORS included), and Node adds
 * the same Date and keep-alive headers. Everything else goes to Fastify as before: another method,
 * a target not kept, and every request once the app is closing (Fastify answers those 503). A
 * sandbox with injected faults, latency or a rate limit does not install this at all: each of
 * those decides per request.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from '../../domain/types.js';
import type { FaultInjector } from '../faults/injector.js';
import { CORS_HEADERS } from './cors.js';
import { contentType } from './envelope.js';
import { hostAnswered } from './host-check.js';
import type { ReplyCache, SentResult } from './reply-cache.js';
import { requestOrigin } from './request-origin.js';

export interface KeptReadsOptions {
  replies: ReplyCache;
  /** As the pipeline's: the origin replies use whatever the Host. */
  publicOrigin?: string;
  faults: FaultInjector;
  /** The request log's entry for a request answered here (request-log.ts, recordRaw). */
  record(entry: { method: string; url: string; status: number; ms: number; reason: null }): void;
}

const API_PATHS = `${API_PREFIX}/`;

type Listener = (this: Server, request: IncomingMessage, response: ServerResponse) => void;

/** The headers of a kept reply, in the order the pipeline sets them (content-length last, as Fastify adds it). */
const headersOf = new WeakMap<SentResult, Record<string, string>>();

function wireHeaders(kept: SentResult): Record<string, string> {
  let headers = headersOf.get(kept);
  if (headers === undefined) {
    headers = {
      ...CORS_HEADERS,
      'content-type': contentType(kept.format),
      'cache-control': 'no-store',
      'content-length': String(Buffer.byteLength(kept.text)),
    };
    headersOf.set(kept, headers);
  }
  return headers;
}

/** Puts the kept reads in front of the app's own request listener. Call before limitConnections (it wraps both). */
export function serveKeptReads(app: FastifyInstance, options: KeptReadsOptions): void {
  const { replies, publicOrigin, faults, record } = options;
  const server = app.server;
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  /**
   * The kept reply for the request, if it may have it. A lookup that fails (a closed database)
   * leaves the request to the pipeline, which meets the same failure and answers it.
   */
  const keptFor = (request: IncomingMessage, url: string): SentResult | undefined => {
    const { socket } = request;
    const host = request.headers.host;
    if (!hostAnswered(server, host, socket) || socket.destroyed) return undefined;
    try {
      return replies.get(publicOrigin ?? requestOrigin(host, socket.localAddress), url);
    } catch {
      return undefined;
    }
  };

  const serve = (request: IncomingMessage, response: ServerResponse): boolean => {
    const started = performance.now();
    const url = request.url ?? '';
    const kept = keptFor(request, url);
    if (kept === undefined) return false;
    faults.draw();
    response.writeHead(200, wireHeaders(kept));
    response.end(kept.text);
    record({ method: 'GET', url, status: 200, ms: performance.now() - started, reason: null });
    return true;
  };

  const fastify = server.listeners('request') as Listener[];
  server.removeAllListeners('request');
  server.on('request', function (this: Server, request: IncomingMessage, response: ServerResponse) {
    // Only API replies are kept: the site's pages, the dashboard and the admin routes skip the lookup.
    if (!closing && request.method === 'GET' && request.url?.startsWith(API_PATHS) && serve(request, response)) return;
    for (const listener of fastify) listener.call(this, request, response);
  });
}
