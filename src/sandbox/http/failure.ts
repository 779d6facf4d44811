/**
 * The errors a request can end in, one per row of the contract's error table. Thrown anywhere
 * in the pipeline; the app turns them into the envelope (HTTP status = code, payload null).
 */
import type { AgiChallenge } from '../../domain/agi-signing.js';
import { TIMESTAMP_WINDOW_SECONDS } from '../../domain/signing.js';
import { printable } from '../../printable.js';

export class ApiFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
    /** Null on every error but the agi challenge, which carries {session, key}. */
    readonly payload: unknown = null,
  ) {
    super(message);
    this.name = 'ApiFailure';
  }

  /** The failure in a few words for the request log, when the message is long (an explained signature). */
  note: string | undefined;

  noted(note: string): this {
    this.note = note;
    return this;
  }

  /**
   * The challenge's session when this is the plain start of the agi handshake (an unsigned request,
   * nothing wrong with it): the request log shows it with its signed retry, not as a failure.
   */
  handshake: string | undefined;
}

/** Keeps echoed request values short and, by the one rule (printable.ts), printable in messages. */
export function shown(value: string, max = 64): string {
  const short = value.length > max ? `${value.slice(0, max)}…` : value;
  return printable(short);
}

/**
 * A failure of `fail` is a reply, not a bug: nobody reads its stack, and V8 capturing one costs
 * more than the rest of the reply's making (every agi change starts with a 401 challenge).
 */
function reply(...args: ConstructorParameters<typeof ApiFailure>): ApiFailure {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new ApiFailure(...args);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

export const fail = {
  missingParameter: (name: string) => reply(400, `missing parameter: ${name}`),
  invalidParameter: (name: string, why?: string) => reply(400, `invalid parameter: ${name}${why ? ` (${why})` : ''}`),
  /** The same name in the query and in the form body, with different values (SERVICE.md: form bodies). */
  ambiguousParameter: (name: string) => reply(400, `ambiguous parameter: ${name} (query and body differ)`),
  /** A POST whose body is not a form: its parameters would be lost unread. */
  unsupportedBody: (contentType: string) =>
    reply(
      415,
      `unsupported content type: ${contentType === '' ? '(none given)' : shown(contentType, 64)} ` +
        '(parameters go in the query or an application/x-www-form-urlencoded body)',
    ),
  missingApiKey: () => reply(401, 'missing api_key'),
  invalidApiKey: () => reply(401, 'invalid api_key'),
  signatureRequired: (why?: string) => reply(403, `signature required${why ? ` (${why})` : ''}`),
  badSignature: (why?: string) => reply(403, `bad signature${why ? ` (${why})` : ''}`),
  /** The agi challenge: HTTP 401 with a fresh {session, key} to sign the retry with. */
  challenge: (
    reason: 'signature required' | 'bad signature' | 'stale session',
    challenge: AgiChallenge,
    why?: string,
  ) => reply(401, `${reason}${why ? ` (${why})` : ''}`, {}, { session: challenge.session, key: challenge.key }),
  /** The challenge an unsigned request gets: how the platform's SDK starts every signed change. */
  handshake: (challenge: AgiChallenge) => {
    const failure = fail.challenge('signature required', challenge);
    failure.handshake = challenge.session;
    return failure;
  },
  /** hmac-sha256-v1: a captured request sent again within its window (http/used-signatures.ts). */
  signatureUsed: () =>
    reply(
      401,
      'signature already used (hmac-sha256-v1: one request per signature; sign again, with a new nonce)',
    ).noted('signature already used (hmac-sha256-v1)'),
  /**
   * hmac-sha256-v1: a timestamp in seconds whose used signatures were swept, reached again by a clock moved back
   * (used-signatures.ts).
   */
  signatureForgotten: () =>
    reply(
      401,
      "signature already used (hmac-sha256-v1: the signatures of this timestamp's seconds were forgotten before the clock moved back onto them; any may have been used: move the sandbox clock past them)",
    ).noted('signature already used (hmac-sha256-v1, clock moved back)'),
  forbiddenGame: (gameId: string) => reply(403, `forbidden: this api_key belongs to game ${gameId}`),
  staleTimestamp: (skewSeconds: number) =>
    reply(403, `stale timestamp: ${skewSeconds} s from the server clock (window ${TIMESTAMP_WINDOW_SECONDS} s)`),
  notFound: (what: string) => reply(404, `not found: ${what}`),
  methodNotAllowed: (method: string, allowed: readonly string[]) =>
    reply(405, `method not allowed: ${shown(method, 16)} (allowed: ${allowed.join(', ')})`, {
      allow: allowed.join(', '),
    }),
  /** A GET never changes state, whatever its `method` says: links and prefetches are safe. */
  overrideOnGet: (override: string, allowed: readonly string[]) =>
    reply(405, `method not allowed: GET with method=${shown(override, 16)} (send it as POST)`, {
      allow: allowed.join(', '),
    }),
  insufficientQuantity: (held: number, wanted: number) =>
    reply(409, `insufficient quantity: holds ${held}, cannot take ${wanted}`),
  /** A quest revoked (from a data file) takes no progress (SERVICE.md: Achievements). */
  revokedQuest: (developerId: string) => reply(409, `quest revoked: ${shown(developerId)} takes no progress`),
  /** A game save's auth_token: unknown, expired, or another user's or game's (nothing changes). */
  invalidAuthToken: (why: string) => reply(403, `invalid auth_token (${why})`),
  tooManySaves: (limit: number) => reply(409, `too many saves: at most ${limit} keys per user and game`),
  payloadTooLarge: () => reply(413, 'request too large'),
  rateLimited: (retryAfterSeconds: number) =>
    reply(429, `rate limited: retry after ${retryAfterSeconds} s`, {
      'retry-after': String(retryAfterSeconds),
    }),
  /** Another process held the database's write lock for longer than a request waits (http/busy.ts). */
  databaseBusy: (retryAfterSeconds: number) =>
    reply(
      503,
      `database busy: another process is writing to the sandbox database; retry after ${retryAfterSeconds} s`,
      {
        'retry-after': String(retryAfterSeconds),
      },
    ).noted('database busy: another process holds the write lock'),
  internal: () => reply(500, 'internal error'),
};
