// Over 400 lines: the trail's line format, its writer (fsync, lock) and its readers are one file format, kept together.
/**
 * The audit log: one JSON line per change made by a mutation (docs/CLI.md "Safety for support
 * staff"), in `<config dir>/audit.log`, mode 0600. Never holds a secret: the command line and
 * the states are scrubbed before writing.
 */
import { closeSync, createReadStream, fsyncSync, mkdirSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { configDir } from '../config/paths.js';
import { UsageError } from '../errors.js';
import { isSecretParam, redact, withoutUserinfo } from '../redact.js';
import { openAppend } from '../write-whole.js';
import { shellCommand } from './shell.js';
import type { Trail } from './trail.js';

/**
 * What a line says of its change. `intent`: written (durably) before the change is sent, after
 * its state was read; the change's outcome line closes it (`closes`): made (`change`), refused or
 * not sent (`failed`), or sent with its outcome unknown (`unknown`, itself open). `resolved`: an
 * open intent or unknown settled by a later read (`closes` names it). An intent no line closes
 * is a change that may or may not have left the machine: `udcli audit resolve` settles it.
 */
export type AuditKind = 'intent' | 'change' | 'failed' | 'unknown' | 'resolved' | 'approval' | 'policy';

/** What an intent keeps to rebuild its change (`udcli audit resolve`): the command and its journal words. */
export interface AuditSpec {
  /** `products give` */
  command: string;
  /** The words after `<user>`, with `--game`/`--type` (the journal's form of the change). */
  args: string[];
}

export interface AuditEntry {
  /** ISO 8601, UTC. */
  time: string;
  /** The invocation that wrote it (one id a run: every line of a batch shares it). Older lines have none. */
  run?: string;
  /** This line's id: `<run>.<n>`, what a `closes` points at. */
  id?: string;
  kind?: AuditKind;
  /**
   * The change without its user (`products give sword-of-dawn --qty 1 --game 1001 --type Game`):
   * with the server, profile and uid, what `udcli audit` groups the latest state by.
   */
  subject?: string;
  /**
   * With an outcome line (`change`, `failed`, `unknown`): the id of its `intent`. With
   * `resolved`: the id of the open line it settles (an intent, or an unknown).
   */
  closes?: string;
  /** With `resolved`: what the read found. */
  outcome?: 'applied' | 'not-applied';
  /** With `approval`: the hash of the plan approved (src/batch/plan.ts). */
  plan?: string;
  /** The named operator (UDCLI_OPERATOR, the profile's), else `$USER` of whoever ran the command. */
  operator: string;
  profile: string;
  /** The server's base URL, userinfo removed (older entries have none). */
  server?: string;
  /** The command line, secrets redacted. */
  command: string;
  uid: string;
  /** The username the user was named by, where udcli knew it. */
  username?: string;
  /** `--reason` and `--ticket` of the change. */
  reason?: string;
  ticket?: string;
  /** State before and after the change (null: no record). */
  before: unknown;
  after: unknown;
  /** One-line description of the change (receipt). */
  change?: string;
  /** The command that would undo it, when there is one. */
  undo?: string | null;
  /** With `intent`: the change, to rebuild it from (`udcli audit resolve`). */
  spec?: AuditSpec;
  /** With `intent`: the profile's game (null: none); the change's own `--game` is in `spec`. */
  game?: string | null;
  /** With `intent`: the state before as the change's judge reads it (what `audit resolve` decides from). */
  kept?: unknown;
}

/**
 * `<config dir>/audit.log`: UDCLI_CONFIG_DIR when set, else the per-user config directory (~/.config/udcli on Linux).
 */
export function auditLogPath(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  return join(configDir(env, platform), 'audit.log');
}

/** Flags whose value is a secret (`--api-key K` or `--api-key=K`). */
const SECRET_FLAGS = new Set(['--api-key', '--signing-secret', '--cookie', '--auth-token', '--token']);

/** The argument list with every secret value redacted (flags above, and `name=value` of secret params). */
export function redactArgv(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0 && SECRET_FLAGS.has(arg.slice(0, eq))) {
      out.push(`${arg.slice(0, eq)}=${redact(arg.slice(eq + 1))}`);
    } else if (SECRET_FLAGS.has(arg) && i + 1 < argv.length) {
      out.push(arg, redact(argv[++i]));
    } else if (eq > 0 && !arg.startsWith('-') && isSecretParam(arg.slice(0, eq))) {
      out.push(`${arg.slice(0, eq)}=${redact(arg.slice(eq + 1))}`);
    } else {
      out.push(arg);
    }
  }
  return out;
}

