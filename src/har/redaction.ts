/**
 * Secrets in a recording become stable placeholders: the same value gives the same placeholder
 * within one file (an HMAC under the file's own random salt, kept in the file), so a reader can
 * follow one key or one session through a recording without seeing it. The salt only lets one
 * confirm a guessed value, and the values it hides are random keys, tokens and sessions.
 *
 * Players' personal fields (PERSONAL_FIELDS) become placeholders of the same shape unless the
 * recorder keeps them: an email stays an address, a birthday a date, so a diff of the recording
 * seeds and compares them as it would the real ones, and one player's value stays one value.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { isSecretParam } from '../redact.js';

export const PLACEHOLDER_PREFIX = 'redacted-';
const PLACEHOLDER = /^redacted-[0-9a-f]{12}$/;

/** Headers whose values are credentials, in requests and replies. */
const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
]);

/**
 * The reply fields docs/PLATFORM.md names as a player's own beyond the documented profile: `email`
 * (clients read it with a valid key; friend entries carry it too) and `birthday`. A recording is
 * meant to be attached to a bug report as it is, so by default they do not reach it.
 */
export const PERSONAL_FIELDS: readonly string[] = ['email', 'birthday'];
const PERSONAL: ReadonlySet<string> = new Set(PERSONAL_FIELDS);
/** What the platform answers for a birthday it does not know: not personal, kept. */
const UNKNOWN_BIRTHDAY = '0000-00-00';
const EMAIL_PLACEHOLDER = /^redacted-[0-9a-f]{12}@example\.invalid$/;

export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value);
}

export function isSecretHeader(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase());
}

export class Redactor {
  readonly salt: string;
  /** Secrets known ahead (the profile's key, secret, cookie): replaced wherever they appear. */
  readonly #known = new Map<string, string>();
  /**
   * Secrets met in secret places of the entry being made (a token, a session): replaced wherever
   * else they appear in it. Per entry, so a long recording's thousands of sessions cost nothing later.
   */
  #met = new Map<string, string>();
  readonly #keepPersonal: boolean;

  constructor(salt: string = randomBytes(16).toString('hex'), options: { keepPersonal?: boolean } = {}) {
    this.salt = salt;
    this.#keepPersonal = options.keepPersonal === true;
  }

