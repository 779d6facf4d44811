/**
 * The user-achievement state machine (contract: Achievements), free of SQL and HTTP.
 *
 *   (none) --increment/progress--> Started --reaching target--> Completed --reset--> Started
 *
 * Completed is kept until a reset: further increments or progress change nothing, so
 * `completed_date` is set exactly once per completion.
 */
export type UserAchievementState = 'Started' | 'Completed';

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

/** The progress after `change`, or null when nothing changes (and nothing must be written). */
export function nextProgress(goal: Goal, current: Progress | undefined, change: ProgressChange, now: number): Progress | null {
  const { startValue: start, targetValue: target } = goal;
  if (change.kind === 'reset') {
    if (!current) return null;
    return { currentValue: start, state: 'Started', startedOn: current.startedOn, completedOn: null, updatedOn: now };
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
    state: completed ? 'Completed' : 'Started',
    startedOn: current?.startedOn ?? now,
    completedOn: completed ? now : null,
    updatedOn: now,
  };
}

/** Percent of the way from start to target, rounded to 2 places (100 when complete). */
export function percentComplete(goal: Goal, currentValue: number): number {
  const span = goal.targetValue - goal.startValue;
  if (span <= 0) return 100;
  const ratio = Math.min(1, Math.max(0, (currentValue - goal.startValue) / span));
  return Math.round(ratio * 10000) / 100;
}
