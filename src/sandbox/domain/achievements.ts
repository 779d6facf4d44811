/**
 * The user-achievement (quest) state machine (SERVICE.md: Achievements, from the platform's
 * JavaScript pages), free of SQL and HTTP.
 *
 *   (none) --increment/progress/reset--> In Progress --reaching target--> Completed --reset--> In Progress
 *   Revoked: only from a data file; takes no change at all (409)
 *
 * Completed is kept until a reset: further increments or progress change nothing, so
 * `completed_date` is set exactly once per completion.
 */
import type { QuestState } from '../../domain/quests.js';

export { NOT_COMPLETED_DATE } from '../../domain/quests.js';

export type UserAchievementState = QuestState;

/** The state a database or data file written before the platform's words were known used for `In Progress`. */
export const LEGACY_IN_PROGRESS = 'Started';

export type ProgressChange =
  | { kind: 'increment'; by: number }
  | { kind: 'progress'; fraction: number }
  | { kind: 'reset' };

export interface Progress {
  currentValue: number;
  state: UserAchievementState;
  startedOn: number;
  completedOn: number | null;
  updatedOn: number;
}

export interface Goal {
  startValue: number;
  targetValue: number;
}

/** Thrown for any change of a revoked quest: the route answers 409 and nothing is written. */
export class RevokedQuest extends Error {}

/** The progress after `change`, or null when nothing changes (and nothing must be written). */
export function nextProgress(
  goal: Goal,
  current: Progress | undefined,
  change: ProgressChange,
  now: number,
): Progress | null {
  const { startValue: start, targetValue: target } = goal;
  if (current?.state === 'Revoked') throw new RevokedQuest('revoked');
  if (change.kind === 'reset') {
    // A reset of a quest never started starts it, like a submit (SERVICE.md: Achievements).
    return {
      currentValue: start,
      state: 'In Progress',
      startedOn: current?.startedOn ?? now,
      completedOn: null,
      updatedOn: now,
    };
  }
  if (current?.state === 'Completed') return null;
  const base = current?.currentValue ?? start;
  const value =
    change.kind === 'increment'
      ? Math.min(target, base + change.by)
      : start + Math.round(change.fraction * (target - start));
  const completed = value >= target;
  return {
    currentValue: Math.min(value, target),
    state: completed ? 'Completed' : 'In Progress',
    startedOn: current?.startedOn ?? now,
    completedOn: completed ? now : null,
    updatedOn: now,
  };
}

/**
 * `percent_complete`, an integer (the platform's pages): floor(100 * (current - start) / (target -
 * start)), and 100 only for a Completed quest (a revoked one at its target shows 99).
 */
export function percentComplete(
  goal: Goal,
  currentValue: number,
  state: UserAchievementState | undefined = undefined,
): number {
  const span = goal.targetValue - goal.startValue;
  const done = Math.min(span, Math.max(0, currentValue - goal.startValue));
  // Integers throughout: no float rounding can lift 28.99… to 29 or drop 29 to 28.
  const percent = span <= 0 ? 100 : Math.floor((100 * done) / span);
  return state === undefined || state === 'Completed' ? percent : Math.min(99, percent);
}
