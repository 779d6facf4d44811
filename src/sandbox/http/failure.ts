/**
 * The errors a request can end in, one per row of the contract's error table. Thrown anywhere
 * in the pipeline; the app turns them into the envelope (HTTP status = code, payload null).
 */
import { TIMESTAMP_WINDOW_SECONDS } from '../../spec/signing.js';

export class ApiFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiFailure';
  }
}

/** Keeps echoed request values short and printable in messages. */
export function shown(value: string, max = 64): string {
  // eslint-disable-next-line no-control-regex
  const printable = value.replace(/[\u0000-\u001f\u007f]/g, '?');
  return printable.length > max ? `${printable.slice(0, max)}…` : printable;
}

export const fail = {
  missingParameter: (name: string) => new ApiFailure(400, `missing parameter: ${name}`),
  invalidParameter: (name: string, why?: string) => new ApiFailure(400, `invalid parameter: ${name}${why ? ` (${why})` : ''}`),
  missingApiKey: () => new ApiFailure(401, 'missing api_key'),
  invalidApiKey: () => new ApiFailure(401, 'invalid api_key'),
  signatureRequired: (why?: string) => new ApiFailure(403, `signature required${why ? ` (${why})` : ''}`),
  badSignature: () => new ApiFailure(403, 'bad signature'),
  staleTimestamp: (skewSeconds: number) =>
    new ApiFailure(403, `stale timestamp: ${skewSeconds} s from the server clock (window ${TIMESTAMP_WINDOW_SECONDS} s)`),
  notFound: (what: string) => new ApiFailure(404, `not found: ${what}`),
  methodNotAllowed: (method: string, allowed: readonly string[]) =>
    new ApiFailure(405, `method not allowed: ${shown(method, 16)} (allowed: ${allowed.join(', ')})`, { allow: allowed.join(', ') }),
  insufficientQuantity: (held: number, wanted: number) =>
    new ApiFailure(409, `insufficient quantity: holds ${held}, cannot take ${wanted}`),
  payloadTooLarge: () => new ApiFailure(413, 'request too large'),
  rateLimited: (retryAfterSeconds: number) =>
    new ApiFailure(429, `rate limited: retry after ${retryAfterSeconds} s`, { 'retry-after': String(retryAfterSeconds) }),
  internal: () => new ApiFailure(500, 'internal error'),
};
