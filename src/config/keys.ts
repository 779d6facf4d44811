/**
 * The profile keys, how each is validated and normalized, and how it is shown.
 * One table serves `profile add`, `config set`, values read back from the file and the
 * environment, so a value is checked the same way wherever it comes from.
 */
import { SIGNING_SCHEMES } from '../domain/contract.js';
import { UsageError } from '../errors.js';
import { redact, redactUrl } from '../redact.js';
import { normalizeApiKey } from '../domain/ids.js';
import { firstInvisible } from '../printable.js';
import type { StoredProfile } from './types.js';

export type ProfileKey = keyof StoredProfile;

/** The keys that say where a profile's server is, how to reach it and who works. */
const CONNECTION_KEYS: readonly ProfileKey[] = [
  'base_url',
  'site_url',
  'api_key',
  'signing_secret',
  'signing_scheme',
  'verb_override',
  'game_id',
  'type',
  'cookie',
  'audit_url',
  'operator',
];

/** The keys that bound what a profile's changes may do: a change to one is itself a trail line. */
const POLICY: readonly ProfileKey[] = [
  'production',
  'require_reason',
  'operator_required',
  'operators',
  'products_allowed',
  'max_quantity',
  'max_players',
  'ticket_pattern',
  'approval_over',
];

export const PROFILE_KEYS: readonly ProfileKey[] = [...CONNECTION_KEYS, ...POLICY];
export const POLICY_KEYS: ReadonlySet<ProfileKey> = new Set(POLICY);

/** A value as the config file may hold it: lists for operators and products, numbers for the bounds. */
export type RawValue = string | boolean | number | readonly string[];

/** Never printed in full. */
export const SECRET_KEYS: ReadonlySet<ProfileKey> = new Set<ProfileKey>(['api_key', 'signing_secret', 'cookie']);

export { SIGNING_SCHEMES };

/** `base-url` and `BASE_URL` name `base_url` too. */
export function parseProfileKey(name: string): ProfileKey {
  const key = name.trim().toLowerCase().replaceAll('-', '_');
  if ((PROFILE_KEYS as readonly string[]).includes(key)) return key as ProfileKey;
  throw new UsageError(`unknown key ${JSON.stringify(name)}; keys: ${PROFILE_KEYS.join(', ')}`);
}

/** An http(s) URL without a trailing slash. */
export function normalizeUrl(raw: string, what: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UsageError(
      `invalid ${what} ${JSON.stringify(redactUrl(raw))}: expected an http(s) URL such as http://127.0.0.1:8787`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(
      `invalid ${what} ${JSON.stringify(redactUrl(raw))}: expected an http(s) URL such as http://127.0.0.1:8787`,
    );
  }
  if (url.search || url.hash) {
    throw new UsageError(`invalid ${what} ${JSON.stringify(redactUrl(raw))}: a base URL has no query or fragment`);
  }
  return url.href.replace(/\/+$/, '');
}

/** What a team trail's URL may say besides where the database is. */
const AUDIT_URL_PARAMS = new Set(['sslmode', 'application_name']);

/**
 * A PostgreSQL URL (`postgres://user@host:5432/db`, `postgresql://` too) without a password: the
 * config file is no place for one (PGPASSWORD, UDCLI_AUDIT_PASSWORD or the prompt give it).
 */