/** `udcli a b 'c d'`, secrets redacted. */
export function commandLine(argv: readonly string[]): string {
  return shellCommand(redactArgv(argv));
}

/** A copy with the value of every secret-named key redacted, at any depth. */
export function scrubSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrubSecrets);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = isSecretParam(k) && typeof v === 'string' ? redact(v) : scrubSecrets(v);
    }
    return out;
  }
  return value;
}

/**
 * Who ran the command: `$USER` (or `USERNAME`/`LOGNAME`), else the account the process runs as,
 * since cron jobs and containers often have no `$USER` and "unknown" helps nobody in an audit.
 */
export function operatorName(env: NodeJS.ProcessEnv): string {
  const fromEnv = env.USER || env.USERNAME || env.LOGNAME;
  if (fromEnv) return fromEnv;
  // Asked of the system once a run: a batch writes an entry per user.
  osUser ??= systemUser();
  return osUser;
}

let osUser: string | undefined;

function systemUser(): string {
  try {
    return userInfo().username || 'unknown';
  } catch {
    // No passwd entry for this uid (some containers).
    return 'unknown';
  }
}

/** Builds an entry: operator from operatorName(), time now. */
export function auditEntry(args: {
  env: NodeJS.ProcessEnv;
  profile: string;
  server?: string;
  argv: readonly string[];
  uid: string;
  before: unknown;
  after: unknown;
  change?: string;
  undo?: string | null;
  kind?: AuditKind;
  subject?: string;
  username?: string;
  reason?: string;
  ticket?: string;
  closes?: string;
  outcome?: 'applied' | 'not-applied';
  spec?: AuditSpec;
  game?: string | null;
  kept?: unknown;
  plan?: string;
  /** The run's named operator (src/ops/operator.ts); `$USER` without one. */
  operator?: string;
  now?: Date;
}): AuditEntry {
  const entry: AuditEntry = {
    time: (args.now ?? new Date()).toISOString(),
    operator: args.operator ?? operatorName(args.env),
    profile: args.profile,
    ...(args.server !== undefined ? { server: withoutUserinfo(args.server) } : {}),
    command: commandLine(args.argv),
    uid: args.uid,
    before: scrubSecrets(args.before ?? null),
    after: scrubSecrets(args.after ?? null),
  };
  if (args.change !== undefined) entry.change = args.change;
  if (args.undo !== undefined) entry.undo = args.undo;
  for (const key of [
    'kind',
    'subject',
    'username',
    'reason',
    'ticket',
    'closes',
    'outcome',
    'spec',
    'game',
    'plan',
  ] as const) {
    if (args[key] !== undefined) Object.assign(entry, { [key]: args[key] });
  }
  if (args.kept !== undefined) entry.kept = scrubSecrets(args.kept);
  return entry;
}

/**
 * An open audit log, the local trail: appends one line per entry (a single write each, so
 * concurrent writers do not interleave), each made durable (fsync) before append() resolves.
 */
export class AuditLog implements Trail {
  readonly path: string;
  /** This invocation's run id: every line it writes carries it. */
  readonly run: string;
  private fd: number | null;
  private seq = 0;

  private constructor(path: string, fd: number) {
    this.path = path;
    this.fd = fd;
    this.run = newRunId();
  }

  static open(path: string): AuditLog {
    const dir = join(path, '..');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Never through a link planted at its name; made 0600 when an older udcli left it looser.
    // Opened before the change is sent: a log that cannot be written stops it with one line.
    try {
      return new AuditLog(path, openAppend(path, 0o600));
    } catch (error) {
      throw new UsageError(`cannot write the audit log ${path}: ${(error as Error).message}; nothing was changed`);
    }
  }

  get where(): string {
    return this.path;
  }

