/**
 * What `udcli sandbox clock advance|set` and `POST /_sandbox/clock` accept. Pure, so the CLI
 * refuses bad input before it sends anything, with the same words the sandbox would use.
 */
import { MAX_TIME_MS, MIN_TIME_MS, TIME_RANGE_TEXT } from './time.js';
import { jsonText } from '../printable.js';

export class ClockInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClockInputError';
  }
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };
/** Ten years: further is a typo, not a test. */
export const MAX_ADVANCE_SECONDS = 3650 * 86_400;

function quoted(text: string): string {
  return jsonText(text.length > 40 ? `${text.slice(0, 37)}...` : text);
}

/** `901s`, `15m`, `2h`, `1d` or plain seconds (`901`): how far to move the clock forward, in seconds. */
export function parseAdvance(text: string): number {
  const m = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(text.trim());
  const seconds = m ? Number(m[1]) * UNIT_SECONDS[m[2] || 's']! : NaN;
  if (!(seconds >= 0 && seconds <= MAX_ADVANCE_SECONDS)) {
    throw new ClockInputError(
      `invalid duration ${quoted(text)}: expected seconds or a number with s, m, h or d, e.g. 901s or 15m (to go back, use set)`,
    );
  }
  return seconds;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An ISO 8601 date-time (`2030-01-01T12:00:00Z`; without a zone it is UTC; a date alone is midnight UTC): ms since the
 * epoch.
 */
export function parseSetTime(text: string): number {
  const trimmed = text.trim();
  const m = ISO.exec(trimmed);
  let ms = NaN;
  if (m) {
    const withTime =
      m[4] === undefined
        ? `${trimmed.slice(0, 10)}T00:00:00`
        : trimmed.replace(' ', 'T').replace(/(Z|[+-]\d{2}:?\d{2})$/i, '');
    const zone = m[7] === undefined || /^z$/i.test(m[7]) ? 'Z' : m[7].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
    ms = Date.parse(`${withTime}${zone}`);
    // Date.parse rolls 2030-02-31 over to March: refuse a day the month does not have.
    const day = new Date(Date.parse(`${trimmed.slice(0, 10)}T00:00:00Z`));
    if (Number.isNaN(day.getTime()) || day.getUTCDate() !== Number(m[3])) ms = NaN;
  }
  if (!Number.isFinite(ms)) {
    throw new ClockInputError(`invalid date-time ${quoted(text)}: expected ISO 8601 like 2030-01-01T12:00:00Z`);
  }
  if (ms < MIN_TIME_MS || ms > MAX_TIME_MS) {
    throw new ClockInputError(
      `date-time ${quoted(text)} is ${ms < MIN_TIME_MS ? 'before 1970-01-01T00:00:00Z' : 'after 9999-12-31T23:59:59Z'}: the sandbox's clock runs from ${TIME_RANGE_TEXT}`,
    );
  }
  return ms;
}
