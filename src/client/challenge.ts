/**
 * The agi challenge as the client reads it (SERVICE.md: Signatures / agi): a 401 whose payload
 * holds `session` and `key`. Anything else that looks like a signing refusal without them is a
 * clear error, never a retry loop.
 */
import { ApiError } from '../errors.js';
import type { AgiChallenge } from '../domain/agi-signing.js';

/** Signed attempts per request, as the platform's SDK allows. */
export const MAX_SIGNED_ATTEMPTS = 3;

/** What `api --sign --dry-run` signs with: the real pair only exists once the server hands it out. */
export const PLACEHOLDER_CHALLENGE: AgiChallenge = { session: 'SESSION', key: 'KEY' };

const NOT_AGI_HINT =
  'the server may not speak agi: check signing_scheme (`udcli profile show`; `udcli config set signing_scheme hmac-sha256-v1`)';

/**
 * The challenge an error carries, or null when the error is not one (a plain 401 such as
 * `invalid api_key`, any other status). Throws an ApiError (401, exit 3) for a challenge
 * without a session or key.
 */
export function readChallenge(error: unknown): AgiChallenge | null {
  if (!(error instanceof ApiError) || (error.code !== 401 && error.httpStatus !== 401)) return null;
  const payload = payloadOf(error.bodyText);
  if (payload && typeof payload === 'object' && !Array.isArray(payload)) {
    const { session, key } = payload as Record<string, unknown>;
    const text = (v: unknown): string | undefined =>
      typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : undefined;
    const s = text(session);
    const k = text(key);
    if (s !== undefined && k !== undefined) return { session: s, key: k };
    throw malformed(error);
  }
  if (/signature|session/i.test(error.message)) throw malformed(error);
  return null;
}

function malformed(error: ApiError): ApiError {
  return new ApiError(
    `the server asked for a signature ("${error.message}") but sent no session and key to sign with`,
    401,
    error.httpStatus,
    { hint: NOT_AGI_HINT, ...(error.bodyText !== undefined ? { bodyText: error.bodyText } : {}) },
  );
}

/** The server kept answering signed attempts with a new challenge. */
export function challengeLoop(error: ApiError, attempts: number): ApiError {
  return new ApiError(
    `the server refused ${attempts} signed attempts (last reply: ${error.message}): each was refused, so none was applied`,
    401,
    error.httpStatus,
    { hint: NOT_AGI_HINT, ...(error.bodyText !== undefined ? { bodyText: error.bodyText } : {}) },
  );
}

function payloadOf(bodyText: string | undefined): unknown {
  if (!bodyText) return undefined;
  try {
    const value = JSON.parse(bodyText.replace(/^\uFEFF/, '')) as unknown;
    return value && typeof value === 'object' ? (value as { payload?: unknown }).payload : undefined;
  } catch {
    return undefined;
  }
}
