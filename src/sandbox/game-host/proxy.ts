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
import { Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../constants.js';
import { injectedBody } from './body.js';
import { isHtml } from './inject.js';
import { untrustedCertificatePage, upstreamDownPage, upstreamSlowPage } from './pages.js';
import { sendInjected } from './static.js';

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
  /** The connect tag to put into its HTML pages (see inject.ts's connectTag). */
  tag: string;
  /** `--insecure-game-host`: an https upstream's certificate is not checked (a dev server's self-signed one). */
  insecure: boolean;
}

/**
 * The request headers sent upstream. Origin goes on as the browser sent it (the page's), never
 * one made from the request's Host; `sandboxHost` is the Host the request came with, which the
 * game host answered only after its Host check.
 */
export function upstreamHeaders(incoming: IncomingHttpHeaders, target: ProxyTarget, sandboxHost: string | undefined): OutgoingHttpHeaders {
  const headers = endToEnd(incoming);
  const upstream = new URL(target.url);
  headers.host = upstream.host;
  if (typeof incoming.cookie === 'string') {
    const cookie = withoutSessionCookie(incoming.cookie);
    if (cookie === '') delete headers.cookie;
    else headers.cookie = cookie;
  }
  // A compressed page could not be injected into (one that comes compressed anyway is decoded).
  if (target.connect) headers['accept-encoding'] = 'identity';
  if (sandboxHost !== undefined) headers['x-forwarded-host'] = sandboxHost;
  headers['x-forwarded-proto'] = 'http';
  return headers;
}

/** The options of the upstream request: an https one checks the certificate unless told not to. */
export function upstreamOptions(url: URL, target: ProxyTarget): { rejectUnauthorized?: boolean } {
  return url.protocol === 'https:' && target.insecure ? { rejectUnauthorized: false } : {};
}

/** TLS failures that mean "a certificate this machine does not trust", e.g. a dev server's self-signed one. */
const UNTRUSTED_CERTIFICATE = /^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|ERR_TLS_CERT_ALTNAME_INVALID|CERT_UNTRUSTED)$/;

export function untrustedCertificate(error: NodeJS.ErrnoException): boolean {
  return typeof error.code === 'string' && UNTRUSTED_CERTIFICATE.test(error.code);
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

/** A decoder for a content coding Node can undo; null for identity or one it cannot. */
function decoder(coding: string): Transform | null {
  if (coding === 'gzip' || coding === 'x-gzip') return createGunzip();
  if (coding === 'deflate') return createInflate();
  if (coding === 'br') return createBrotliDecompress();
  return null;
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
    // HEAD of a page gets the injected page's length: the page itself is asked for and dropped.
    const head = request.method === 'HEAD';
    const method = head && target.connect ? 'GET' : request.method;
    const upstream = send(url, { method, headers: upstreamHeaders(request.headers, target, request.headers.host), ...upstreamOptions(url, target) });
    const timer = setTimeout(() => {
      settle(() => upstreamSlowPage(reply, target.gameId, target.url, Math.round(timeoutMs / 100) / 10));
      upstream.destroy();
    }, timeoutMs);
    upstream.on('error', (error: NodeJS.ErrnoException) =>
      settle(() =>
        untrustedCertificate(error)
          ? untrustedCertificatePage(reply, target.gameId, target.url, errorText(error))
          : upstreamDownPage(reply, target.gameId, target.url, errorText(error)),
      ),
    );
    upstream.on('response', (response) => {
      settle(async () => {
        reply.code(response.statusCode ?? 502).headers(replyHeaders(response, target));
        const type = response.headers['content-type'];
        const coding = String(response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
        const decode = coding === 'identity' ? null : decoder(coding);
        const empty = response.statusCode === 204 || response.statusCode === 304 || (head && method === 'HEAD');
        if (target.connect && isHtml(type) && (coding === 'identity' || decode !== null) && !empty) {
          let body: Readable = response;
          let length = response.headers['content-length'] === undefined ? undefined : Number(response.headers['content-length']);
          if (decode !== null) {
            // Decoded as it streams (a page that unpacks to gigabytes is never held whole: body.ts).
            response.on('error', (error) => decode.destroy(error));
            body = response.pipe(decode);
            length = undefined;
            reply.removeHeader('content-encoding');
          }
          return sendInjected(request, reply, await injectedBody(body, type!, length, target.tag));
        }
        if (head) {
          response.destroy();
          return reply.send();
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