  #digest(value: string): string {
    return createHmac('sha256', this.salt).update(value).digest('hex');
  }

  placeholder(value: string): string {
    if (value === '' || isPlaceholder(value)) return value;
    const known = this.#known.get(value) ?? this.#met.get(value);
    if (known) return known;
    const shown = PLACEHOLDER_PREFIX + this.#digest(value).slice(0, 12);
    // Short values (a `0`, a `true`) would replace innocent text everywhere: only long ones are hunted.
    if (value.length >= 8) this.#met.set(value, shown);
    return shown;
  }

  /**
   * A personal field's value as recorded: an email becomes `redacted-<12 hex>@example.invalid`
   * (hunted through the rest of the entry like a secret), a birthday (whatever its form) a date
   * in 1900 picked by the same HMAC; an unknown birthday and what is not a string stay as they are.
   */
  personal(name: string, value: unknown): unknown {
    if (this.#keepPersonal || typeof value !== 'string' || value === '') return value;
    if (name === 'birthday') {
      if (value === UNKNOWN_BIRTHDAY) return value;
      const n = Number.parseInt(this.#digest(value).slice(0, 8), 16);
      return `1900-${String((n % 12) + 1).padStart(2, '0')}-${String((Math.floor(n / 12) % 28) + 1).padStart(2, '0')}`;
    }
    if (EMAIL_PLACEHOLDER.test(value)) return value;
    const shown = `${PLACEHOLDER_PREFIX}${this.#digest(value).slice(0, 12)}@example.invalid`;
    if (value.length >= 8) this.#met.set(value, shown);
    return shown;
  }

  /** Registers a secret ahead of time (a profile's api key): replaced wherever it appears. */
  know(value: string | undefined): void {
    if (value && value.length >= 8) this.#known.set(value, this.placeholder(value));
  }

  /** Starts a new entry: the secrets met in the last one are hunted no more. */
  nextEntry(): void {
    this.#met = new Map();
  }

  /** A parameter's value as recorded. */
  param(name: string, value: string): string {
    return isSecretParam(name) ? this.placeholder(value) : value;
  }

  /** Every known secret in `text` (raw or percent-encoded) replaced by its placeholder. */
  scrub(text: string): string {
    let out = text;
    for (const [secret, shown] of [...this.#known, ...this.#met]) {
      if (out.includes(secret)) out = out.split(secret).join(shown);
      const encoded = encodeURIComponent(secret);
      if (encoded !== secret && out.includes(encoded)) out = out.split(encoded).join(shown);
    }
    return out;
  }

  /** A cookie header's values (`a=1; b=2`) each replaced; names kept. */
  cookieHeader(value: string): string {
    return value
      .split(/;\s*/)
      .map((part) => {
        const eq = part.indexOf('=');
        return eq === -1 ? part : `${part.slice(0, eq)}=${this.placeholder(part.slice(eq + 1))}`;
      })
      .join('; ');
  }

  /** A set-cookie header: the value replaced, the attributes (Path, HttpOnly...) kept. */
  setCookieHeader(value: string): string {
    const semi = value.indexOf(';');
    const pair = semi === -1 ? value : value.slice(0, semi);
    return this.cookieHeader(pair) + (semi === -1 ? '' : value.slice(semi));
  }

  header(name: string, value: string): string {
    const lower = name.toLowerCase();
    if (lower === 'cookie') return this.cookieHeader(value);
    if (lower === 'set-cookie') return this.setCookieHeader(value);
    if (isSecretHeader(lower)) {
      const space = value.indexOf(' ');
      // `Bearer X` keeps its scheme: a reader can still tell which kind of credential it was.
      return space > 0 && space < 16
        ? `${value.slice(0, space)} ${this.placeholder(value.slice(space + 1))}`
        : this.placeholder(value);
    }
    return value;
  }

  /** A query string or form body (`a=1&b=2`) with each secret value replaced, the rest as it was. */
  form(text: string): string {
    if (text === '') return text;
    return text
      .split('&')
      .map((part) => {
        const eq = part.indexOf('=');
        if (eq === -1) return part;
        const name = decodeLoose(part.slice(0, eq));
        return isSecretParam(name) ? `${part.slice(0, eq)}=${this.placeholder(decodeLoose(part.slice(eq + 1)))}` : part;
      })
      .join('&');
  }

  /** A URL with its secret query values replaced and no userinfo. */
  url(raw: string): string {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return this.scrub(raw);
    }
    if (url.username || url.password) {
      url.username = '';
      url.password = '';
    }
    const q = url.search.startsWith('?') ? url.search.slice(1) : '';
    return `${url.origin}${url.pathname}${q ? `?${this.form(q)}` : ''}`;
  }

  /**
   * A JSON body with the secrets a reply can carry replaced: any member named like a secret
   * (auth_token, token, api_key...), and the agi challenge's `session` and `key`.
   */
  json(value: unknown, depth = 0): unknown {
    if (depth > 64 || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((v) => this.json(v, depth + 1));
    const record = value as Record<string, unknown>;
    const challenge = typeof record.session === 'string' && typeof record.key === 'string';
    const out: Record<string, unknown> = {};
    for (const [name, v] of Object.entries(record)) {
      const secret = isSecretParam(name) || (challenge && name === 'key');
      if (secret && typeof v === 'string') out[name] = this.placeholder(v);
      else if (PERSONAL.has(name)) out[name] = this.personal(name, v);
      else out[name] = this.json(v, depth + 1);
    }
    return out;
  }

  /** A body as text: JSON redacted member by member; XML's secret elements too; then every known secret. */
  body(text: string, mimeType: string): string {
    if (text === '') return text;
    const trimmed = text.trimStart();
    if (/json/i.test(mimeType) || trimmed.startsWith('{') || trimmed.startsWith('[')) {
      try {
        return this.scrub(JSON.stringify(this.json(JSON.parse(text))));
      } catch {
        // not JSON after all: scrubbed as text
      }
    }
    if (/xml/i.test(mimeType) || trimmed.startsWith('<')) {
      // `key` is a secret only beside a challenge's `session` (a save's reply names its key too).
      const tags = text.includes('<session>') ? XML_CHALLENGE_TAGS : XML_SECRET_TAGS;
      const withTags = text
        .replace(tags, (_m, tag: string, inner: string) => `<${tag}>${this.placeholder(inner)}</${tag}>`)
        .replace(
          XML_PERSONAL_TAGS,
          (_m, tag: string, inner: string) => `<${tag}>${String(this.personal(tag, inner))}</${tag}>`,
        );
      return this.scrub(withTags);
    }
    if (/x-www-form-urlencoded/i.test(mimeType)) return this.scrub(this.form(text));
    return this.scrub(text);
  }
}

const XML_SECRET_TAGS = /<(session|sig|signature|auth_token|token|api_key)>([^<]{1,512})<\/\1>/g;
const XML_PERSONAL_TAGS = /<(email|birthday)>([^<]{1,512})<\/\1>/g;
const XML_CHALLENGE_TAGS = /<(session|key|sig|signature|auth_token|token|api_key)>([^<]{1,512})<\/\1>/g;

function decodeLoose(raw: string): string {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return raw;
  }
}
