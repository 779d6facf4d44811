/**
 * Reading service replies tolerantly (SERVICE.md: "Tolerance"). Success is decided from the
 * envelope `code`, not from the HTTP status alone; an error status without an envelope (HTML
 * from a proxy, an empty body) becomes an ApiError with a clear message; a 2xx body that is not
 * an envelope is a MalformedReplyError. The payload is kept exactly as received.
 */
import { ApiError, MalformedReplyError } from '../errors.js';
import type { SigningScheme } from '../domain/contract.js';
import { TIMESTAMP_WINDOW_SECONDS } from '../domain/signing.js';
import type { Envelope } from '../domain/types.js';
import type { Reply } from './types.js';
import type { HttpResult, ResponseHeaders } from './transport.js';
import { jsonText, printable } from '../printable.js';

export interface ReplyContext {
  method: string;
  /** Origin and path, no query. */
  target: string;
  /** For Retry-After given as an HTTP date. */
  nowMs: number;
  /** The client's signing scheme: hints about signatures depend on it. */
  scheme?: SigningScheme;
}

/** Interprets a reply of /services/rest/v1/... ; throws ApiError or MalformedReplyError. */
export function readEnvelope<T>(res: HttpResult, ctx: ReplyContext): Reply<T> {
  const envelope = parseEnvelope(res);
  const retryAfter = parseRetryAfter(header(res.headers, 'retry-after'), ctx.nowMs);

  if (!envelope) {
    if (res.status >= 300) throw statusError(res, retryAfter, ctx.scheme);
    throw new MalformedReplyError(
      `the reply to ${ctx.method} ${ctx.target} was not a service envelope (${describeBody(res)})`,
      { hint: 'check that base_url points at the User Data REST Service; --verbose shows the request' },
    );
  }

  if (envelope.code !== 200) {
    // The server's words, quoted in a message of ours: one line, its own line breaks escaped, so
    // it cannot write a line on stderr that looks like udcli's.
    const message = failureMessage(envelope.code, envelope.message, res.status);
    throw new ApiError(message, envelope.code, res.status, {
      retryAfter,
      hint: hintFor(envelope.code, message, ctx.scheme),
      bodyText: res.bodyText,
    });
  }

  return {
    payload: envelope.payload as T,
    envelope: envelope as Envelope<T>,
    bodyText: res.bodyText,
    httpStatus: res.status,
  };
}

/**
 * What a failed reply says. A message that reads as success ("OK", "success", none: a backend that
 * sets the code and keeps its default message) alone would print `udcli: OK` for a failure: the
 * code and the status then speak instead, with the message quoted.
 */
function failureMessage(code: number, message: string, status: number): string {
  const where = `error ${code}${status !== code ? ` (HTTP ${status})` : ''}`;
  if (message.trim() === '') return where;
  if (/^\s*(ok|success(ful)?|done)\W*$/i.test(message)) return `${where}, though its message says ${jsonText(message)}`;
  return printable(message);
}

/**
 * The envelope in a body, or null when the body is not one. Accepts `code` (and `version`) sent
 * as numeric strings; keeps every other field and the payload untouched. Also reads the `.xml`
 * form's code and message (the payload is then the XML text itself).
 */
export function parseEnvelope(res: Pick<HttpResult, 'bodyText' | 'headers'>): Envelope<unknown> | null {
  const text = res.bodyText.replace(/^\uFEFF/, '').trim();
  if (!text) return null;
  if (text.startsWith('<')) return parseXmlEnvelope(text, header(res.headers, 'content-type'));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const code = toInteger(record.code);
  if (code === undefined) return null;
  return {
    ...record,
    version: toInteger(record.version) ?? 1,
    code,
    message: typeof record.message === 'string' ? record.message : record.message == null ? '' : String(record.message),
    payload: record.payload === undefined ? null : record.payload,
  } as Envelope<unknown>;
}

function parseXmlEnvelope(text: string, contentType: string | undefined): Envelope<unknown> | null {
  const isXml = text.startsWith('<?xml') || (contentType ?? '').includes('xml');
  if (!isXml) return null;
  const code = toInteger(/<code>\s*([^<]*?)\s*<\/code>/.exec(text)?.[1]);
  if (code === undefined) return null;
  const message = /<message>([^<]*)<\/message>/.exec(text)?.[1] ?? '';
  return { version: 1, code, message, payload: text };
}

/**
 * Retry-After in seconds: delta-seconds or an HTTP date (rounded up, never negative).
 * Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed));
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - nowMs) / 1000));
}

/** An error HTTP status whose body is not an envelope: say what came back, not a parse error. */
function statusError(res: HttpResult, retryAfter: number | undefined, scheme: ReplyContext['scheme']): ApiError {
  const what = res.bodyText.trim() ? 'the reply was not a service envelope' : 'empty reply';
  const message = `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''} (${what})`;
  return new ApiError(message, res.status, res.status, {
    retryAfter,
    hint:
      hintFor(res.status, message, scheme) ??
      (res.status === 404
        ? 'nothing answers there as the service: check that base_url points at the User Data REST Service'
        : undefined),
    bodyText: res.bodyText,
    withoutEnvelope: true,
  });
}

/** Only hmac-sha256-v1 has a secret of ours; agi's key comes from the server's challenge. */
function hintFor(code: number, message: string, scheme: ReplyContext['scheme'] = 'hmac-sha256-v1'): string | undefined {
  if (/stale timestamp/i.test(message))
    return `check this machine's clock: signed requests must be within ${TIMESTAMP_WINDOW_SECONDS} s of the server's`;
  if (/signature|stale session/i.test(message)) {
    if (scheme === 'agi') {
      return code === 403
        ? 'this server wants hmac-sha256-v1 signatures: `udcli config set signing_scheme hmac-sha256-v1` and set signing_secret'
        : 'the server did not accept the agi signature: check signing_scheme (`udcli profile show`)';
    }
    if (scheme === 'none')
      return "this request must be signed: `udcli config set signing_scheme agi` (the platform's scheme)";
    return "check the profile's signing_secret and signing_scheme (`udcli profile show`)";
  }
  if (code === 401) return "check the profile's api_key (`udcli profile show`)";
  // contract: a key acts on its own game only.
  if (code === 403 && /^forbidden: this api_key belongs to game/.test(message)) {
    return "use that game (--game, or the profile's game_id), or a profile with the other game's api_key (`udcli profile add`)";
  }
  if (code >= 300 && code < 400) return 'the service redirected: check base_url (http vs https, path)';
  return undefined;
}

/** "HTTP 200, text/html, 1234 bytes, starts with <html>…" with anything key-like redacted. */
function describeBody(res: HttpResult): string {
  const parts = [`HTTP ${res.status}`];
  const type = header(res.headers, 'content-type');
  if (type) parts.push(type.split(';')[0]!.trim());
  parts.push(`${res.bytes} bytes`);
  const start = res.bodyText
    .trim()
    .slice(0, 40)
    .replace(/\s+/g, ' ')
    .replace(/[0-9a-f]{16,}/gi, '…');
  parts.push(start ? `starts with ${jsonText(start)}` : 'empty');
  return parts.join(', ');
}

export function header(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function toInteger(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return Number(value);
  return undefined;
}