  /** Appends the entry with this run's id and the next line id; resolves with the line id once it is on disk. */
  append(entry: AuditEntry): Promise<string> {
    if (this.fd === null) return Promise.reject(new Error('audit log is closed'));
    const id = `${this.run}.${++this.seq}`;
    const line = `${JSON.stringify(trailLine(entry, this.run, id))}\n`;
    writeSync(this.fd, line);
    // Written ahead: a line a change depends on is on disk before the change is sent.
    fsyncSync(this.fd);
    return Promise.resolve(id);
  }

  read(filter: AuditFilter = {}): AsyncGenerator<AuditEntry> {
    return readAudit(this.path, filter);
  }

  close(): Promise<void> {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    return Promise.resolve();
  }
}

/** The line a trail writes of an entry (the file and the team's database alike): its run, id and kind first. */
export function trailLine(entry: AuditEntry, run: string, id: string): AuditEntry {
  const { time, ...rest } = entry;
  return {
    time,
    run,
    id,
    kind: 'change',
    ...rest,
    before: scrubSecrets(entry.before),
    after: scrubSecrets(entry.after),
  };
}

/** Appends one entry (opens and closes the log). */
export async function appendAudit(path: string, entry: AuditEntry): Promise<void> {
  const log = AuditLog.open(path);
  try {
    await log.append(entry);
  } finally {
    await log.close();
  }
}

/** `20261127T1008-3f9a2c`: sorts by time, and unique enough for one operator's log. */
export function newRunId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').slice(0, 13);
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

/** `--since`: a duration back from now (`90s`, `30m`, `2h`, `7d`, `1w`) or a date/time (`2024-05-01`, ISO). */
export function parseSince(value: string, now: Date = new Date()): Date {
  const m = /^\s*(\d+)\s*([smhdw])\s*$/i.exec(value);
  if (m) return new Date(now.getTime() - Number(m[1]) * DURATION_UNITS[m[2]!.toLowerCase()]! * 1000);
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value.trim())) {
    const d = new Date(value.trim());
    if (!Number.isNaN(d.getTime())) return d;
  }
  throw new UsageError(`invalid --since: ${value}`, {
    hint: 'Give a duration like 30m, 2h, 7d, or a date like 2024-05-01 or 2024-05-01T10:00:00Z.',
  });
}

export interface AuditFilter {
  since?: Date | string;
  /** uid (any case). */
  user?: string;
  profile?: string;
  /** Only this run's lines. */
  run?: string;
  /** Only lines of changes made for this ticket. */
  ticket?: string;
  /** Only lines of this operator (operatorMatches). */
  operator?: string;
  now?: Date;
  /** Hears of each line that is not an entry (1-based line number); the reader keeps going. */
  onCorrupt?: (line: number) => void;
}

/** A line longer than this is no entry udcli wrote (states are small): it is skipped unparsed. */
export const MAX_AUDIT_LINE = 1024 * 1024;

/**
 * Does a line's operator answer to `wanted`: the whole of it, its name or its address
 * (`Ana Lopes <ana@studio.test>` answers to `ana@studio.test` and `Ana Lopes`), any case.
 */
export function operatorMatches(operator: string, wanted: string): boolean {
  const w = wanted.trim().toLowerCase();
  const o = operator.toLowerCase();
  if (o === w) return true;
  const m = /^([^<]*)<([^>]*)>\s*$/.exec(o);
  return m !== null && (m[1]!.trim() === w || m[2]!.trim() === w);
}

export function isEntry(e: unknown): e is AuditEntry {
  if (!e || typeof e !== 'object' || Array.isArray(e)) return false;
  const x = e as Record<string, unknown>;
  return typeof x.time === 'string' && typeof x.uid === 'string' && typeof x.profile === 'string';
}

