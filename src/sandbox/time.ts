/** Time helpers: the sandbox stores Unix seconds and shows dates as `YYYY-MM-DD HH:MM:SS` UTC. */

export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

export function toUnixSeconds(ms: number): number {
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
