/**
 * Replies of the web site (`{site_url}`): the sandbox login and the token generator (spec 4.2).
 * They are not wrapped in the service envelope.
 */
import { ApiError, MalformedReplyError } from '../errors.js';
import type { TokenRecord } from '../domain/types.js';
import { parseRetryAfter, header, type ReplyContext } from './envelope.js';
import type { HttpResult } from './transport.js';
import { printable } from '../printable.js';
import type { Reply } from './types.js';

const LOGIN_HINT = 'log in with `udcli auth token <game_id> --as <username>` or pass a fresh --cookie';

/** A site reply given to request() with base 'site': the JSON body (or text) as payload. */
export function readSiteReply<T>(res: HttpResult, ctx: ReplyContext): Reply<T> {
  if (res.status >= 400) throw siteError(res, ctx);
  const payload = parseJson(res.bodyText) ?? res.bodyText;
  return {
    payload: payload as T,
    envelope: { version: 1, code: res.status, message: res.statusText, payload: payload as T },
    bodyText: res.bodyText,
    httpStatus: res.status,
  };
}

/** The session cookie(s) set by `POST {site_url}/login`, as a Cookie header value. */
export function readLoginCookie(res: HttpResult, ctx: ReplyContext): string {
  if (res.status >= 400) throw siteError(res, ctx, 'site login failed');
  const setCookie = res.headers['set-cookie'];
  const cookies = (Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [])
    .map((line) => line.split(';')[0]!.trim())
    .filter((pair) => pair.includes('='));
  if (cookies.length === 0) {
    throw new MalformedReplyError(`the site login at ${ctx.target} set no session cookie (HTTP ${res.status})`, {
      hint: 'check site_url: it must point at the site that hosts /login',
    });
  }
  return cookies.join('; ');
}

/** The token record of spec 2.3. HTTP 401, or `status: false`, means not logged in to the site. */
export function readTokenRecord(res: HttpResult, ctx: ReplyContext): { record: TokenRecord; bodyText: string } {
  const body = parseJson(res.bodyText);
  const record =
    body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  if (res.status === 401 || res.status === 403 || (res.status < 300 && record?.status === false)) {
    throw new ApiError('not logged in to the site', 401, res.status, { hint: LOGIN_HINT, bodyText: res.bodyText });
  }
  if (res.status >= 300) throw siteError(res, ctx, 'token generator failed');
  if (!record || typeof record.token !== 'string' || typeof record.uid !== 'string') {
    throw new MalformedReplyError(
      `the token generator at ${ctx.target} did not return a token record (HTTP ${res.status}, ${res.bytes} bytes)`,
      { hint: 'check site_url and the game id' },
    );
  }
  return { record: record as unknown as TokenRecord, bodyText: res.bodyText };
}

function siteError(res: HttpResult, ctx: ReplyContext, prefix?: string): ApiError {
  const body = parseJson(res.bodyText) as { message?: unknown } | undefined;
  const detail =
    body && typeof body === 'object' && typeof body.message === 'string' && body.message
      ? printable(body.message)
      : `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`;
  const message = prefix ? `${prefix}: ${detail}` : detail;
  return new ApiError(message, res.status, res.status, {
    retryAfter: parseRetryAfter(header(res.headers, 'retry-after'), ctx.nowMs),
    hint: res.status === 401 ? LOGIN_HINT : undefined,
    bodyText: res.bodyText,
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
}
