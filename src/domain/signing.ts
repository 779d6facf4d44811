import { nodeCrypto } from './node-crypto.js';

/** Query parameters in the order they are sent; names may repeat. */
export type QueryParams = ReadonlyArray<readonly [string, string]>;

export const SIGNATURE_PARAM = 'signature';
export const TIMESTAMP_PARAM = 'timestamp';
/**
 * What makes two identical signed requests differ (SERVICE.md: hmac-sha256-v1, 5): random per
 * request, signed like any parameter; optional for a client, which then gets one request per
 * distinct (parameters, second).
 */
export const NONCE_PARAM = 'nonce';
/** The nonce's shape: 16 to 64 characters of `A-Z a-z 0-9 - _`. */
export const NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
/** How far (seconds) a signed request's timestamp may be from the server clock. */
export const TIMESTAMP_WINDOW_SECONDS = 300;

const UNRESERVED = /^[A-Za-z0-9._~-]*$/;

/** RFC 3986 encoding: unreserved characters kept, everything else %XX of its UTF-8 bytes. */
export function rfc3986(value: string): string {
  // Most names and values (ids, numbers, keys) need no encoding at all.
  if (UNRESERVED.test(value)) return value;
  // encodeURIComponent leaves !'()* unescaped; RFC 3986 unreserved does not include them.
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

/** Every parameter but `signature`, encoded, sorted by encoded name then value, joined with &. */
export function canonicalQuery(params: QueryParams): string {
  const encoded = params
    .filter(([name]) => name !== SIGNATURE_PARAM)
    .map(([name, value]) => [rfc3986(name), rfc3986(value)] as const);
  encoded.sort(([an, av], [bn, bv]) => (an < bn ? -1 : an > bn ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return encoded.map(([n, v]) => `${n}=${v}`).join('&');
}

/**
 * The effective method is the `method` override (upper-cased) when present, else the HTTP verb:
 * a client that can only send POST still signs what the server will execute.
 */
export function effectiveMethod(httpMethod: string, params: QueryParams): string {
  const override = params.find(([name]) => name === 'method');
  return (override ? override[1] : httpMethod).toUpperCase();
}

/**
 * The pairs hmac-sha256-v1 signs: the query's and a form body's alike (the canonical query sorts
 * them together), so that a body field cannot be changed in transit either.
 */
export function hmacSignedPairs(query: QueryParams, body: QueryParams = []): QueryParams {
  return body.length === 0 ? query : [...query, ...body];
}

export function canonicalString(httpMethod: string, path: string, params: QueryParams): string {
  return `${effectiveMethod(httpMethod, params)}\n${path}\n${canonicalQuery(params)}`;
}

export function hmacSha256Hex(secret: string, data: string): string {
  return nodeCrypto().createHmac('sha256', secret).update(data, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex signatures. */
export function signaturesEqual(expectedHex: string, givenHex: string): boolean {
  const a = Buffer.from(expectedHex, 'utf8');
  const b = Buffer.from(givenHex.toLowerCase(), 'utf8');
  if (a.length !== b.length) {
    // Still spend the comparison so length is the only thing that leaks.
    nodeCrypto().timingSafeEqual(a, a);
    return false;
  }
  return nodeCrypto().timingSafeEqual(a, b);
}
