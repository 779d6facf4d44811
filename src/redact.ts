/** Secrets are shown as their first and last four characters: `0123…cdef`. */
export function redact(secret: string | undefined | null): string {
  if (!secret) return '';
  if (secret.length <= 8) return '…';
  return `${secret.slice(0, 4)}…${secret.slice(-4)}`;
}

/** Query parameters whose values are secrets and must never be printed in full. */
export const SECRET_PARAMS: ReadonlySet<string> = new Set([
  'api_key',
  'auth_token',
  'signature',
  // agi: the challenge's session and the signature made with it.
  'session',
  'sig',
  'signing_secret',
  'token',
  'cookie',
]);

/** A URL with every secret query parameter redacted, for --verbose traces and error messages. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  const out: string[] = [];
  for (const [name, value] of params) {
    out.push(`${encodeURIComponent(name)}=${SECRET_PARAMS.has(name) ? redact(value) : encodeURIComponent(value)}`);
  }
  return `${url.slice(0, q)}?${out.join('&')}`;
}
