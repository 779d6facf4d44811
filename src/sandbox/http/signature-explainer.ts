/**
 * What the sandbox computed when it refused a signature, and from what (issue 11): appended to
 * the `bad signature` message, so the developer compares it with what their own code signed. The
 * real platform says nothing here; the sandbox is a development tool. Never a game's signing
 * secret (shown as `<secret>`), never a whole api_key or signature (redacted); the agi session and
 * key are shown in full: the sandbox just handed them out, and the refused request used them up.
 * The agi formula's static secret is shown as it is: it is public (the SDK carries it), and a
 * developer needs it to compute the signature.
 * One line (newlines shown as `\n`), so the CLI's one-line error stays one line.
 */
import { agiSignedValues, type AgiSignedValue, type AgiSigningInput } from '../../domain/agi-signing.js';
import { canonicalString } from '../../domain/signing.js';
import { isSecretParam, redact } from '../../redact.js';
import type { QueryParams } from '../../domain/signing.js';
import { jsonText, printable } from '../../printable.js';

/** Stands for the signing secret wherever the secret went into the signature. */
export const SECRET_PLACEHOLDER = '<secret>';

/** A message stays readable (and bounded) even for a request with long values. */
const MAX_EXPLANATION = 4000;

function capped(text: string): string {
  return text.length > MAX_EXPLANATION ? `${text.slice(0, MAX_EXPLANATION)}… (cut)` : text;
}

/** A value as it goes into a message: JSON-quoted (by the one rule) when it would be ambiguous or unprintable. */
function quoted(value: string): string {
  return value === '' || /[\s,;"=&()]/.test(value) || printable(value) !== value ? jsonText(value) : value;
}

function paramsSeen(pairs: QueryParams, shownInFull: ReadonlySet<string> = new Set()): string {
  if (pairs.length === 0) return 'none';
  return pairs
    .map(
      ([name, value]) =>
        `${quoted(name)}=${isSecretParam(name) && !shownInFull.has(name) ? redact(value) : quoted(value)}`,
    )
    .join(', ');
}

function agiShownValue({ value, source }: AgiSignedValue): string {
  if ((source.kind === 'query' || source.kind === 'body') && isSecretParam(source.name)) return redact(value);
  return value;
}

/** `qty=1`; a value not from the query says where it came from: `(session)=…`, `(body)note=…`. */
function agiShown(v: AgiSignedValue): string {
  const { source } = v;
  const label =
    source.kind === 'query'
      ? quoted(source.name)
      : source.kind === 'body'
        ? `(body)${quoted(source.name)}`
        : source.kind === 'secret'
          ? '(static secret)'
          : `(${source.kind})`;
  return `${label}=${quoted(agiShownValue(v))}`;
}

/**
 * agi: the values it sorted (each with where it came from), the string it joined and
 * lower-cased (whose MD5 is the sig it expected), and the parameters it saw.
 */
export function explainAgi(input: AgiSigningInput): string {
  const values = agiSignedValues(input);
  const joined = values.map(agiShownValue).join('').toLowerCase();
  return capped(
    `agi: sorted values ${values.map(agiShown).join(', ')}; joined and lower-cased ${quoted(joined)}; ` +
      `the sig expected is its MD5; ` +
      `query seen ${paramsSeen(input.query, new Set(['session']))}; form body seen ${paramsSeen(input.body ?? [])}`,
  );
}

/** The canonical query with the values of secret parameters redacted (names and order kept). */
function redactedCanonical(canonical: string): string {
  const [method, path, query = ''] = canonical.split('\n');
  const parts = query === '' ? [] : query.split('&');
  const shown = parts.map((part) => {
    const eq = part.indexOf('=');
    const name = decodeURIComponent(part.slice(0, eq));
    return isSecretParam(name) ? `${part.slice(0, eq)}=${redact(decodeURIComponent(part.slice(eq + 1)))}` : part;
  });
  return `${method}\n${path}\n${shown.join('&')}`;
}

/**
 * hmac-sha256-v1: the canonical string it signed (secrets redacted; its newlines shown as `\\n`,
 * as the contract writes it) and the parameters it saw.
 */
export function explainHmac(httpMethod: string, path: string, query: QueryParams): string {
  const canonical = redactedCanonical(canonicalString(httpMethod, path, query)).replaceAll('\n', '\\n');
  return capped(
    `hmac-sha256-v1: the signature expected is HMAC-SHA256 with the game's signing secret over the canonical string ` +
      `${canonical}; parameters seen ${paramsSeen(query)}`,
  );
}
