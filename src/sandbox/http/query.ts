/**
 * The query string, parsed by the sandbox itself (not the framework): the signature needs every
 * pair exactly as sent, in order, repeats included; and junk must end in a 400 envelope.
 */
import { fail, shown } from './failure.js';

export interface PairLimits {
  /** Raw text length. */
  rawLength: number;
  pairs: number;
  nameLength: number;
  valueLength: number;
  /** What the 400 calls the whole when it breaks a limit: `query` or `body`. */
  label: string;
}

export const QUERY_LIMITS = {
  /** Raw query string length (the HTTP parser already caps the request line at 16 KiB). */
  rawLength: 8192,
  pairs: 64,
  nameLength: 64,
  valueLength: 1024,
  label: 'query',
} as const satisfies PairLimits;

/**
 * A form body's fields: as many as a query may have, but a value may be as long as the body
 * (a game save's `data`); the body itself is bounded by the app's body limit before this runs.
 */
export function formBodyLimits(bodyLimitBytes: number): PairLimits {
  return {
    rawLength: Infinity,
    pairs: QUERY_LIMITS.pairs,
    nameLength: QUERY_LIMITS.nameLength,
    valueLength: bodyLimitBytes,
    label: 'body',
  };
}

/** `text` decoded; a failure names the parameter `label` (worked out only then: this runs for every pair). */
function decode(text: string, label: string): string {
  // Nothing to decode (the common case): the same text, without a scan by decodeURIComponent.
  if (!text.includes('%') && !text.includes('+')) return text;
  try {
    // Form convention: '+' is a space; a literal plus is sent as %2B.
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    throw fail.invalidParameter(shown(label, 32), 'bad percent-encoding');
  }
}

export class Query {
  constructor(readonly pairs: ReadonlyArray<readonly [string, string]>) {}

  has(name: string): boolean {
    return this.pairs.some(([n]) => n === name);
  }

  /**
   * The value of `name`; undefined when absent or empty. Given more than once is an error:
   * the sandbox never guesses which one was meant.
   */
  get(name: string): string | undefined {
    let found: string | undefined;
    let count = 0;
    for (const [n, v] of this.pairs) {
      if (n !== name) continue;
      count++;
      found = v;
    }
    if (count > 1) throw fail.invalidParameter(name, 'given more than once');
    return found === '' ? undefined : found;
  }

  /** Like get, but a missing value is a 400. */
  require(name: string): string {
    const value = this.get(name);
    if (value === undefined) throw fail.missingParameter(name);
    return value;
  }

  /** The first of several names that is present (aliases: developer_id / dev_id). */
  getAny(...names: string[]): { name: string; value: string } | undefined {
    const present = names.filter((n) => this.get(n) !== undefined);
    if (present.length > 1) throw fail.invalidParameter(present.join('/'), 'give only one of them');
    const name = present[0];
    return name === undefined ? undefined : { name, value: this.get(name)! };
  }
}

/** Pairs of `a=1&b=2` text (a query string or a form body), decoded, within `limits`. */
export function parseQuery(raw: string, limits: PairLimits = QUERY_LIMITS): Query {
  if (raw.length > limits.rawLength)
    throw fail.invalidParameter(limits.label, `longer than ${limits.rawLength} characters`);
  const pairs: Array<[string, string]> = [];
  for (const part of raw.split('&')) {
    if (part === '') continue;
    if (pairs.length >= limits.pairs) throw fail.invalidParameter(limits.label, `more than ${limits.pairs} parameters`);
    const eq = part.indexOf('=');
    const rawName = eq === -1 ? part : part.slice(0, eq);
    const rawValue = eq === -1 ? '' : part.slice(eq + 1);
    const name = decode(rawName, rawName);
    if (name.length > limits.nameLength) throw fail.invalidParameter(shown(name, 32), 'name too long');
    const value = decode(rawValue, name);
    if (value.length > limits.valueLength) {
      throw fail.invalidParameter(shown(name, 32), `longer than ${limits.valueLength} characters`);
    }
    pairs.push([name, value]);
  }
  return new Query(pairs);
}

const SLASH = 0x2f;

/** The path and query of a request target as sent (origin-form or absolute-form). */
export function splitTarget(url: string): { path: string; query: string } {
  let target = url;
  // A target starting with `/` (every browser's and client's) has no scheme: no pattern to run.
  const scheme = url.charCodeAt(0) === SLASH ? null : /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(target);
  if (scheme) target = target.slice(scheme[0].length) || '/';
  const hash = target.indexOf('#');
  if (hash !== -1) target = target.slice(0, hash);
  const q = target.indexOf('?');
  return q === -1 ? { path: target, query: '' } : { path: target.slice(0, q), query: target.slice(q + 1) };
}