/** The filter as a test of one entry (every line passes an empty filter). */
export function entryFilter(filter: AuditFilter): (e: AuditEntry) => boolean {
  const since = typeof filter.since === 'string' ? parseSince(filter.since, filter.now) : filter.since;
  const sinceMs = since?.getTime();
  const user = filter.user?.toLowerCase();
  return (e) =>
    (filter.run === undefined || e.run === filter.run) &&
    (filter.ticket === undefined || e.ticket === filter.ticket) &&
    (filter.operator === undefined || operatorMatches(String(e.operator), filter.operator)) &&
    (sinceMs === undefined || Date.parse(e.time) >= sinceMs) &&
    (user === undefined || e.uid?.toLowerCase() === user) &&
    (filter.profile === undefined || e.profile === filter.profile);
}

/**
 * The entries matching the filter, oldest first, streamed. A missing log has none; a line that is not an entry is
 * skipped, and `onCorrupt` hears which.
 */
export async function* readAudit(path: string, filter: AuditFilter = {}): AsyncGenerator<AuditEntry> {
  const matches = entryFilter(filter);
  const stream = createReadStream(path, { encoding: 'utf8' });
  const opened = await new Promise<boolean>((resolve, reject) => {
    stream.once('open', () => resolve(true));
    stream.once('error', (e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? resolve(false) : reject(e)));
  });
  if (!opened) return;
  const rl = createInterface({ input: stream, crlfDelay: Infinity });
  let n = 0;
  try {
    for await (const line of rl) {
      n++;
      if (line === '') continue;
      let e: unknown = null;
      if (line.length <= MAX_AUDIT_LINE) {
        try {
          e = JSON.parse(line);
        } catch {
          e = null;
        }
      }
      if (!isEntry(e)) {
        filter.onCorrupt?.(n);
        continue;
      }
      if (matches(e)) yield e;
    }
  } finally {
    rl.close();
    stream.destroy();
  }
}

/** The change an audit line is about: its user and change, on its server and profile. */
export function auditKey(e: Pick<AuditEntry, 'server' | 'profile' | 'uid' | 'subject'>): string | null {
  if (e.subject === undefined) return null;
  return JSON.stringify([e.server ?? null, e.profile, e.uid.toLowerCase(), e.subject]);
}

/**
 * The changes still open, read line by line in the trail's order: an intent no outcome line
 * closed (it may or may not have been sent), and an unknown no resolved line settled (with the
 * intent it closed, which says how to rebuild the change). Keeps only what is still open, so
 * memory follows the open changes, not the trail's length.
 */
export class OpenChanges {
  private readonly open = new Map<string, AuditEntry>();
  /** An open unknown's intent (by the unknown's id). */
  private readonly origin = new Map<string, AuditEntry>();
  private n = 0;

  add(e: AuditEntry): void {
    const id = e.id ?? `#${this.n++}`;
    if (e.kind === 'intent') {
      this.open.set(id, e);
      return;
    }
    const closed = e.closes !== undefined ? this.open.get(e.closes) : undefined;
    if (e.closes !== undefined) {
      this.open.delete(e.closes);
      this.origin.delete(e.closes);
    }
    if (e.kind === 'unknown') {
      this.open.set(id, e);
      if (closed?.kind === 'intent') this.origin.set(id, closed);
    }
  }

  /** The open lines, oldest first. */
  list(): AuditEntry[] {
    return [...this.open.values()];
  }

  /** The intent an open line stands for: itself, or the intent its unknown closed (none for older lines). */
  intentOf(e: AuditEntry): AuditEntry | undefined {
    if (e.kind === 'intent') return e;
    return e.id !== undefined ? this.origin.get(e.id) : undefined;
  }
}

/** An open line a later run can settle: its id, and the intent it stands for when there is one. */
export interface OpenLine {
  id: string;
  intent?: AuditEntry;
}

/**
 * The open lines (intents not closed, unknowns not settled) by auditKey: the latest for each (a
 * later run that settles one closes it). Streams the trail; keeps only those still open.
 */
export async function openUnknowns(trail: Pick<Trail, 'read'>): Promise<Map<string, OpenLine>> {
  const changes = new OpenChanges();
  for await (const e of trail.read()) changes.add(e);
  const open = new Map<string, OpenLine>();
  for (const e of changes.list()) {
    const key = auditKey(e);
    if (key === null || e.id === undefined) continue;
    const intent = changes.intentOf(e);
    open.set(key, { id: e.id, ...(intent ? { intent } : {}) });
  }
  return open;
}
