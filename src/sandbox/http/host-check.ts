/**
 * The Host check (DNS rebinding): the sandbox answers only requests addressed to it. A page on
 * another site whose name is made to resolve to 127.0.0.1 talks to the sandbox as its own origin,
 * so it could log in and read a minted token; its requests carry its own name in Host, which is
 * what is refused here. Answered: localhost, 127.0.0.1 and [::1], the address the request came
 * to, and the names buildApp is given (the --host it was bound to), each with the port the
 * request came to; and the Host of --public-url as written. Tools and browsers send Host on
 * every HTTP/1.1 request; one without is refused too.
 */
import type { FastifyRequest } from 'fastify';

export interface HostNames {
  /** Names (or addresses) answered with the port a request came to, e.g. the bound `--host`. */
  names?: readonly string[];
  /** Host values answered as they are, e.g. `sandbox.example.com` of `--public-url`. */
  hosts?: readonly string[];
  /** Further names answered with the port a request came to: the game host's `g1001.sandbox.localhost`. */
  matches?: (name: string) => boolean;
}

interface Allowed {
  names: ReadonlySet<string>;
  hosts: ReadonlySet<string>;
  matches?: (name: string) => boolean;
}

// Per HTTP server, so that every route of the app (and /_sandbox's own check) reads the same list.
const allowedByServer = new WeakMap<object, Allowed>();

function bracketed(address: string): string {
  return address.includes(':') && !address.startsWith('[') ? `[${address}]` : address;
}

/** The Host values a URL is reached by: as browsers send it (no default port), and with the port. */
export function hostsOfUrl(url: string): string[] {
  const parsed = new URL(url);
  const port = parsed.port === '' ? (parsed.protocol === 'https:' ? '443' : '80') : parsed.port;
  return [...new Set([parsed.host.toLowerCase(), `${parsed.hostname.toLowerCase()}:${port}`])];
}

/** Records the further names `server` answers as (buildApp calls it once). */
export function allowHostNames(server: object, extra: HostNames): void {
  allowedByServer.set(server, {
    names: new Set((extra.names ?? []).map((name) => bracketed(name.toLowerCase()))),
    hosts: new Set((extra.hosts ?? []).map((host) => host.toLowerCase())),
    ...(extra.matches === undefined ? {} : { matches: extra.matches }),
  });
}

/** Is the Host header this sandbox's own (see above)? */
export function addressedToSandbox(request: FastifyRequest): boolean {
  return hostAnswered(request.server.server, request.headers.host, request.socket);
}

/**
 * The same check on what a request Fastify never sees brings (an upgrade: the HTTP server's own
 * `upgrade` event): the server it came to, its Host header and its socket.
 */
export function hostAnswered(
  server: object,
  hostHeader: string | undefined,
  socket: { localPort?: number | undefined; localAddress?: string | undefined },
): boolean {
  const host = hostHeader?.toLowerCase();
  if (host === undefined || socket.localPort === undefined) return false;
  const allowed = allowedByServer.get(server);
  if (allowed?.hosts.has(host)) return true;
  const colon = host.lastIndexOf(':');
  if (colon === -1 || host.slice(colon + 1) !== String(socket.localPort)) return false;
  const name = host.slice(0, colon);
  if (name === 'localhost' || name === '127.0.0.1' || name === '[::1]') return true;
  const local = socket.localAddress?.replace(/^::ffff:/, '');
  if (local !== undefined && name === bracketed(local.toLowerCase())) return true;
  return (allowed?.names.has(name) ?? false) || (allowed?.matches?.(name) ?? false);
}

/** The name part of a Host header already answered (`localhost:8787` → `localhost`, `[::1]:80` → `[::1]`). */
export function hostName(host: string): string {
  const colon = host.lastIndexOf(':');
  return colon > host.lastIndexOf(']') ? host.slice(0, colon) : host;
}

export const HOST_REFUSED =
  'forbidden: the sandbox answers only requests addressed to it (Host header: localhost, 127.0.0.1, [::1] or its own address, with its port; --public-url names another)';
