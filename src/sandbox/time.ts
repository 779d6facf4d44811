/** Time helpers: the sandbox stores Unix seconds and shows dates as `YYYY-MM-DD HH:MM:SS` UTC. */

export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

/**
 * The times the sandbox keeps: years 1970 to 9999. Every date it shows is ISO 8601 with a
 * four-digit year, and a later one (`+010009-...`) or one past JavaScript's last date would
 * break whoever reads it back; earlier ones are negative Unix times, which no client expects.
 */
export const MIN_TIME_MS = 0;
/** 9999-12-31T23:59:59.999Z */
export const MAX_TIME_MS = 253_402_300_799_999;
export const TIME_RANGE_TEXT = '1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z';

export function inTimeRange(ms: number): boolean {
  return Number.isFinite(ms) && ms >= MIN_TIME_MS && ms <= MAX_TIME_MS;
}

/** An ISO 8601 instant that never throws: what an error message or a log line can always show. */
export function safeIsoTime(ms: number): string {
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : `(time ${String(ms)} ms)`;
}

/**
 * Unix seconds of a moment the sandbox is about to store or compare with stored times. A moment
 * outside the kept range is refused (RangeError, a 500 that is logged): nothing is written that
 * would later fail to show.
 */
export function toUnixSeconds(ms: number): number {
  if (!inTimeRange(ms)) throw new RangeError(`time out of range: ${safeIsoTime(ms)} is not within ${TIME_RANGE_TEXT}`);
  return Math.floor(ms / 1000);
}

/** `YYYY-MM-DD HH:MM:SS` in UTC (the spec's date-time format, time zone not shown). */
export function formatDateTime(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

export function formatNullableDateTime(unixSeconds: number | null): string | null {
  return unixSeconds === null ? null : formatDateTime(unixSeconds);
}

/** Unix seconds of a UTC date-time written `YYYY-MM-DD HH:MM:SS` (seed data). */
export function utcSeconds(dateTime: string): number {
  const ms = Date.parse(`${dateTime.replace(' ', 'T')}Z`);
  if (Number.isNaN(ms)) throw new RangeError(`not a date-time: ${dateTime}`);
  return ms / 1000;
}
