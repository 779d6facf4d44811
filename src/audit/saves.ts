/**
 * What the trace of a game-save change (`saves set`, `saves erase`) needs, as every other change:
 * the value read before, the change, the receipt (`save K of 01e5…: 12 bytes {"lvl":3} → …`),
 * the undo command, and one audit line. An earlier value that cannot ride on a command line
 * (long, several lines, or read as a file name: `@…`, `-…`) is kept in a file (0600) under the
 * config directory, and the undo names it as `@FILE`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDir } from '../config/paths.js';
import { saveBytes, savePreview } from '../ops/saves.js';
export { savePreview } from '../ops/saves.js';
import { shortUid, undoLine, type Receipt } from './receipt.js';
import { hasControl } from '../printable.js';

export type SaveChange =
  | {
      action: 'set';
      value: string;
      /** The value argument as typed (`@FILE`, `-`, or the value), for the audit line's command. */
      valueArg: string;
    }
  | { action: 'erase' };

/** Longest earlier value an undo carries inline; longer ones go to a file. */
export const INLINE_UNDO_MAX = 200;

/** What the audit line keeps of a value: the value itself when short, else its size, hash and start. */
export function saveState(key: string, value: string | null): unknown {
  if (value === null) return null;
  const bytes = saveBytes(value);
  if (bytes <= 4096) return { key, bytes, value };
  return { key, bytes, sha256: createHash('sha256').update(value, 'utf8').digest('hex'), preview: value.slice(0, 200) };
}

/** Can the value be one argument of a pasted command line, read back as the same value? */
export function inlineable(value: string): boolean {
  return value.length <= INLINE_UNDO_MAX && !hasControl(value) && !value.startsWith('@') && !value.startsWith('-');
}

/**
 * Writes the earlier value for the undo: `<config dir>/saves-undo/<uid>-<key>-<time>.txt`,
 * mode 0600 (a save can hold anything the game keeps), never over an existing file.
 */
export function writeUndoFile(
  env: NodeJS.ProcessEnv,
  uid: string,
  key: string,
  value: string,
  now = new Date(),
): string {
  const dir = join(configDir(env), 'saves-undo');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  for (let n = 0; ; n++) {
    const path = join(dir, `${uid}-${key}-${stamp}${n === 0 ? '' : `-${n}`}.txt`);
    try {
      writeFileSync(path, value, { encoding: 'utf8', mode: 0o600, flag: 'wx' });
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

export function saveReceipt(args: {
  uid: string;
  key: string;
  before: string | null;
  after: string | null;
  /** Flags every undo command carries (`--profile`, `--base-url`). */
  scope?: readonly string[];
  /** Where an earlier value too long for the command line is kept; called only when needed. */
  keep: (value: string) => string;
  /** The token was given, not got from the sandbox: the undo needs it given again. */
  tokenGiven: boolean;
}): Receipt {
  const { uid, key, before, after } = args;
  const change = `save ${key} of ${shortUid(uid)}: ${savePreview(before)} → ${after === null ? '(erased)' : savePreview(after)}`;
  if (before === after) return { change, undo: null, note: 'nothing changed', unchanged: true };
  const notes: string[] = [];
  let undo: string[];
  if (before === null) {
    undo = ['saves', 'erase', uid, key];
  } else if (inlineable(before)) {
    undo = ['saves', 'set', uid, key, before];
  } else {
    const path = args.keep(before);
    notes.push(`the earlier value is kept in ${path}`);
    undo = ['saves', 'set', uid, key, `@${path}`];
  }
  if (args.tokenGiven) notes.push("the undo needs the player's auth token again (--auth-token or UDCLI_AUTH_TOKEN)");
  const receipt: Receipt = { change, undo: undoLine([undo], args.scope) };
  if (notes.length > 0) receipt.note = notes.join('; ');
  return receipt;
}

/** A save change's words after the user: the key, and the value as typed (its size when too long to show). */
export function saveWords(key: string, change: SaveChange): string[] {
  if (change.action === 'erase') return [key];
  const shown =
    change.valueArg === change.value && !inlineable(change.value)
      ? `(${saveBytes(change.value)} bytes)`
      : change.valueArg;
  return [key, shown];
}

/** The command line of a save change, as the audit log records it. */
export function saveArgv(uid: string, key: string, change: SaveChange, scope: readonly string[]): string[] {
  return ['saves', change.action, uid, ...saveWords(key, change), ...scope];
}
