/**
 * Receipts: what a mutation changed, in one line, and the command that would undo it
 * (cli.md "Safety for support staff"). Pure functions of the states read before and after.
 */
import { unitsHeld } from '../spec/holdings.js';
import type { AchievementUpdate, ProductEntry, UserAchievement } from '../spec/types.js';

export interface Receipt {
  /** e.g. `FIRST_WIN of 01e5…: 3/10 Started → 0/10 Started` */
  change: string;
  /** The udcli command that restores the state before, or null when there is none. */
  undo: string | null;
  /** What the undo cannot restore, or why there is none. */
  note?: string;
}

export type AchievementAction = 'inc' | 'set' | 'reset' | 'delete';

type AchievementState = Pick<UserAchievement, 'current_value' | 'state'> & { target_value?: number; percent_complete?: number };

/** `01e5…`: enough of a uid to recognise it in one line. */
export function shortUid(uid: string): string {
  return uid.length > 8 ? `${uid.slice(0, 4)}…` : uid;
}

function num(v: unknown): number | null {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : typeof v === 'number' ? v : NaN;
  return Number.isFinite(n) ? n : null;
}

function fmtAchievement(s: AchievementState | null, target: number | null): string {
  if (!s) return '(none)';
  const cur = num(s.current_value);
  const value = cur === null ? '?' : target === null ? String(cur) : `${cur}/${target}`;
  return `${value} ${s.state}`;
}

/**
 * The shortest percentage P (as written for `achievements set`) for which the service's
 * `start + round(P/100 * (target - start))` gives back `value`.
 */
export function progressPercent(value: number, start: number, target: number): string {
  const range = target - start;
  if (range <= 0) return '100%';
  const exact = ((value - start) * 100) / range;
  for (let digits = 0; digits <= 10; digits++) {
    const text = String(Number(exact.toFixed(digits)));
    if (start + Math.round((Number(text) / 100) * range) === value) return `${text}%`;
  }
  return `${exact}%`;
}

export function achievementReceipt(args: {
  uid: string;
  developerId: string;
  action: AchievementAction;
  before: UserAchievement | null;
  /** The PUT reply (update result), or null after a delete. */
  after: AchievementUpdate | UserAchievement | null;
  /** From the definition; needed for exact undo unless it can be inferred (reset). */
  startValue?: number;
  targetValue?: number;
}): Receipt {
  const { uid, developerId: dev, action, before } = args;
  const after = action === 'delete' ? null : args.after;
  const target = num(args.targetValue) ?? num(before?.target_value) ?? num((after as AchievementState | null)?.target_value);
  const afterText = action === 'delete' ? '(deleted)' : fmtAchievement(after, target);
  const change = `${dev} of ${shortUid(uid)}: ${fmtAchievement(before, target)} → ${afterText}`;
  const notes: string[] = [];

  let start = num(args.startValue);
  if (start === null && action === 'reset' && after) start = num(after.current_value);
  const startOr0 = (): number => {
    if (start === null) notes.push('start value unknown, assumed 0');
    return start ?? 0;
  };
  const finish = (undo: string | null): Receipt => (notes.length ? { change, undo, note: notes.join('; ') } : { change, undo });

  if (!before) {
    if (!after) return finish(null);
    notes.push('the record did not exist before');
    return finish(`udcli achievements delete ${uid} ${dev}`);
  }
  const was = num(before.current_value);
  if (was === null) {
    notes.push('the earlier value is unknown');
    return finish(null);
  }
  const lostDates = before.state === 'Completed' ? 'the original completion date cannot be restored' : null;

  if (action === 'delete') {
    const s = startOr0();
    notes.push('the original dates cannot be restored');
    if (was > s) return finish(`udcli achievements inc ${uid} ${dev} --by ${was - s}`);
    notes.push('a record with no progress cannot be recreated');
    return finish(null);
  }

  if (after && num(after.current_value) === was && after.state === before.state) {
    notes.push('nothing changed');
    return finish(null);
  }
  if (target === null) {
    notes.push('target value unknown');
    return finish(null);
  }
  const s = startOr0();
  if (lostDates) notes.push(lostDates);
  return finish(`udcli achievements set ${uid} ${dev} ${progressPercent(was, s, target)}`);
}

export function productReceipt(args: {
  uid: string;
  sku: string;
  action: 'give' | 'take';
  qty: number;
  before: ProductEntry | null;
  after: ProductEntry | null;
}): Receipt {
  const { uid, sku, action, qty } = args;
  const was = unitsHeld(args.before);
  const now = unitsHeld(args.after);
  const known = was !== null && now !== null;
  const change = known
    ? `${sku} of ${shortUid(uid)}: ${was} → ${now}`
    : `${sku} of ${shortUid(uid)}: ${action === 'give' ? '+' : '-'}${qty}`;
  const delta = known ? now - was : action === 'give' ? qty : -qty;
  if (delta === 0) return { change, undo: null, note: 'nothing changed' };
  const undo =
    delta > 0 ? `udcli products take ${uid} ${sku} --qty ${delta}` : `udcli products give ${uid} ${sku} --qty ${-delta}`;
  return known ? { change, undo } : { change, undo, note: 'quantities unknown; undo assumes the requested quantity' };
}
