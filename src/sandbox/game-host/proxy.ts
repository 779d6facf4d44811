/**
 * The reverse proxy to a studio's dev server (or the content URI): the request goes on with its
 * method, headers (less the hop-by-hop ones; Host the upstream's) and body streamed; the reply
 * comes back streamed (chunked and SSE replies flow as they come), its redirects to the upstream
 * rewritten to the sandbox's paths and its HTML pages given the connect tag. An upstream that is
 * down is a 502 page naming the URL; one that sends no headers in time, a 504 page. Node's own
 * http client: each request waits on its own socket, so the API keeps answering meanwhile.
 */
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../constants.js';
import { injectedBody } from './body.js';
import { isHtml } from './inject.js';
import { upstreamDownPage, upstreamSlowPage } from './pages.js';

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 15_000;

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'http2-settings',
]);

/** Headers less the hop-by-hop ones (and any the Connection header names). */
export function endToEnd(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== ''),
  );
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue;
    out[name] = value;
  }
  return out;
}

/** The sandbox's own login cookie stays with the sandbox: the game's server never needs it. */
function withoutSessionCookie(cookie: string): string {
  return cookie
    .split(';')
    .filter((pair) => pair.trim().split('=', 1)[0] !== SESSION_COOKIE)
    .join(';')
    .trim();
}

export interface ProxyTarget {
  /** The absolute upstream URL to ask. */
  url: string;
  /** The upstream's origin and folder (see ResolvedSource), for rewriting redirects. */
  origin: string;
  prefix: string;
  /** Where `prefix` lives on the sandbox: `/play/ID/game/`. */
  localPrefix: string;
  gameId: string;
  connect: boolean;
}

/** The request headers sent upstream. */
export function upstreamHeaders(incoming: IncomingHttpHeaders, target: ProxyTarget, sandboxHost: string | undefined): OutgoingHttpHeaders {
  const headers = endToEnd(incoming);
  const upstream = new URL(target.url);
  headers.host = upstream.host;
  if (sandboxHost !== undefined && (incoming.origin === `http://${sandboxHost}` || incoming.origin === `https://${sandboxHost}`)) {
    // A dev server that checks Origin sees its own, as when the page is opened from it directly.
    headers.origin = target.origin;
  }
  if (typeof incoming.cookie === 'string') {
    const cookie = withoutSessionCookie(incoming.cookie);
    if (cookie === '') delete headers.cookie;
    else headers.cookie = cookie;
  }
  // A compressed page could not be injected into.
  if (target.connect) headers['accept-encoding'] = 'identity';
  if (sandboxHost !== undefined) headers['x-forwarded-host'] = sandboxHost;
  headers['x-forwarded-proto'] = 'http';
  return headers;
}

/** A Location to the upstream becomes the sandbox's path for it; others are kept. */
export function localLocation(location: string, target: ProxyTarget): string {
  let url: URL;
  try {
    url = new URL(location, target.url);
  } catch {
    return location;
  }
  const absolute = url.href;
  if (url.origin !== target.origin) return location;
  if (absolute.startsWith(target.prefix)) return `${target.localPrefix}${absolute.slice(target.prefix.length)}`;
  // Elsewhere on the upstream: its root-absolute path, which the sandbox passes to the last used source.
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Set-Cookie without Domain: the upstream's host is not the sandbox's, so the browser would drop it. */
function localCookie(cookie: string): string {
  return cookie
    .split(';')
    .filter((part) => !/^\s*domain\s*=/i.test(part))
    .join(';');
}

function replyHeaders(upstream: IncomingMessage, target: ProxyTarget): OutgoingHttpHeaders {
  const headers = endToEnd(upstream.headers);
  if (typeof headers.location === 'string') headers.location = localLocation(headers.location, target);
  const cookies = upstream.headers['set-cookie'];
  if (cookies !== undefined) headers['set-cookie'] = cookies.map(localCookie);
  return headers;
}

const hasBody = (request: FastifyRequest): boolean => {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
};

function errorText(error: NodeJS.ErrnoException): string {
  return error.code ?? error.message;
}

/** Sends the request upstream and answers with what comes back. */
export function proxy(request: FastifyRequest, reply: FastifyReply, target: ProxyTarget, timeoutMs: number): Promise<FastifyReply> {
  return new Promise<FastifyReply>((resolve, reject) => {
    let settled = false;
    const settle = (answer: () => FastifyReply | Promise<FastifyReply>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      Promise.resolve().then(answer).then(resolve, reject);
    };
    const url = new URL(target.url);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const upstream = send(url, { method: request.method, headers: upstreamHeaders(request.headers, target, request.headers.host) });
    const timer = setTimeout(() => {
      settle(() => upstreamSlowPage(reply, target.gameId, target.url, Math.round(timeoutMs / 100) / 10));
      upstream.destroy();
    }, timeoutMs);
    upstream.on('error', (error: NodeJS.ErrnoException) => settle(() => upstreamDownPage(reply, target.gameId, target.url, errorText(error))));
    upstream.on('response', (response) => {
      settle(async () => {
        reply.code(response.statusCode ?? 502).headers(replyHeaders(response, target));
        const type = response.headers['content-type'];
        const encoded = (response.headers['content-encoding'] ?? 'identity') !== 'identity';
        const empty = request.method === 'HEAD' || response.statusCode === 204 || response.statusCode === 304;
        if (target.connect && isHtml(type) && !encoded && !empty) {
          const length = response.headers['content-length'];
          const injected = await injectedBody(response, type!, length === undefined ? undefined : Number(length));
          reply.header('content-type', injected.contentType);
          if (injected.length === undefined) reply.removeHeader('content-length');
          else reply.header('content-length', String(injected.length));
          return reply.send(injected.body);
        }
        return reply.send(response);
      });
    });
    // The browser went away: so does the request upstream.
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) upstream.destroy();
    });
    if (request.method !== 'GET' && request.method !== 'HEAD' && hasBody(request)) {
      const body = request.body instanceof Readable ? request.body : request.raw;
      body.on('error', () => upstream.destroy());
      body.pipe(upstream);
    } else {
      upstream.end();
    }
  });
}
