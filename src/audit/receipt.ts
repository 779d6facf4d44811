/**
 * Receipts: what a mutation changed, in one line, and the command that would undo it
 * (docs/CLI.md "Safety for support staff"). Pure functions of the states read before and after.
 */
import { unitsHeld } from '../domain/holdings.js';
import { splitPack } from '../domain/packs.js';
import type { AchievementUpdate, ProductEntry, UserAchievement } from '../domain/types.js';
import { shellCommand } from './shell.js';
import { grouped } from '../domain/grouped.js';

export interface Receipt {
  /** e.g. `FIRST_WIN of 01e5…: 3/10 In Progress → 0/10 In Progress` */
  change: string;
  /**
   * The udcli command line that restores the state before (two joined with `&&` when one is
   * not enough), shell-quoted, or null when there is none.
   */
  undo: string | null;
  /** What the undo cannot restore, or why there is none. */
  note?: string;
  /** Set when the server changed nothing (the request was sent all the same). */
  unchanged?: true;
  /** `--reason` and `--ticket` of the change. */
  reason?: string;
  ticket?: string;
}

/**
 * The undo as one pasteable line: each command with the scope flags (`--profile`, `--game`...)
 * that make it land where the change was made, joined with `&&` so the second runs only after
 * the first succeeded.
 */
export function undoLine(commands: ReadonlyArray<readonly string[]>, scope: readonly string[] = []): string {
  return commands.map((argv) => shellCommand([...argv, ...scope])).join(' && ');
}

type AchievementState = Pick<UserAchievement, 'current_value' | 'state'> & {
  target_value?: number;
  percent_complete?: number;
};

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
  /** The verb (`inc`, `set`, `reset`, `delete`...): a delete and a reset have undos of their own. */
  action: string;
  before: UserAchievement | null;
  /** The PUT reply (update result), or null after a delete. */
  after: AchievementUpdate | UserAchievement | null;
  /** From the definition; needed for exact undo unless it can be inferred (reset). */
  startValue?: number;
  targetValue?: number;
  /** Flags every undo command carries (`--profile`, `--base-url`, `--game`, `--type`). */
  scope?: readonly string[];
}): Receipt {
  const { uid, developerId: dev, action, before } = args;
  const scope = args.scope ?? [];
  const after = action === 'delete' ? null : args.after;
  const target =
    num(args.targetValue) ?? num(before?.target_value) ?? num((after as AchievementState | null)?.target_value);
  const afterText = action === 'delete' ? '(deleted)' : fmtAchievement(after, target);
  const change = `${dev} of ${shortUid(uid)}: ${fmtAchievement(before, target)} → ${afterText}`;
  const notes: string[] = [];

  let start = num(args.startValue);
  if (start === null && action === 'reset' && after) start = num(after.current_value);
  const startOr0 = (): number => {
    if (start === null) notes.push('start value unknown, assumed 0');
    return start ?? 0;
  };
  const finish = (commands: string[][] | null, unchanged = false): Receipt => {
    const receipt: Receipt = { change, undo: commands ? undoLine(commands, scope) : null };
    if (notes.length) receipt.note = notes.join('; ');
    if (unchanged) receipt.unchanged = true;
    return receipt;
  };

  if (!before) {
    if (!after) return finish(null);
    notes.push('the record did not exist before');
    return finish([['achievements', 'delete', uid, dev]]);
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
    if (was > s) return finish([['achievements', 'inc', uid, dev, '--by', String(was - s)]]);
    notes.push('a record with no progress cannot be recreated');
    return finish(null);
  }

  if (after && num(after.current_value) === was && after.state === before.state) {
    notes.push('nothing changed');
    return finish(null, true);
  }
  if (target === null) {
    notes.push('target value unknown');
    return finish(null);
  }
  const s = startOr0();
  if (lostDates) notes.push(lostDates);
  const set = ['achievements', 'set', uid, dev, progressPercent(was, s, target)];
  if (after?.state === 'Completed' && before.state !== 'Completed') {
    // The service keeps Completed through `set` and `inc`: only a reset brings it back down.
    return finish(was > s ? [['achievements', 'reset', uid, dev], set] : [['achievements', 'reset', uid, dev]]);
  }
  return finish([set]);
}

export function productReceipt(args: {
  uid: string;
  sku: string;
  action: 'give' | 'take';
  /** Units moved. */
  qty: number;
  /** The quantity as the receipt names it (`2 × gems:500 = 1,000 units`); default: `qty units`. */
  amount?: string;
  before: ProductEntry | null;
  after: ProductEntry | null;
  /** Flags every undo command carries (`--profile`, `--base-url`, `--game`, `--type`). */
  scope?: readonly string[];
}): Receipt {
  const { uid, sku, action, qty } = args;
  const was = unitsHeld(args.before);
  const now = unitsHeld(args.after);
  const known = was !== null && now !== null;
  const amount = args.amount ?? `${grouped(qty)} ${qty === 1 ? 'unit' : 'units'}`;
  const change = known
    ? `${sku} of ${shortUid(uid)}: ${was} → ${now} (${action} ${amount})`
    : `${sku} of ${shortUid(uid)}: ${action} ${amount}`;
  const delta = known ? now - was : action === 'give' ? qty : -qty;
  if (delta === 0) return { change, undo: null, note: 'nothing changed', unchanged: true };
  // Units, so by the base: a give naming a pack would count packs.
  const undo = undoLine(
    [['products', delta > 0 ? 'take' : 'give', uid, splitPack(sku).base, '--qty', String(Math.abs(delta))]],
    args.scope,
  );
  return known ? { change, undo } : { change, undo, note: 'quantities unknown; undo assumes the requested quantity' };
}
