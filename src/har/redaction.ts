/**
 * Secrets in a recording become stable placeholders: the same value gives the same placeholder
 * within one file (an HMAC under the file's own random salt, kept in the file), so a reader can
 * follow one key or one session through a recording without seeing it. The salt only lets one
 * confirm a guessed value, and the values it hides are random keys, tokens and sessions.
 *
 * Players' personal fields (PERSONAL_FIELDS) become placeholders of the same shape unless the
 * recorder keeps them: an email stays an address, a birthday a date, so a diff of the recording
 * seeds and compares them as it would the real ones, and one player's value stays one value.
 *
 * Nothing here rests on a body parsing: a body is redacted in its text, span by span (by the
 * names a tolerant scan finds, then by the look of an email or a birthday), and the rest of it is
 * kept byte for byte, so a recording is what the server sent and a reply cut short, prefixed, in
 * XML or nested without end holds no more of a player than a clean one.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { isSecretParam } from '../redact.js';
import { type JsonString, visitJsonStrings } from './json-strings.js';
import { personalKind, replaceBirthdays, replaceEmails } from './personal-text.js';

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
 * meant to be attached to a bug report as it is, so by default they do not reach it, whatever
 * the field's spelling (`Email`, `e_mail`, `birthDate`: personal-text.ts) or the body's shape.
 */
export const PERSONAL_FIELDS: readonly string[] = ['email', 'birthday'];
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
    // A header can carry a player's email the body does not (a proxy's `x-user`, a `from`).
    const kind = personalKind(lower);
    return kind ? String(this.personal(kind, value)) : this.personalText(value);
  }

  /** A query string or form body (`a=1&b=2`) with each secret value and personal field replaced, the rest as it was. */
  form(text: string): string {
    if (text === '') return text;
    const shown = text
      .split('&')
      .map((part) => {
        const eq = part.indexOf('=');
        if (eq === -1) return part;
        const name = decodeLoose(part.slice(0, eq));
        return isSecretParam(name) ? `${part.slice(0, eq)}=${this.placeholder(decodeLoose(part.slice(eq + 1)))}` : part;
      })
      .join('&');
    return this.personalText(shown);
  }

  /** A URL with its secret query values and personal fields replaced, and no userinfo. */
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
    return `${url.origin}${this.personalText(url.pathname)}${q ? `?${this.form(q)}` : ''}`;
  }

  /**
   * A personal field's value found by its look in any text (personal-text.ts): every email
   * address, every date next to a birthday-like name. Nothing when the recorder keeps them.
   */
  personalText(text: string): string {
    if (this.#keepPersonal || text === '') return text;
    const emails = replaceEmails(text, (address) => String(this.personal('email', address)));
    return replaceBirthdays(emails, (date) => {
      const shown = String(this.personal('birthday', date));
      // A date written as a number (`19840229`) stays a number: a JSON body stays JSON.
      return /^\d+$/.test(date) ? shown.replaceAll('-', '') : shown;
    });
  }

  /**
   * A reply or request body as it came, but for the spans redacted in place, whatever the body is
   * (JSON, JSON cut short or prefixed, XML, a form, an HTML page): the string values of members
   * named like a secret (auth_token, token, api_key...) or the agi challenge's `session` and `key`,
   * and of personal fields (`email`, `E_mail`, `birthDate`...), each at any depth; XML elements
   * so named (attributes, CDATA and all); then every email and birthday by its look; then every
   * secret met or known. Nothing is parsed and written again: the numbers, escapes, order and
   * spaces of the rest are the server's.
   */
  body(text: string, mimeType: string): string {
    if (text === '') return text;
    let out = this.#jsonInPlace(text);
    if (/xml/i.test(mimeType) || out.includes('<')) out = this.#xmlInPlace(out);
    if (/x-www-form-urlencoded/i.test(mimeType)) out = this.form(out);
    return this.scrub(this.personalText(out));
  }

  /** A member's or element's value as recorded, by its name; undefined when the name is neither secret nor personal. */
  #byName(name: string, value: string, challenge: boolean): string | undefined {
    if (isSecretName(name) || (challenge && name.toLowerCase() === 'key')) return this.placeholder(value);
    const kind = personalKind(name);
    return kind ? String(this.personal(kind, value)) : undefined;
  }

  #jsonInPlace(text: string): string {
    if (!text.includes('"')) return text;
    const edits = new Map<number, { end: number; text: string }>();
    const edit = (token: JsonString, shown: string): void => {
      if (shown === token.value) return;
      const quoted = JSON.stringify(shown);
      // A string the body was cut inside stays cut: the recording shows where the reply stopped.
      edits.set(token.start, { end: token.end, text: token.closed ? quoted : quoted.slice(0, -1) });
    };
    visitJsonStrings(text, {
      string: (token) => {
        // An address spelled with escapes (`jane\u0040mail.example`) has its look only decoded.
        if (text.slice(token.start, token.end).includes('\\')) edit(token, this.personalText(token.value));
      },
      object: (members) => {
        const challenge = members.some((m) => m.name === 'session') && members.some((m) => m.name === 'key');
        for (const { name, value } of members) {
          const shown = this.#byName(name, value.value, challenge);
          if (shown !== undefined) edit(value, shown);
        }
      },
    });
    if (edits.size === 0) return text;
    let out = '';
    let copied = 0;
    for (const start of [...edits.keys()].sort((a, b) => a - b)) {
      const { end, text: shown } = edits.get(start)!;
      out += text.slice(copied, start) + shown;
      copied = end;
    }
    return out + text.slice(copied);
  }

  #xmlInPlace(text: string): string {
    // `key` is a secret only beside a challenge's `session` (a save's reply names its key too).
    const challenge = /<(?:[\w.-]+:)?session[\s>]/i.test(text);
    return text.replace(XML_ELEMENT, (whole, open: string, name: string, inner: string, close: string) => {
      const value = inner.trim();
      const shown = this.#byName(name.slice(name.lastIndexOf(':') + 1), value, challenge);
      return shown === undefined ? whole : open + inner.replace(value, () => shown) + close;
    });
  }
}

/** Is this member's or element's name a secret's, whatever its case? */
function isSecretName(name: string): boolean {
  return isSecretParam(name) || isSecretParam(name.toLowerCase());
}

/**
 * An element holding text (in CDATA or not), attributes and spaces in its tags allowed: the text's
 * span is the third group. Every repeat is bounded, so a hostile body costs a bounded scan per `<`.
 */
const XML_ELEMENT =
  /(<([A-Za-z_][\w.:-]{0,64})(?:\s[^<>]{0,512})?>\s*(?:<!\[CDATA\[)?)([^<\]]{1,512})((?:\]\]>)?\s*<\/\2\s*>)/g;

function decodeLoose(raw: string): string {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return raw;
  }
}
