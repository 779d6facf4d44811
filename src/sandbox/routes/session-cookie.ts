/**
 * The site's login cookie, which no game may shadow (issue 51). Every game's name
 * (`g1001.sandbox.localhost`) is a subdomain of the play page's (`sandbox.localhost`), so a game's
 * script may set a cookie of any plain name for the whole site (`Domain=sandbox.localhost`), for a
 * year, on a path longer than `/` (`/play/1001`): a browser sends the longest path first, and a
 * site that read the first cookie of its name read the game's, "Not logged in" for good, a new
 * login included. So:
 *
 * - Where a browser takes a `Secure` cookie over http (loopback names and `*.localhost`, which
 *   Chromium counts as secure contexts; an https `--public-url`) the login is `__Host-`, which a
 *   browser takes only host-only with Path=/ and Secure: no game's page can set one the play page
 *   gets, in any case of the prefix or as a nameless cookie. There no other name is read, so an
 *   old `udcli_sandbox_session` is ignored (the user logs in again).
 * - Elsewhere (a LAN name over plain http, where Secure cookies are refused and all games share
 *   one origin on the site's very name) the plain name is set, and of the cookies of the login's
 *   names the first that names a live session is the login: a game's script cannot learn one (the
 *   cookie is HttpOnly, a login from a game's origin is refused), so what it plants names none. A
 *   game's dev server could log in as a tool and plant that id, picking who the site sees there;
 *   games are not kept apart on such names anyway (docs/SANDBOX-DESIGN.md, "Tools and other names").
 */
import type { FastifyRequest } from 'fastify';
import { normalizeHex32 } from '../../domain/ids.js';
import { PLAIN_SESSION_COOKIE, SESSION_COOKIE, SESSION_TTL_SECONDS } from '../constants.js';
import { isLoopbackName } from '../game-host/game-names.js';
import { hostName } from '../http/host-check.js';

export interface SessionCookieDeps {
  /** Host values a browser reaches the site by over https (those of an https `--public-url`). */
  httpsHosts?: readonly string[];
}

/** Chromium treats 127.0.0.0/8 and `*.localhost` as secure contexts; `[::1]` is a loopback name. */
const LOOPBACK_V4 = /^127(?:\.\d{1,3}){3}$/;

/** Does a browser that reached the site by this request's Host keep a `Secure` cookie from it? */
function takesSecureCookies(request: FastifyRequest, deps: SessionCookieDeps): boolean {
  const host = request.headers.host?.toLowerCase();
  if (host === undefined) return false;
  if (deps.httpsHosts?.includes(host)) return true;
  const name = hostName(host);
  return isLoopbackName(name) || name.endsWith('.localhost') || LOOPBACK_V4.test(name);
}

/** The login cookie's name for this request's Host (see above). */
export function sessionCookieName(request: FastifyRequest, deps: SessionCookieDeps): string {
  return takesSecureCookies(request, deps) ? SESSION_COOKIE : PLAIN_SESSION_COOKIE;
}

/** The Set-Cookie of a login: HttpOnly, so no script reads or replaces it; `__Host-`'s rules where it applies. */
export function sessionCookieHeader(request: FastifyRequest, deps: SessionCookieDeps, id: string): string {
  const name = sessionCookieName(request, deps);
  const secure = name === SESSION_COOKIE ? '; Secure' : '';
  return `${name}=${id}; Path=/; Max-Age=${SESSION_TTL_SECONDS}; HttpOnly; SameSite=Lax${secure}`;
}

/**
 * The well-formed session ids of the request's login cookies, in the order sent: the `__Host-`
 * name's always (a browser holds it only as the site set it; a tool sends what it was given), the
 * plain name's only where the site sets that name.
 */
export function sessionIds(request: FastifyRequest, deps: SessionCookieDeps): string[] {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return [];
  const names = takesSecureCookies(request, deps) ? [SESSION_COOKIE] : [SESSION_COOKIE, PLAIN_SESSION_COOKIE];
  const ids: string[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || !names.includes(part.slice(0, eq).trim())) continue;
    const id = normalizeHex32(part.slice(eq + 1).trim());
    if (id !== null && !ids.includes(id)) ids.push(id);
  }
  return ids;
}
