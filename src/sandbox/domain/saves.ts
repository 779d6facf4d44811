/**
 * Game saves (contract: Game saves; platform.md): per user and game, a key names a string value.
 * The bounds live here once, for the API's checks, the data file's schema and its validation.
 */
export const SAVE_LIMITS = {
  /** 1–64 characters of `A-Z a-z 0-9 _ . -`. */
  keyPattern: '^[A-Za-z0-9_.-]{1,64}$',
  keyMaxLength: 64,
  /** A value's size in UTF-8 bytes (256 KiB). */
  valueMaxBytes: 256 * 1024,
  keysPerGame: 100,
} as const;

const KEY = new RegExp(SAVE_LIMITS.keyPattern);
// A lone UTF-16 surrogate cannot be stored as UTF-8 as it is: SQLite would change it.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isSaveKey = (key: string): boolean => KEY.test(key);

export const saveBytes = (value: string): number => Buffer.byteLength(value, 'utf8');

/** Why a value cannot be saved, or null when it can. */
export function saveValueProblem(value: string): string | null {
  if (LONE_SURROGATE.test(value)) return 'not valid Unicode text (a lone surrogate)';
  const bytes = saveBytes(value);
  if (bytes > SAVE_LIMITS.valueMaxBytes) return `${bytes} bytes of UTF-8; at most ${SAVE_LIMITS.valueMaxBytes} (256 KiB)`;
  return null;
}
