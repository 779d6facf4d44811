/**
 * `udcli audit undo`: the inverse batch of a run or a ticket, from the trail's lines. Each applied
 * change's undo line is read back into its words (only the words udcli itself writes: the change
 * commands and the flags an undo carries), and the undos are grouped into batches of the same
 * command, one list of users each, as batch mode takes them (`@FILE`). A user changed more than
 * once in the same thing (a product, a quest, a save key, where the undo lands) is undone newest
 * first: each of its undos goes into a later round than the one after it, so running the steps
 * in order undoes those changes in the reverse order they were made.
 */
import { hasControl } from '../printable.js';
import { OpenChanges, type AuditEntry } from './log.js';
import { undoWhy } from './tracked.js';

/** The commands an undo may be, as udcli writes them: the change commands and nothing else. */
const UNDO_COMMANDS = new Set([
  'products give',
  'products take',
  'achievements inc',
  'achievements set',
  'achievements reset',
  'achievements delete',
  'saves set',
  'saves erase',
]);

/** The flags an undo line carries, each with a value: how much, where, why. */
const UNDO_FLAGS = new Set(['--qty', '--by', '--game', '--type', '--profile', '--base-url', '--reason', '--ticket']);

/** Where the user goes in an undo command's words (`products take <uid> ...`). */
const UID_AT = 2;

/** A step of the inverse batch: the users of one undo command shape, and its commands (the user left out). */
export interface UndoStep {
  /** 1-based; steps run in this order. */
  n: number;
  /** The commands to run for the step's users, in order, each with `<uid>` at UID_AT (`&&` joined them). */
  commands: string[][];
  uids: string[];
}

/** A change of the run or ticket that the inverse batch leaves out, and why. */
export interface LeftOut {
  entry: AuditEntry;
  why: 'no undo' | 'outcome unknown' | 'undo unreadable';
}

export interface UndoPlan {
  steps: UndoStep[];
  leftOut: LeftOut[];
  /** How many applied changes the steps undo. */
  undone: number;
}

/**
 * The words of a command line as shellCommand writes it (src/audit/shell.ts): plain words, words
 * in single quotes with `'\''` for a quote, commands joined by ` && `. Anything else (a line not
 * written by udcli) is null: it is not read as something it may not be.
 */
export function undoCommands(line: string): string[][] | null {
  const commands: string[][] = [[]];
  const word = /\s*(?:(&&)(?=\s|$)|((?:[\w@%+=:,./…-]+|'[^']*'|\\')+))(?=\s|$)/uy;
  let at = 0;
  while (at < line.length) {
    word.lastIndex = at;
    const m = word.exec(line);
    if (!m) return /^\s*$/.test(line.slice(at)) ? commands : null;
    at = word.lastIndex;
    if (m[1] !== undefined) {
      if (commands.at(-1)!.length === 0) return null;
      commands.push([]);
      continue;
    }
    const text = m[2]!.replace(/'([^']*)'|\\(')/g, (_all, quoted: string | undefined, quote: string | undefined) =>
      quoted !== undefined ? quoted : quote!,
    );
    commands.at(-1)!.push(text);
  }
  return commands.at(-1)!.length === 0 ? null : commands;
}

/**
 * An undo line's commands without the leading `udcli`, when each is a change command for this
 * entry's user with only an undo's flags; null otherwise.
 */
export function checkedUndo(entry: Pick<AuditEntry, 'uid' | 'reason' | 'ticket'>, line: string): string[][] | null {
  const commands = undoCommands(line);
  if (!commands) return null;
  const out: string[][] = [];
  for (const words of commands) {
    if (words[0] !== 'udcli' || words.some(hasControl)) return null;
    const argv = words.slice(1);
    if (!UNDO_COMMANDS.has(`${argv[0]} ${argv[1]}`)) return null;
    const uid = argv[UID_AT];
    if (uid === undefined || uid.toLowerCase() !== entry.uid.toLowerCase() || !/^[0-9a-f]{32}$/i.test(uid)) return null;
    for (let i = UID_AT + 1; i < argv.length; i++) {
      const w = argv[i]!;
      if (!w.startsWith('-')) continue;
      if (!UNDO_FLAGS.has(w) || i + 1 >= argv.length) return null;
      i++;
    }
    // Lines written before undos carried the change's reason and ticket get them here, so the
    // batch runs where the profile requires a reason.
    const why = undoWhy({
      ...(entry.reason !== undefined && !argv.includes('--reason') ? { reason: entry.reason } : {}),
      ...(entry.ticket !== undefined && !argv.includes('--ticket') ? { ticket: entry.ticket } : {}),
    });
    out.push([...argv, ...why]);
  }
  return out;
}

/** What an undo changes: the user, the noun's item (base sku, developer_id, key) and where it lands. */
function thingOf(uid: string, argv: readonly string[]): string {
  const flag = (name: string) => argv[argv.indexOf(name) + 1] ?? null;
  const at = (name: string) => (argv.includes(name) ? flag(name) : null);
  return JSON.stringify([
    uid.toLowerCase(),
    argv[0],
    argv[UID_AT + 1] ?? null,
    at('--game'),
    at('--type'),
    at('--profile'),
    at('--base-url'),
  ]);
}

/** Was this line's change made (a `change` line, or older lines without a kind; a `resolved` one found applied)? */
function applied(e: AuditEntry): boolean {
  return e.kind === undefined || e.kind === 'change' || (e.kind === 'resolved' && e.outcome === 'applied');
}

/** The inverse batch of these lines (a run's or a ticket's, oldest first). */
export function undoPlan(entries: readonly AuditEntry[]): UndoPlan {
  const leftOut: LeftOut[] = [];
  // Open: written ahead and never closed (udcli died around sending), or sent with its outcome unknown.
  const open = new OpenChanges();
  const made: Array<{ entry: AuditEntry; commands: string[][] }> = [];
  for (const e of entries) {
    open.add(e);
    if (!applied(e)) continue;
    if (e.undo === undefined || e.undo === null) {
      leftOut.push({ entry: e, why: 'no undo' });
      continue;
    }
    const commands = checkedUndo(e, e.undo);
    if (commands) made.push({ entry: e, commands });
    else leftOut.push({ entry: e, why: 'undo unreadable' });
  }
  for (const e of open.list()) leftOut.push({ entry: e, why: 'outcome unknown' });

  // Newest first: the k-th latest change of a user's thing is undone in round k.
  const rounds = new Map<string, number>();
  const steps = new Map<string, UndoStep & { round: number; order: number }>();
  let order = 0;
  for (const { entry, commands } of [...made].reverse()) {
    const thing = thingOf(entry.uid, commands[0]!);
    const round = (rounds.get(thing) ?? 0) + 1;
    rounds.set(thing, round);
    const shape = commands.map((argv) => argv.map((w, i) => (i === UID_AT ? '' : w)));
    const key = JSON.stringify([round, shape]);
    let step = steps.get(key);
    if (!step) {
      step = { n: 0, round, order: order++, commands: shape, uids: [] };
      steps.set(key, step);
    }
    step.uids.push(commands[0]![UID_AT]!);
  }
  const sorted = [...steps.values()].sort((a, b) => a.round - b.round || a.order - b.order);
  return {
    steps: sorted.map(({ commands, uids }, i) => ({ n: i + 1, commands, uids })),
    leftOut,
    undone: made.length,
  };
}

/** A step's command with the batch file in place of the user: `products take @FILE gems --qty 1000 ...`. */
export function stepArgv(command: readonly string[], file: string): string[] {
  return command.map((w, i) => (i === UID_AT ? `@${file}` : w));
}
