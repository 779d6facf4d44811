/**
 * Request signing schemes behind the one small `Signer` interface (SERVICE.md: "Signatures").
 * Adding a scheme means adding a case to createSigner; nothing else knows how signing works.
 */
import { UsageError } from '../errors.js';
import {
  AGI_SESSION_PARAM,
  AGI_SIG_PARAM,
  agiJoined,
  agiSignature,
  agiSortedValues,
  type AgiChallenge,
} from '../domain/agi-signing.js';
import {
  canonicalString,
  hmacSha256Hex,
  hmacSignedPairs,
  NONCE_PARAM,
  SIGNATURE_PARAM,
  TIMESTAMP_PARAM,
  type QueryParams,
} from '../domain/signing.js';
import { SIGNING_SCHEMES, type SigningScheme } from '../domain/contract.js';
import type { HttpMethod, Signer } from './types.js';
import { nodeCrypto } from '../domain/node-crypto.js';

export { SIGNING_SCHEMES, type SigningScheme };

const NO_SECRET_HINT = 'set one with `udcli profile add <name> --signing-secret ...` or UDCLI_SIGNING_SECRET';

export interface SignerOptions {
  /** Where hmac-sha256-v1's nonces come from: the CSPRNG, or in tests a fixed one (worked examples). */
  nonce?: () => string;
}

export function createSigner(scheme: SigningScheme, secret?: string, options: SignerOptions = {}): Signer {
  switch (scheme) {
    case 'agi':
      return agi;
    case 'hmac-sha256-v1':
      return hmacSha256V1(secret, options.nonce ?? randomNonce);
    case 'none':
      return unsigned;
    default:
      throw new UsageError(`unknown signing scheme: ${String(scheme as unknown)}`, {
        hint: `use one of: ${SIGNING_SCHEMES.join(', ')}`,
      });
  }
}

const copy = (params: QueryParams): Array<[string, string]> => params.map(([n, v]) => [n, v]);

const unsigned: Signer = {
  scheme: 'none',
  needsChallenge: false,
  sign: (_method, _path, params) => ({ params: copy(params) }),
};

/**
 * The platform's scheme: `session` and `sig` over the values sent plus the challenge. Any
 * `sig`/`session` already present is replaced. Needs no secret of ours: the key comes from the
 * server's challenge.
 */
const agi: Signer = {
  scheme: 'agi',
  needsChallenge: true,
  sign(
    _httpMethod: HttpMethod,
    path: string,
    params: QueryParams,
    _nowSeconds: number,
    challenge?: AgiChallenge,
    body?: QueryParams,
  ) {
    if (!challenge) throw new Error("agi signing needs the server's challenge (session and key)");
    const out = copy(params.filter(([name]) => name !== AGI_SIG_PARAM && name !== AGI_SESSION_PARAM));
    const input = {
      path,
      query: out,
      session: challenge.session,
      key: challenge.key,
      ...(body && body.length > 0 ? { body } : {}),
    };
    const sortedValues = agiSortedValues(input);
    const canonical = agiJoined(input);
    const sig = agiSignature(input);
    out.push([AGI_SESSION_PARAM, challenge.session], [AGI_SIG_PARAM, sig]);
    return { params: out, canonical, sortedValues };
  },
};

/**
 * Adds `timestamp` and `nonce` (each unless the caller already chose one, e.g. `udcli api -f
 * timestamp=...`), then `signature` over the canonical string. Any `signature` already present is
 * replaced.
 *
 * A server refuses a signature it has seen (the sandbox does: 401 `signature already used`, on
 * every process of one database), and the same request signed twice in one second would be the
 * same signature: a retry, or the same `give` twice in a batch. The nonce (SERVICE.md: hmac-sha256-v1,
 * 5) makes each signing its own: 22 characters of base64url from 128 random bits, signed like
 * any parameter. The timestamp is the clock's second, never one ahead of it.
 */
function hmacSha256V1(secret: string | undefined, nonce: () => string): Signer {
  return {
    scheme: 'hmac-sha256-v1',
    needsChallenge: false,
    sign(
      httpMethod: HttpMethod,
      path: string,
      params: QueryParams,
      nowSeconds: number,
      _challenge?: AgiChallenge,
      body?: QueryParams,
    ) {
      if (!secret) throw new UsageError('no signing secret configured', { hint: NO_SECRET_HINT });
      const out = copy(params.filter(([name]) => name !== SIGNATURE_PARAM));
      if (!out.some(([name]) => name === TIMESTAMP_PARAM)) out.push([TIMESTAMP_PARAM, String(Math.floor(nowSeconds))]);
      if (!out.some(([name]) => name === NONCE_PARAM) && !body?.some(([name]) => name === NONCE_PARAM))
        out.push([NONCE_PARAM, nonce()]);
      const canonical = canonicalString(httpMethod, path, hmacSignedPairs(out, body));
      out.push([SIGNATURE_PARAM, hmacSha256Hex(secret, canonical)]);
      return { params: out, canonical };
    },
  };
}

/** 128 bits from the CSPRNG as base64url: 22 characters of `A-Z a-z 0-9 - _`, inside the contract's 16 to 64. */
const randomNonce = (): string => nodeCrypto().randomBytes(16).toString('base64url');
