/** One HTTP exchange as a HAR 1.2 entry, its secrets replaced (redaction.ts). */
import { FORM_CONTENT_TYPE } from '../domain/contract.js';
import type { HarEntry, HarNameValue } from './format.js';
import type { Redactor } from './redaction.js';

/** What a client saw of one exchange, before any interpretation. */
export interface RecordedExchange {
  startedMs: number;
  elapsedMs: number;
  method: string;
  /** The full URL as sent. */
  url: string;
  requestHeaders: Record<string, string>;
  /** A form body. */
  requestBody?: string;
  /** Absent when no reply came. */
  response?: {
    status: number;
    statusText: string;
    headers: Record<string, string | string[] | undefined>;
    bodyText: string;
    bytes: number;
  };
  /** Why no reply came. */
  failure?: string;
}

function headerList(headers: Record<string, string | string[] | undefined>, redactor: Redactor): HarNameValue[] {
  const out: HarNameValue[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value])
      out.push({ name, value: redactor.header(name, String(one)) });
  }
  return out;
}

function cookieList(header: string | string[] | undefined, redactor: Redactor): HarNameValue[] {
  if (header === undefined) return [];
  const out: HarNameValue[] = [];
  for (const line of Array.isArray(header) ? header : [header]) {
    for (const part of line.split(';')) {
      const eq = part.indexOf('=');
      if (eq <= 0) continue;
      out.push({ name: part.slice(0, eq).trim(), value: redactor.placeholder(part.slice(eq + 1).trim()) });
      // A set-cookie line names one cookie; its attributes follow.
      if (Array.isArray(header) || !line.includes(',')) break;
    }
  }
  return out;
}

function lowerKeys<T>(headers: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}

function decoded(raw: string): string {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return raw;
  }
}

/** `a=1&b=2` → pairs, values decoded and redacted. */
function pairs(text: string, redactor: Redactor): HarNameValue[] {
  const out: HarNameValue[] = [];
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = decoded(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? '' : decoded(part.slice(eq + 1));
    out.push({ name, value: redactor.param(name, value) });
  }
  return out;
}

export function harEntry(exchange: RecordedExchange, redactor: Redactor): HarEntry {
  const url = redactor.url(exchange.url);
  const q = url.indexOf('?');
  const requestHeaders = lowerKeys(exchange.requestHeaders);
  const contentType = requestHeaders['content-type'] ?? FORM_CONTENT_TYPE;
  const body = exchange.requestBody;
  const reply = exchange.response;
  const replyHeaders = reply ? lowerKeys(reply.headers) : {};
  const mimeType = String(
    replyHeaders['content-type'] ?? (reply && reply.bodyText !== '' ? 'application/octet-stream' : 'x-unknown'),
  );
  const entry: HarEntry = {
    startedDateTime: new Date(exchange.startedMs).toISOString(),
    time: Math.max(0, exchange.elapsedMs),
    request: {
      method: exchange.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: cookieList(requestHeaders.cookie, redactor),
      headers: headerList(requestHeaders, redactor),
      queryString: q === -1 ? [] : pairs(url.slice(q + 1), redactor),
      headersSize: -1,
      bodySize: body === undefined ? 0 : Buffer.byteLength(body),
      // HAR 1.2: `text` and `params` are mutually exclusive; `text` is what browsers write.
      ...(body === undefined ? {} : { postData: { mimeType: contentType, text: redactor.body(body, contentType) } }),
    },
    response: {
      status: reply?.status ?? 0,
      // A status line is the server's text too: a proxy's can name the player.
      statusText: redactor.personalText(reply?.statusText ?? ''),
      httpVersion: 'HTTP/1.1',
      cookies: cookieList(replyHeaders['set-cookie'], redactor),
      headers: headerList(replyHeaders, redactor),
      content: {
        size: reply?.bytes ?? 0,
        mimeType,
        ...(reply ? { text: redactor.body(reply.bodyText, mimeType) } : {}),
      },
      redirectURL: typeof replyHeaders.location === 'string' ? redactor.url(replyHeaders.location) : '',
      headersSize: -1,
      bodySize: reply?.bytes ?? -1,
      ...(exchange.failure === undefined ? {} : { _failure: redactor.scrub(redactor.personalText(exchange.failure)) }),
    },
    cache: {},
    // A client sees the exchange whole: the wait holds it all, as HAR allows (-1: not known).
    timings: { send: 0, wait: Math.max(0, exchange.elapsedMs), receive: 0 },
  };
  return entry;
}
