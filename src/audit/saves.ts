/**
 * The trace of a game-save change (`saves set`, `saves erase`), as for every other mutation:
 * the value read before, the change, the receipt (`save K of 01e5…: 12 bytes {"lvl":3} → …`),
 * the undo command, and one audit line. An earlier value that cannot ride on a command line
 * (long, several lines, or read as a file name: `@…`, `-…`) is kept in a file (0600) under the
 * config directory, and the undo names it as `@FILE`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiClient, EraseResult, Reply, SaveResult } from '../client/types.js';
import { configDir } from '../config/paths.js';
import type { Factory } from '../ops/factory.js';
import { notSaved, readSave, saveBytes } from '../ops/saves.js';
import { AuditLog, auditEntry, auditLogPath } from './log.js';
import { shortUid, undoLine, type Receipt } from './receipt.js';
import { outcomeUnknown } from '../errors.js';
import { receiptLines, sayOutcomeUnknown, targetFlags, type TraceSettings } from './tracked.js';
import { hasControl, printable } from '../printable.js';

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

/** `12 bytes {"level":3,"hp":…}`: the size and the start of a value, on one line. */
export function savePreview(value: string | null, width = 40): string {
  if (value === null) return '(none)';
  const flat = value.replace(/\s+/g, ' ').trim();
  const shown = printable(flat.length > width ? `${flat.slice(0, width - 1)}…` : flat);
  const bytes = saveBytes(value);
  return `${bytes} byte${bytes === 1 ? '' : 's'} ${shown}`;
}

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
export function writeUndoFile(env: NodeJS.ProcessEnv, uid: string, key: string, value: string, now = new Date()): string {
  const dir = join(configDir(env), 'saves-undo');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
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

/** The command line of a save change, as the audit log records it. */
export function saveArgv(uid: string, key: string, change: SaveChange, scope: readonly string[]): string[] {
  if (change.action === 'erase') return ['saves', 'erase', uid, key, ...scope];
  const shown = change.valueArg === change.value && !inlineable(change.value) ? `(${saveBytes(change.value)} bytes)` : change.valueArg;
  return ['saves', 'set', uid, key, shown, ...scope];
}

/**
 * Reads the value before, makes the change, appends the audit line and prints the receipt on
 * stderr. A change whose reply was lost is logged as sent with its outcome unknown.
 */
export async function tracedSaveChange<T extends SaveResult | EraseResult>(
  factory: Pick<Factory, 'io' | 'output'>,
  settings: TraceSettings,
  client: ApiClient,
  uid: string,
  key: string,
  change: SaveChange,
  tokenGiven: boolean,
  perform: () => Promise<Reply<T>>,
): Promise<Reply<T>> {
  const env = factory.io.env;
  const scope = targetFlags(settings);
  const argv = saveArgv(uid, key, change, scope);
  const before = await readSave(client, uid, key);
  // Nothing to erase: the service would answer 404; say so without sending the change.
  if (change.action === 'erase' && before === null) throw notSaved(uid, key);
  const log = AuditLog.open(auditLogPath(env));
  try {
    let reply: Reply<T>;
    try {
      reply = await perform();
    } catch (err) {
      if (outcomeUnknown(err)) {
        const what = `save ${key} of ${shortUid(uid)}: ${change.action} sent, outcome unknown (${sayOutcomeUnknown(err)})`;
        log.append(auditEntry({ env, profile: settings.profile, ...(settings.baseUrl ? { server: settings.baseUrl } : {}), argv, uid, before: saveState(key, before), after: null, change: what, undo: null }));
      }
      throw err;
    }
    const after = change.action === 'set' ? change.value : null;
    const receipt = saveReceipt({ uid, key, before, after, scope, tokenGiven, keep: (value) => writeUndoFile(env, uid, key, value) });
    log.append(
      auditEntry({ env, profile: settings.profile, ...(settings.baseUrl ? { server: settings.baseUrl } : {}), argv, uid, before: saveState(key, before), after: saveState(key, after), change: receipt.change, undo: receipt.undo }),
    );
    const out = await factory.output();
    for (const line of receiptLines(receipt)) out.info(line);
    return reply;
  } finally {
    log.close();
  }
}
