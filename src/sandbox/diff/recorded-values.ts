/**
 * The one place where a value as the platform's replies show it becomes a value of a sandbox
 * data file (seeding a scratch sandbox, `sandbox import`): quest states and dates, users' dates,
 * what a purchase says is held. Quest states (`In Progress`/`Completed`/`Revoked`) and the
 * `0000-00-00 00:00:00` of a quest not completed are read in `questFromRecorded` and
 * `questDatesFromRecorded` alone.
 */

import { QUEST_STATES, type QuestState } from '../../domain/contract.js';

/**
 * A user's quest record as the platform shows it (a list entry, a submit's or a reset's reply)
 * → what a data file holds of it: the current value (undefined: nothing to seed) and whether it
 * is complete (a definition known only through records reaches its target there). Quest states
 * and dates are read here and nowhere else.
 */
export function questFromRecorded(record: { state?: unknown; current_value?: unknown; completed_date?: unknown }): {
  value: number | undefined;
  completed: boolean;
} {
  const state = typeof record.state === 'string' ? record.state : '';
  // A quest never started has no record on the platform; a listing that says so seeds nothing.
  const current = typeof record.current_value === 'number' ? record.current_value : Number(record.current_value);
  const value = state === 'Not Started' || !Number.isFinite(current) ? undefined : current;
  const date = record.completed_date;
  const completed =
    state === 'Completed' ||
    (typeof date === 'string' && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(date) && !date.startsWith('0000'));
  return { value, completed };
}

/** A quest record's state and dates as a data file holds them (what is not recognisable is left out). */
export interface QuestDates {
  state?: QuestState;
  started_date?: string;
  completed_date?: string;
}

const DATE_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;
const realDate = (v: unknown): string | undefined =>
  typeof v === 'string' &&
  DATE_TIME.test(v) &&
  !v.startsWith('0000') &&
  !Number.isNaN(Date.parse(`${v.replace(' ', 'T')}Z`))
    ? v
    : undefined;

/** The state and dates of a quest record (a list entry, a submit's reply), for a data file's progress in full. */
export function questDatesFromRecorded(record: {
  state?: unknown;
  started_date?: unknown;
  completed_date?: unknown;
}): QuestDates {
  const state = (QUEST_STATES as readonly unknown[]).includes(record.state) ? (record.state as QuestState) : undefined;
  const started = realDate(record.started_date);
  const completed = realDate(record.completed_date);
  return {
    ...(state ? { state } : {}),
    ...(started ? { started_date: started } : {}),
    ...(completed ? { completed_date: completed } : {}),
  };
}

/** A user's `created_on` (Unix seconds as a number or a string, or a date-time) as a data file's. */
export function createdOn(value: unknown): number | string | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d{1,12}$/.test(value)) return Number(value);
  if (typeof value === 'string' && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(value) && !value.startsWith('0000'))
    return value;
  return undefined;
}

/** A birthday (`YYYY-MM-DD`; `0000-00-00` or null when unknown, which a data file leaves out). */
export function birthday(value: unknown): string | undefined {
  return typeof value === 'string' && /^\d{4}-\d\d-\d\d$/.test(value) && value !== '0000-00-00' ? value : undefined;
}

/**
 * Units held from a purchase (`data`: a number of units, `true`/`"active"` for a held unlockable, `false` for none).
 */
export function heldUnits(purchase: { success?: unknown; data?: unknown }, consumable: boolean): number {
  const data = purchase.data;
  if (data === false || data === null || data === undefined || purchase.success === false) return 0;
  if (typeof data === 'number') return consumable ? Math.max(0, Math.floor(data)) : data > 0 ? 1 : 0;
  if (typeof data === 'string' && /^\d+$/.test(data)) return consumable ? Number(data) : Number(data) > 0 ? 1 : 0;
  return 1;
}

/** A premium flag as a boolean (`true`, `1`, `"1"`). */
export function premium(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === '1') return true;
  if (value === 0 || value === '0') return false;
  return undefined;
}
