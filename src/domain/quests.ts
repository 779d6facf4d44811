/**
 * A user's quest (achievement) as the platform's JavaScript pages describe it, shared by the
 * client and the sandbox: its states, and `completed_date`, which is the string
 * `0000-00-00 00:00:00` until the quest is completed (never null: `if (q.completed_date)` is
 * true for every quest, so the date has to be read with `completedDateOf`).
 */

import type { QuestState } from './contract.js';

export { QUEST_STATES, type QuestState } from './contract.js';

export const NOT_COMPLETED_DATE = '0000-00-00 00:00:00';

/**
 * udcli's own word, never the service's, for a quest of the game the user has no record of:
 * the service lists started quests only, and `achievements list` adds the others from the
 * definitions under this state.
 */
export const NOT_STARTED = 'Not Started';

/** The completion date when there is one: null for the zero date, an empty value or null. */
export function completedDateOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text === '' || text === NOT_COMPLETED_DATE || /^0000-00-00/.test(text) ? null : text;
}

/** A state as the service may spell it (`in progress`, `Revoked `): compared without case or spaces around. */
export function isState(value: unknown, state: QuestState | typeof NOT_STARTED): boolean {
  return typeof value === 'string' && value.trim().toLowerCase() === state.toLowerCase();
}
