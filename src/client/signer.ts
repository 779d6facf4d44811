/**
 * Request signing schemes behind the one small `Signer` interface (contract: "Signatures").
 * Adding a scheme means adding a case to createSigner; nothing else knows how signing works.
 */
import { UsageError } from '../errors.js';
import {
  canonicalString,
  hmacSha256Hex,
  SIGNATURE_PARAM,
  TIMESTAMP_PARAM,
  type QueryParams,
} from '../spec/signing.js';
import type { HttpMethod, Signer } from './types.js';

export type SigningScheme = Signer['scheme'];

export const SIGNING_SCHEMES: readonly SigningScheme[] = ['hmac-sha256-v1', 'none'];

const NO_SECRET_HINT =
  'set one with `udcli profile add <name> --signing-secret ...` or UDCLI_SIGNING_SECRET';

export function createSigner(scheme: SigningScheme, secret?: string): Signer {
  switch (scheme) {
    case 'hmac-sha256-v1':
      return hmacSha256V1(secret);
    case 'none':
      return unsigned;
    default:
      throw new UsageError(`unknown signing scheme: ${String(scheme as unknown)}`, {
        hint: `use one of: ${SIGNING_SCHEMES.join(', ')}`,
      });
  }
}

const unsigned: Signer = {
  scheme: 'none',
  sign: (_method, _path, params) => ({ params: params.map(([n, v]) => [n, v] as [string, string]) }),
};

/**
 * Adds `timestamp` (unless the caller already chose one, e.g. `udcli api -f timestamp=...`), then
 * `signature` over the canonical string. Any `signature` already present is replaced.
 */
function hmacSha256V1(secret: string | undefined): Signer {
  return {
    scheme: 'hmac-sha256-v1',
    sign(httpMethod: HttpMethod, path: string, params: QueryParams, nowSeconds: number) {
      if (!secret) throw new UsageError('no signing secret configured', { hint: NO_SECRET_HINT });
      const out: Array<[string, string]> = params
        .filter(([name]) => name !== SIGNATURE_PARAM)
        .map(([n, v]) => [n, v]);
      if (!out.some(([name]) => name === TIMESTAMP_PARAM)) {
        out.push([TIMESTAMP_PARAM, String(Math.floor(nowSeconds))]);
      }
      const canonical = canonicalString(httpMethod, path, out);
      out.push([SIGNATURE_PARAM, hmacSha256Hex(secret, canonical)]);
      return { params: out, canonical };
    },
  };
}
