/**
 * The platform's own signing scheme, `agi` (SERVICE.md: Signatures / agi; docs/PLATFORM.md): the
 * server hands out a one-use challenge {session, key}; the client signs the request with an MD5
 * over every value it sends plus a static secret. Shared by the client's signer and the
 * sandbox's verifier, so both sides compute exactly one formula.
 */
import { nodeCrypto } from './node-crypto.js';
import type { QueryParams } from './signing.js';

/** The SDK's static secret (stored base64-encoded there); no secret in practice, but part of the formula. */
export const AGI_STATIC_SECRET = 'Shield2';
export const AGI_SIG_PARAM = 'sig';
export const AGI_SESSION_PARAM = 'session';

export interface AgiChallenge {
  session: string;
  key: string;
}

export interface AgiSigningInput extends AgiChallenge {
  /** The path as sent; only its last segment (`<uid>.json`) is signed. */
  path: string;
  /** Query parameters as sent (decoded); `sig` and `session` are left out of the signature. */
  query: QueryParams;
  /** Form-body fields (none for udcli's own requests). */
  body?: QueryParams;
}

/** The last path segment, e.g. `c3323c76c063636c91d2e8cb8f4dfcaf.json`. */
export function lastPathSegment(path: string): string {
  const clean = path.split('?')[0] ?? '';
  return clean.slice(clean.lastIndexOf('/') + 1);
}

/** Where a signed value came from (the sandbox's signature explainer names them). */
export type AgiValueSource =
  | { kind: 'query'; name: string }
  | { kind: 'body'; name: string }
  | { kind: 'secret' }
  | { kind: 'session' }
  | { kind: 'key' }
  | { kind: 'path' };

export interface AgiSignedValue {
  value: string;
  source: AgiValueSource;
}

/** The values that are signed with where each came from, sorted by UTF-16 code units. */
export function agiSignedValues(input: AgiSigningInput): AgiSignedValue[] {
  const values: AgiSignedValue[] = input.query
    .filter(([name]) => name !== AGI_SIG_PARAM && name !== AGI_SESSION_PARAM)
    .map(([name, value]) => ({ value: String(value), source: { kind: 'query', name } }));
  values.push(
    { value: AGI_STATIC_SECRET, source: { kind: 'secret' } },
    { value: input.session, source: { kind: 'session' } },
    { value: input.key, source: { kind: 'key' } },
  );
  for (const [name, value] of input.body ?? []) values.push({ value: String(value), source: { kind: 'body', name } });
  values.push({ value: lastPathSegment(input.path), source: { kind: 'path' } });
  // `<` on strings compares UTF-16 code units, exactly as the SDK's Array.prototype.sort() does.
  return values.sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

/** The values that are signed, sorted by UTF-16 code units (JavaScript's default sort). */
export function agiSortedValues(input: AgiSigningInput): string[] {
  // The same values as agiSignedValues, as plain strings: the sandbox checks a signature with them on
  // every agi change, and needs no record of where each came from.
  const values: string[] = [];
  for (const [name, value] of input.query) {
    if (name !== AGI_SIG_PARAM && name !== AGI_SESSION_PARAM) values.push(String(value));
  }
  values.push(AGI_STATIC_SECRET, input.session, input.key);
  for (const [, value] of input.body ?? []) values.push(String(value));
  values.push(lastPathSegment(input.path));
  // The default sort compares strings by UTF-16 code units, as agiSignedValues' comparator does.
  return values.sort();
}

/** The string whose MD5 is the signature: the sorted values joined, then lower-cased. */
export function agiJoined(input: AgiSigningInput): string {
  return agiSortedValues(input).join('').toLowerCase();
}

export function agiSignature(input: AgiSigningInput): string {
  return nodeCrypto().hash('md5', agiJoined(input), 'hex');
}