export function normalizeAuditUrl(raw: string, what: string): string {
  const example = 'expected a PostgreSQL URL such as postgres://udcli@db.example.com:5432/support';
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UsageError(`invalid ${what} ${JSON.stringify(redactUrl(raw.slice(0, 200)))}: ${example}`);
  }
  if ((url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') || url.hostname === '') {
    throw new UsageError(`invalid ${what} ${JSON.stringify(redactUrl(raw.slice(0, 200)))}: ${example}`);
  }
  // Refused whole, never stored with the password taken out: the user learns it was not kept.
  if (url.password !== '' || [...url.searchParams.keys()].some((k) => k.toLowerCase() === 'password')) {
    throw new UsageError(
      `${what} must not hold a password (it would be stored in the config file): give it in PGPASSWORD or UDCLI_AUDIT_PASSWORD, or at the prompt`,
    );
  }
  const unknown = [...url.searchParams.keys()].find((k) => !AUDIT_URL_PARAMS.has(k));
  if (unknown !== undefined || url.hash) {
    throw new UsageError(
      `invalid ${what} ${JSON.stringify(redactUrl(raw.slice(0, 200)))}: a team trail's URL takes only ${[...AUDIT_URL_PARAMS].join(' and ')} after "?"`,
    );
  }
  const sslmode = url.searchParams.get('sslmode');
  if (sslmode !== null && !SSL_MODES.has(sslmode)) {
    throw new UsageError(`invalid ${what}: sslmode ${JSON.stringify(sslmode)}, expected ${[...SSL_MODES].join(', ')}`);
  }
  if (url.pathname.replace(/^\//, '').includes('/')) {
    throw new UsageError(`invalid ${what} ${JSON.stringify(redactUrl(raw))}: the path names one database`);
  }
  return url.href;
}

/** The sslmode values a team trail's URL may name (libpq's, but `allow`/`prefer`: TLS or not, said plainly). */
export const SSL_MODES: ReadonlySet<string> = new Set(['disable', 'require', 'verify-ca', 'verify-full']);

export function normalizeApiKeyValue(raw: string, what: string): string {
  const key = normalizeApiKey(raw.trim());
  if (!key) {
    // The rejected value may be a real secret typed in the wrong place: show it redacted.
    throw new UsageError(`invalid ${what} ${JSON.stringify(redact(raw.trim()))}: expected 32 hex digits or a UUID`);
  }
  return key;
}

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

/**
 * Validates one value for `key` and returns it in its stored form. `what` names the value in
 * errors (e.g. `api_key`, `--api-key`, `UDCLI_API_KEY`); defaults to the key.
 */
export function validateValue<K extends ProfileKey>(
  key: K,
  raw: RawValue,
  what: string = key,
): NonNullable<StoredProfile[K]> {
  type V = NonNullable<StoredProfile[K]>;
  if (key === 'operators' || key === 'products_allowed') return validateList(key, raw, what) as V;
  if (key === 'max_quantity' || key === 'max_players' || key === 'approval_over')
    return validateCount(raw, what, key === 'approval_over' ? 0 : 1) as V;
  if (key === 'production' || key === 'verb_override' || key === 'require_reason' || key === 'operator_required') {
    if (typeof raw === 'boolean') return raw as V;
    if (typeof raw !== 'string') throw new UsageError(`invalid ${what} ${JSON.stringify(raw)}: expected true or false`);
    const v = raw.trim().toLowerCase();
    if (TRUE.has(v)) return true as V;
    if (FALSE.has(v)) return false as V;
    throw new UsageError(`invalid ${what} ${JSON.stringify(raw)}: expected true or false`);
  }
  if (typeof raw !== 'string') throw new UsageError(`invalid ${what}: expected a string`);
  switch (key) {
    case 'base_url':
    case 'site_url':
      return normalizeUrl(raw, what) as V;
    case 'api_key':
      return normalizeApiKeyValue(raw, what) as V;
    case 'signing_scheme': {
      const v = raw.trim().toLowerCase();
      if ((SIGNING_SCHEMES as readonly string[]).includes(v)) return v as V;
      throw new UsageError(`invalid ${what} ${JSON.stringify(raw)}: expected ${SIGNING_SCHEMES.join(', ')}`);
    }
    case 'type': {
      const v = raw.trim().toLowerCase();
      if (v === 'game') return 'Game' as V;
      if (v === 'website') return 'Website' as V;
      throw new UsageError(`invalid ${what} ${JSON.stringify(raw)}: expected Game or Website`);
    }
    case 'game_id': {
      const v = raw.trim();
      if (/^[A-Za-z0-9_.-]+$/.test(v)) return v as V;
      throw new UsageError(`invalid ${what} ${JSON.stringify(raw)}: expected an id such as 1001`);
    }
    case 'audit_url':
      return normalizeAuditUrl(raw, what) as V;
    case 'operator':
      return validateOperator(raw, what) as V;
    case 'ticket_pattern':
      return validatePattern(raw, what) as V;
    case 'signing_secret':
    case 'cookie': {
      if (raw.length > 0 && !/[\r\n]/.test(raw)) return raw as V;
      throw new UsageError(`invalid ${what}: expected a non-empty single-line value`);
    }
    default:
      throw new UsageError(`unknown key ${JSON.stringify(key)}`);
  }
}

/** An operator names one person, e.g. `Ana Lopes <ana@studio.test>`: one visible line, bounded. */
export const MAX_OPERATOR = 200;

function validateOperator(raw: string, what: string): string {
  const v = raw.trim();
  if (v === '' || [...v].length > MAX_OPERATOR || firstInvisible(v) !== undefined) {
    throw new UsageError(
      `invalid ${what}: expected one line naming a person, e.g. "Ana Lopes <ana@studio.test>" (up to ${MAX_OPERATOR} characters)`,
    );
  }
  return v;
}

/** A list given as an array (the file) or comma-separated (`config set operators "a, b"`). */
function validateList(key: ProfileKey, raw: RawValue, what: string): string[] {
  const items = typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw : null;
  if (items === null || items.some((i) => typeof i !== 'string'))
    throw new UsageError(`invalid ${what}: expected a list of text`);
  const out = items.map((i) => i.trim()).filter((i) => i !== '');
  if (out.length === 0) throw new UsageError(`invalid ${what}: expected at least one entry`);
  if (key === 'operators') return out.map((o) => validateOperator(o, what));
  for (const sku of out) {
    if (!/^[A-Za-z0-9_.:*-]{1,100}$/.test(sku))
      throw new UsageError(`invalid ${what} ${JSON.stringify(sku)}: expected a sku such as gems:500, gems or gems*`);
  }
  return out;
}

function validateCount(raw: RawValue, what: string, min: number): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d{1,9}\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min)
    throw new UsageError(`invalid ${what} ${JSON.stringify(raw)}: expected a whole number ≥ ${min}`);
  return n;
}

/** A ticket pattern is a regular expression; tickets are bounded (100 characters), so is it. */
function validatePattern(raw: string, what: string): string {
  const v = raw.trim();
  if (v === '' || v.length > 200)
    throw new UsageError(`invalid ${what}: expected a regular expression (up to 200 characters)`);
  try {
    new RegExp(v, 'u');
  } catch (error) {
    throw new UsageError(`invalid ${what} ${JSON.stringify(v)}: ${(error as Error).message}`);
  }
  return v;
}

/** The value as it may be printed: secrets redacted, booleans as true/false, unset as ''. */
export function displayValue(key: ProfileKey, value: StoredProfile[ProfileKey] | undefined): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) return value.join(', ');
  if (SECRET_KEYS.has(key)) return redact(String(value));
  // A base URL may carry a password (http://user:secret@host/).
  if (key === 'base_url' || key === 'site_url' || key === 'audit_url') return redactUrl(String(value));
  return String(value);
}

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function validateProfileName(name: string): string {
  if (PROFILE_NAME.test(name)) return name;
  throw new UsageError(
    `invalid profile name ${JSON.stringify(name)}: use letters, digits, '.', '_' and '-' (up to 64, starting with a letter or digit)`,
  );
}
