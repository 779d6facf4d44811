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

/** `scheme://` and the userinfo after it (up to the authority's last `@`), parsed or not. */
const USERINFO = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#]*@/;

/**
 * How every URL is shown (profile and config output, errors, --verbose traces, doctor, --dry-run,
 * a game's content URI): userinfo as `…@` (`http://user:secret@host/` → `http://…@host/`: it
 * says credentials are there, not what they are; a user name alone may be a token) and every
 * secret query parameter redacted. Also for text that does not parse as a URL.
 */
export function redactUrl(shown: string): string {
  const url = shown.replace(USERINFO, '$1…@');
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  const out: string[] = [];
  for (const [name, value] of params) {
    out.push(`${encodeURIComponent(name)}=${isSecretParam(name) ? redactEncoded(value) : encodeURIComponent(value)}`);
  }
  return `${url.slice(0, q)}?${out.join('&')}`;
}

/** A name that says "secret" though it is not one of ours (password, private_key, ...): redacted too. */
const SECRET_LOOKING = /secret|token|passw|cookie|private|credential|api_?key|(^|_)sig/i;

/** Is this query parameter's value a secret (one of SECRET_PARAMS, or a name that looks like one)? */
export function isSecretParam(name: string): boolean {
  return SECRET_PARAMS.has(name) || SECRET_LOOKING.test(name);
}

function decodeName(raw: string): string {
  if (!/[%+]/.test(raw)) return raw;
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return raw;
  }
}

/**
 * redact() for a value that goes back into a query: its two fragments percent-encoded again, so a
 * secret-looking value cannot put a control character, a space or an `&` into a log line.
 */
function redactEncoded(value: string): string {
  if (value === '') return '';
  if (value.length <= 8) return '…';
  // A fragment cut through a surrogate pair keeps a lone half, which encodeURIComponent refuses.
  const encode = (fragment: string) =>
    encodeURIComponent(
      fragment.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'),
    );
  return `${encode(value.slice(0, 4))}…${encode(value.slice(-4))}`;
}

/**
 * A query string as sent (no leading `?`), each secret parameter's value redacted and every
 * other pair left exactly as it came (a log shows what the client sent).
 */
export function redactQuery(query: string): string {
  if (query === '') return '';
  let out = '';
  for (const part of query.split('&')) {
    const eq = part.indexOf('=');
    const rawName = eq === -1 ? part : part.slice(0, eq);
    const shown =
      eq !== -1 && isSecretParam(decodeName(rawName))
        ? `${rawName}=${redactEncoded(decodeName(part.slice(eq + 1)))}`
        : part;
    out = out === '' ? shown : `${out}&${shown}`;
  }
  return out;
}

/** A cut string without a half surrogate pair at its end (encodeURIComponent refuses one). */
function whole(cut: string): string {
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** A form body's value longer than this is shown as its start and its length. */
export const SHOWN_VALUE_LENGTH = 64;

/**
 * A form body as a log shows it (`qty=1&data=%7B%22a…[length=300000]`): each secret field's value
 * redacted, each long value cut to its start with its length, at most `maxFields` fields. Values
 * are re-encoded, so the result has no space or `&` of its own.
 */
export function shownFormBody(body: string, maxFields = 64): string {
  const out: string[] = [];
  let fields = 0;
  for (const part of body.split('&')) {
    if (part === '') continue;
    if (++fields > maxFields) {
      out.push('…');
      break;
    }
    const eq = part.indexOf('=');
    const name = whole(decodeName(eq === -1 ? part : part.slice(0, eq)).slice(0, SHOWN_VALUE_LENGTH));
    const value = eq === -1 ? '' : decodeName(part.slice(eq + 1));
    const shown = isSecretParam(name)
      ? redact(value)
      : value.length > SHOWN_VALUE_LENGTH
        ? `${encodeURIComponent(whole(value.slice(0, SHOWN_VALUE_LENGTH)))}…[length=${value.length}]`
        : encodeURIComponent(value);
    out.push(`${encodeURIComponent(name)}=${shown}`);
  }
  return out.join('&');
}

/**
 * A URL without its userinfo (`https://user:pass@host/` → `https://host/`): what an audit line,
 * a receipt or a trace may name of a server. Not a URL: returned as it is.
 */
export function withoutUserinfo(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.username === '' && parsed.password === '') return url;
  parsed.username = '';
  parsed.password = '';
  const shown = parsed.toString();
  return shown.endsWith('/') && !url.endsWith('/') ? shown.slice(0, -1) : shown;
}
