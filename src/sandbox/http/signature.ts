/** Checks hmac-sha256-v1 signatures (contract: Signatures) with the shared signing code. */
import {
  canonicalString,
  hmacSha256Hex,
  SIGNATURE_PARAM,
  signaturesEqual,
  TIMESTAMP_PARAM,
  TIMESTAMP_WINDOW_SECONDS,
} from '../../spec/signing.js';
import type { ApiKeyWithGame } from '../repositories/games.js';
import type { SignatureRule } from './endpoint.js';
import { fail } from './failure.js';
import type { Query } from './query.js';

export interface SignedRequest {
  /** The HTTP verb as sent; the `method` override in the query makes the effective one. */
  httpMethod: string;
  /** The path exactly as sent (still percent-encoded). */
  path: string;
  query: Query;
}

export function verifySignature(rule: SignatureRule, key: ApiKeyWithGame | null, request: SignedRequest, nowSeconds: number): void {
  if (rule === 'none') return;
  if (!key) throw fail.missingApiKey();
  const signature = request.query.get(SIGNATURE_PARAM);
  if (signature === undefined) {
    if (rule === 'partner-may-omit' && key.partner) return;
    throw fail.signatureRequired(`send ${TIMESTAMP_PARAM} and ${SIGNATURE_PARAM}`);
  }
  const timestampText = request.query.get(TIMESTAMP_PARAM);
  if (timestampText === undefined) throw fail.missingParameter(TIMESTAMP_PARAM);
  if (!/^\d{1,12}$/.test(timestampText)) throw fail.invalidParameter(TIMESTAMP_PARAM, 'expected Unix time in seconds');
  const canonical = canonicalString(request.httpMethod, request.path, request.query.pairs);
  // Constant-time comparison; the signature is checked before the clock so that a
  // "stale timestamp" reply means the signing itself was right.
  if (!signaturesEqual(hmacSha256Hex(key.signingSecret, canonical), signature)) throw fail.badSignature();
  const skew = Math.abs(nowSeconds - Number(timestampText));
  if (skew > TIMESTAMP_WINDOW_SECONDS) throw fail.staleTimestamp(skew);
}
