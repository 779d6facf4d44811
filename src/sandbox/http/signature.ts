/**
 * Checks signed requests (SERVICE.md: Signatures) with the shared signing code. Each game accepts
 * `agi` (the platform's challenge scheme), `hmac-sha256-v1` (ours) or both: a request carrying
 * `sig`/`session` is checked as agi, one carrying `signature` as hmac, and one carrying neither
 * gets the agi challenge (or, on an hmac-only game, a 403 saying what to send).
 */
import { AGI_SESSION_PARAM, AGI_SIG_PARAM, agiSignature } from '../../domain/agi-signing.js';
import {
  canonicalString,
  hmacSha256Hex,
  hmacSignedPairs,
  NONCE_PARAM,
  NONCE_PATTERN,
  SIGNATURE_PARAM,
  signaturesEqual,
  TIMESTAMP_PARAM,
  TIMESTAMP_WINDOW_SECONDS,
} from '../../domain/signing.js';
import type { ApiKeyWithGame } from '../repositories/games.js';
import type { ChallengeStore } from './challenges.js';
import type { SignatureRule } from './endpoint.js';
import { fail } from './failure.js';
import type { Query } from './query.js';
import { explainAgi, explainHmac } from './signature-explainer.js';

export interface SignedRequest {
  /** The HTTP verb as sent; the `method` override in the query makes the effective one. */
  httpMethod: string;
  /** The path exactly as sent (still percent-encoded). */
  path: string;
  /** The query's pairs as sent. */
  query: Query;
  /** Form-body fields (application/x-www-form-urlencoded) as sent; null when none. Both schemes sign them. */
  body: Query | null;
  /** The query and the body as one set (where `sig`, `signature`, ... are looked up). */
  merged: Query;
}

export interface SigningClock {
  nowMs: number;
  challenges: ChallengeStore;
}

/** A good hmac-sha256-v1 signature, to be used up in the transaction that makes the change (used-signatures.ts). */
export interface HmacSpend {
  signature: string;
  timestamp: number;
}

/**
 * Throws the failure of a request whose signature does not hold. An hmac-sha256-v1 signature that
 * holds comes back, for the caller to use up with the change; agi's challenge is used up here.
 */
export function verifySignature(
  rule: SignatureRule,
  key: ApiKeyWithGame | null,
  request: SignedRequest,
  clock: SigningClock,
): HmacSpend | undefined {
  if (rule === 'none') return undefined;
  if (!key) throw fail.missingApiKey();
  const accepts = key.game.signing;
  const query = request.merged;
  const agiGiven = query.has(AGI_SIG_PARAM) || query.has(AGI_SESSION_PARAM);
  const hmacGiven = query.has(SIGNATURE_PARAM);
  if (agiGiven && accepts !== 'hmac-sha256-v1') {
    verifyAgi(key, request, clock);
    return undefined;
  }
  if (hmacGiven && accepts !== 'agi') return verifyHmac(key, request, Math.floor(clock.nowMs / 1000));
  if (!agiGiven && !hmacGiven && rule === 'partner-may-omit' && key.partner) return undefined;
  if (accepts === 'hmac-sha256-v1') {
    throw fail.signatureRequired(
      `this game accepts hmac-sha256-v1 only: send ${TIMESTAMP_PARAM} and ${SIGNATURE_PARAM}`,
    );
  }
  const challenge = clock.challenges.issue(key.apiKey, clock.nowMs);
  throw hmacGiven
    ? fail.challenge('signature required', challenge, 'this game accepts agi only')
    : fail.handshake(challenge);
}

function verifyAgi(key: ApiKeyWithGame, request: SignedRequest, { nowMs, challenges }: SigningClock): void {
  const fresh = () => challenges.issue(key.apiKey, nowMs);
  const session = request.merged.get(AGI_SESSION_PARAM);
  if (session === undefined)
    throw fail.challenge('signature required', fresh(), `${AGI_SIG_PARAM} without ${AGI_SESSION_PARAM}`);
  // Taken out before anything else: a session signs one request, whatever its outcome.
  const challenge = challenges.take(session, key.apiKey, nowMs);
  if (!challenge) throw fail.challenge('stale session', fresh(), 'unknown, used or expired: sign again with this one');
  const sig = request.merged.get(AGI_SIG_PARAM);
  if (sig === undefined)
    throw fail.challenge('signature required', fresh(), `${AGI_SESSION_PARAM} without ${AGI_SIG_PARAM}`);
  const signed = {
    ...challenge,
    path: request.path,
    query: request.query.pairs,
    ...(request.body ? { body: request.body.pairs } : {}),
  };
  if (!signaturesEqual(agiSignature(signed), sig)) {
    throw fail.challenge('bad signature', fresh(), explainAgi(signed)).noted('bad signature (agi)');
  }
}

function verifyHmac(key: ApiKeyWithGame, request: SignedRequest, nowSeconds: number): HmacSpend {
  const signature = request.merged.get(SIGNATURE_PARAM);
  if (signature === undefined) throw fail.signatureRequired(`send ${TIMESTAMP_PARAM} and ${SIGNATURE_PARAM}`);
  const timestampText = request.merged.get(TIMESTAMP_PARAM);
  if (timestampText === undefined) throw fail.missingParameter(TIMESTAMP_PARAM);
  if (!/^\d{1,12}$/.test(timestampText)) throw fail.invalidParameter(TIMESTAMP_PARAM, 'expected Unix time in seconds');
  const nonce = request.merged.get(NONCE_PARAM);
  if (nonce !== undefined && !NONCE_PATTERN.test(nonce))
    throw fail.invalidParameter(NONCE_PARAM, '16 to 64 characters of A-Z a-z 0-9 - _');
  const signedPairs = hmacSignedPairs(request.query.pairs, request.body?.pairs);
  const canonical = canonicalString(request.httpMethod, request.path, signedPairs);
  // Constant-time comparison; the signature is checked before the clock so that a
  // "stale timestamp" reply means the signing itself was right.
  if (!signaturesEqual(hmacSha256Hex(key.signingSecret, canonical), signature)) {
    throw fail
      .badSignature(explainHmac(request.httpMethod, request.path, signedPairs))
      .noted('bad signature (hmac-sha256-v1)');
  }
  const skew = Math.abs(nowSeconds - Number(timestampText));
  if (skew > TIMESTAMP_WINDOW_SECONDS) throw fail.staleTimestamp(skew);
  // One request per signature, whatever its outcome, as agi's challenge: used up with the change (used-signatures.ts).
  return { signature, timestamp: Number(timestampText) };
}
