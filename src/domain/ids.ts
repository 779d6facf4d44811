import { nodeCrypto } from './node-crypto.js';

// The CLI imports this module at start-up (api key validation) but only the sandbox hashes.
function md5(text: string): string {
  return nodeCrypto().createHash('md5').update(text, 'utf8').digest('hex');
}

const HEX32 = /^[0-9a-f]{32}$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for the 32-hex-digit form used by uid, user_id and auth_token (any case). */
export function isHex32(value: string): boolean {
  return HEX32.test(value);
}

/** The canonical (lower-case) form of a 32-hex-digit id, or null when it is not one. */
export function normalizeHex32(value: string): string | null {
  return HEX32.test(value) ? value.toLowerCase() : null;
}

/**
 * Real api keys are also written in UUID form; the contract treats both spellings as one key.
 * Returns the 32 lower-case hex digits, or null when the value is neither form.
 */
export function normalizeApiKey(value: string): string | null {
  if (HEX32.test(value)) return value.toLowerCase();
  if (UUID.test(value)) return value.replaceAll('-', '').toLowerCase();
  return null;
}

/** Sandbox uids are md5(username) so demo data has the same ids on every machine. */
export function uidForUsername(username: string): string {
  return md5(username);
}
