/**
 * Was a change whose reply never came applied? The platform has no idempotency keys, so udcli
 * decides from the user's state: read before sending (and journaled), read again now. State =
 * before + the change: applied. State = before: not applied (safe to send now). Anything else
 * (someone else changed it meanwhile, or the count cannot be read): unknown, both values shown.
 * A change that cannot move the state (an increment already at the target, an unlockable
 * already held) is applied either way: there is nothing left to do.
 */
import { unitsHeld } from './holdings.js';
import type { ProductEntry } from './types.js';

export type Outcome = 'applied' | 'not-applied' | 'unknown';

export interface OutcomeJudgement {
  outcome: Outcome;
  /** e.g. `before 4, now 5 (expected 5)`: what the decision was made from. */
  detail: string;
}

/** The part of an achievement record an increment moves; null when the user has no record. */
export interface AchievementState {
  current_value: number;
  state: string;
}

function judge(before: number | null, now: number | null, expected: number | null, unit = ''): OutcomeJudgement {
  const shown = (v: number | null) => (v === null ? 'unreadable' : `${v}${unit}`);
  const detail = `before ${shown(before)}, now ${shown(now)}${expected === null ? '' : ` (applied would be ${shown(expected)})`}`;
  if (before === null || now === null || expected === null) return { outcome: 'unknown', detail };
  if (now === expected) return { outcome: 'applied', detail };
  if (now === before) return { outcome: 'not-applied', detail };
  return { outcome: 'unknown', detail };
}

/** Just the numbers, for the journal: what an increment's resume needs of the record. */
export function achievementState(record: { current_value: unknown; state: unknown } | null): AchievementState | null {
  return record === null ? null : { current_value: Number(record.current_value), state: String(record.state) };
}

/**
 * An increment by `by`: the value rises by `by`, capped at the target (a user without a record
 * starts from the start value). `definition` gives start and target; without it the target is
 * taken from nowhere and no cap applies.
 */
export function incrementOutcome(
  before: AchievementState | null,
  now: AchievementState | null,
  by: number,
  definition?: { start_value: unknown; target_value: unknown } | null,
): OutcomeJudgement {
  const start = Number(definition?.start_value ?? 0);
  const target = Number(definition?.target_value ?? Number.POSITIVE_INFINITY);
  const value = (s: AchievementState | null) => {
    const v = s === null ? start : Number(s.current_value);
    return Number.isFinite(v) ? v : null;
  };
  const was = value(before);
  const expected = was === null ? null : Number.isFinite(target) ? Math.min(was + by, Math.max(target, was)) : was + by;
  return judge(was, value(now), expected);
}

/** A product without a consumable pack size is an unlockable: held or not. */
function isUnlockable(entry: ProductEntry | null): boolean | null {
  const data = entry?.product?.data;
  if (data === undefined) return null;
  return !(data && typeof data === 'object' && !Array.isArray(data) && 'consumable_qty' in data);
}

/** The product state the journal keeps: units held and whether it is an unlockable. */
export interface ProductState {
  units: number | null;
  unlockable: boolean | null;
}

export function productState(entry: ProductEntry | null): ProductState {
  return { units: unitsHeld(entry), unlockable: isUnlockable(entry) };
}

/**
 * `give`/`take` moving `units` units (see `unitsMoved`: a POST grant naming a pack moves qty ×
 * the pack), from what was kept of the state before: a held unlockable counts 1, and giving it
 * again changes nothing.
 */
export function productOutcome(
  before: ProductState,
  now: ProductEntry | null,
  action: 'give' | 'take',
  units: number,
): OutcomeJudgement {
  const unlockable = before.unlockable ?? isUnlockable(now);
  const was = before.units;
  let expected: number | null;
  if (was === null || unlockable === null) expected = null;
  else if (unlockable) expected = action === 'give' ? 1 : 0;
  else expected = action === 'give' ? was + units : was - units;
  return judge(was, unitsHeld(now), expected, ' units');
}
