/**
 * The reverse proxy to a studio's dev server (or the content URI): the request goes on with its
 * method, headers (less the hop-by-hop ones; Host the upstream's) and body streamed; the reply
 * comes back streamed (chunked and SSE replies flow as they come), its redirects to the upstream
 * rewritten to the sandbox's paths and its HTML pages given the connect tag. An upstream that is
 * down is a 502 page naming the URL; one that sends no headers in time, a 504 page. Node's own
 * http client: each request waits on its own socket, so the API keeps answering meanwhile.
 */
import {
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
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

/**
 * Where a game's upstream keeps its cookies in the browser (issue 40). Cookies ignore ports, so
 * the browser sends the game host whatever it holds for that name: another local app's session,
 * the sandbox's own login on a shared name, a cookie another game's script set for the whole
 * site. The proxy sends the upstream only the cookies it set for this game (their names begin
 * with `prefix`, which it takes off), and every cookie the upstream sets is renamed into `prefix`,
 * so it can never set, replace or read anyone else's. `hostOnly`: a game's own name, where the
 * names are `__Host-` ones (no Domain, Path=/, Secure), which a browser refuses to take with a
 * Domain: no other page of the site can plant one.
 */
export interface CookieSpace {
  prefix: string;
  hostOnly: boolean;
}

/** The Cookie header for the upstream: only its own cookies, with the names it gave them; null when none. */
export function upstreamCookie(header: string, space: CookieSpace): string | null {
  const kept: string[] = [];
  for (const pair of header.split(';')) {
    const trimmed = pair.trim();
    if (!trimmed.startsWith(space.prefix)) continue;
    const own = trimmed.slice(space.prefix.length);
    if (own !== '' && !own.startsWith('=')) kept.push(own);
  }
  return kept.length === 0 ? null : kept.join('; ');
}

const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,200}$/;
const REPLACED_ON_OWN_NAME = new Set(['domain', 'path', 'secure']);

/**
 * An upstream's Set-Cookie line in the game's space: its name prefixed, its Domain dropped (the
 * upstream's host is not the game host's), its other attributes (HttpOnly, SameSite, Expires,
 * Max-Age) kept; null for a line that sets no named cookie.
 */
export function localSetCookie(line: string, space: CookieSpace): string | null {
  const [pair = '', ...attributes] = line.split(';');
  const eq = pair.indexOf('=');
  if (eq === -1) return null;
  const name = pair.slice(0, eq).trim();
  if (!COOKIE_NAME.test(name)) return null;
  const kept = attributes
    .map((attribute) => attribute.trim())
    .filter((attribute) => {
      const key = (attribute.split('=', 1)[0] ?? '').trim().toLowerCase();
      return attribute !== '' && key !== 'domain' && !(space.hostOnly && REPLACED_ON_OWN_NAME.has(key));
    });
  if (space.hostOnly) kept.push('Path=/', 'Secure');
  return [`${space.prefix}${name}=${pair.slice(eq + 1).trim()}`, ...kept].join('; ');
}

/**
 * Reply headers an upstream never passes on: `Service-Worker-Allowed` (a worker's scope stays
 * where its script is) and `Clear-Site-Data` (its cookies type reaches every port of the name,
 * the sandbox's login included).
 */
const WITHHELD_REPLY_HEADERS = ['service-worker-allowed', 'clear-site-data'];

export interface ProxyTarget {
  /** Where the upstream's cookies live (see CookieSpace). */
  cookies: CookieSpace;
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
export function upstreamHeaders(
  incoming: IncomingHttpHeaders,
  target: ProxyTarget,
  sandboxHost: string | undefined,
): OutgoingHttpHeaders {
  const headers = endToEnd(incoming);
  const upstream = new URL(target.url);
  headers.host = upstream.host;
  delete headers.cookie;
  if (typeof incoming.cookie === 'string') {
    const cookie = upstreamCookie(incoming.cookie, target.cookies);
    if (cookie !== null) headers.cookie = cookie;
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
const UNTRUSTED_CERTIFICATE =
  /^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|ERR_TLS_CERT_ALTNAME_INVALID|CERT_UNTRUSTED)$/;

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

function replyHeaders(upstream: IncomingMessage, target: ProxyTarget): OutgoingHttpHeaders {
  const headers = endToEnd(upstream.headers);
  if (typeof headers.location === 'string') headers.location = localLocation(headers.location, target);
  for (const name of WITHHELD_REPLY_HEADERS) delete headers[name];
  const cookies = (upstream.headers['set-cookie'] ?? []).flatMap((line) => localSetCookie(line, target.cookies) ?? []);
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  else delete headers['set-cookie'];
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
export function proxy(
  request: FastifyRequest,
  reply: FastifyReply,
  target: ProxyTarget,
  timeoutMs: number,
): Promise<FastifyReply> {
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
    const upstream = send(url, {
      method,
      headers: upstreamHeaders(request.headers, target, request.headers.host),
      ...upstreamOptions(url, target),
    });
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
        const coding = String(response.headers['content-encoding'] ?? 'identity')
          .trim()
          .toLowerCase();
        const decode = coding === 'identity' ? null : decoder(coding);
        const empty = response.statusCode === 204 || response.statusCode === 304 || (head && method === 'HEAD');
        if (target.connect && isHtml(type) && (coding === 'identity' || decode !== null) && !empty) {
          let body: Readable = response;
          let length =
            response.headers['content-length'] === undefined ? undefined : Number(response.headers['content-length']);
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
