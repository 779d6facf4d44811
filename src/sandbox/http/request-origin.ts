/**
 * `http://host:port` a request came to, as absolute URLs in replies use it (avatars), with a safe
 * fallback for a junk Host header. Shared by the pipeline and the kept reads served before it
 * (kept-reads.ts): a kept reply is the same only for the same origin.
 */
let lastHost: string | null = null;
let lastOrigin = '';

export function requestOrigin(host: string | undefined, localAddress: string | undefined): string {
  // A client sends the same Host again and again: its origin is worked out once, not per request.
  if (host === lastHost) return lastOrigin;
  if (host === undefined || !/^[A-Za-z0-9.[\]:-]{1,255}$/.test(host)) return `http://${localAddress ?? '127.0.0.1'}`;
  lastHost = host;
  lastOrigin = `http://${host}`;
  return lastOrigin;
}
