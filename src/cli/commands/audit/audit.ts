import {
  auditKey,
  auditLogPath,
  entryFilter,
  OpenChanges,
  readAudit,
  parseSince,
  type AuditEntry,
  type AuditFilter,
} from '../../../audit/log.js';
import { openTeamTrail, type Trail } from '../../../audit/trail.js';
import { activeProfileName, readConfig } from '../../../config/index.js';
import type { Column } from '../../../output/types.js';
import { parseUserArg } from '../../../ops/args.js';
import { resolveUid } from '../../../ops/users.js';
import type { Factory } from '../../../ops/factory.js';
import { UsageError } from '../../../errors.js';
import { hasControl } from '../../../printable.js';

export interface AuditOptions {
  since?: string;
  user?: string;
  profile?: string;
  history?: boolean;
  unresolved?: boolean;
  run?: string;
  ticket?: string;
  operator?: string;
}

/** What a line says of its change, in a word (older lines, without a kind, made their change). */
function stateOf(e: AuditEntry): string {
  // Written before sending, closed by no line yet: it may or may not have reached the server.
  if (e.kind === 'intent') return 'open';
  if (e.kind === 'failed') return 'failed';
  if (e.kind === 'unknown') return 'unknown';
  // Not a change: a second operator's approval of a plan, or a profile's policy changed.
  if (e.kind === 'approval' || e.kind === 'policy') return e.kind;
  if (e.kind === 'resolved') return e.outcome === 'applied' ? 'resolved: applied' : 'resolved: not applied';
  return 'changed';
}

export const AUDIT_COLUMNS: ReadonlyArray<Column<AuditEntry>> = [
  // The one date form of every table (seconds, no milliseconds); JSON keeps the log's own.
  { key: 'time', header: 'TIME', cell: (e) => e.time.replace(/\.\d+Z$/, 'Z') },
  { key: 'operator', header: 'OPERATOR', cell: (e) => e.operator },
  { key: 'profile', header: 'PROFILE', cell: (e) => e.profile },
  { key: 'server', header: 'SERVER', cell: (e) => e.server ?? '' },
  { key: 'command', header: 'COMMAND', cell: (e) => e.command },
  { key: 'uid', header: 'UID', cell: (e) => e.uid },
  { key: 'change', header: 'CHANGE', cell: (e) => e.change ?? '' },
  { key: 'run', header: 'RUN', cell: (e) => e.run ?? '' },
  { key: 'id', header: 'ID', cell: (e) => e.id ?? '' },
  { key: 'kind', header: 'STATE', cell: stateOf },
  { key: 'username', header: 'USERNAME', cell: (e) => e.username ?? '' },
  { key: 'reason', header: 'REASON', cell: (e) => e.reason ?? '' },
  { key: 'ticket', header: 'TICKET', cell: (e) => e.ticket ?? '' },
  { key: 'closes', header: 'CLOSES', cell: (e) => e.closes ?? '' },
  { key: 'undo', header: 'UNDO', cell: (e) => e.undo ?? '' },
];

/** The table's columns (every field stays in -o json, ndjson and csv, and --fields). */
const TABLE_COLUMNS: ReadonlyArray<Column<AuditEntry>> = [
  AUDIT_COLUMNS.find((c) => c.key === 'time')!,
  AUDIT_COLUMNS.find((c) => c.key === 'run')!,
  AUDIT_COLUMNS.find((c) => c.key === 'operator')!,
  AUDIT_COLUMNS.find((c) => c.key === 'profile')!,
  AUDIT_COLUMNS.find((c) => c.key === 'server')!,
  { key: 'user', header: 'USER', cell: (e) => (e.username !== undefined ? `${e.username} (${e.uid})` : e.uid) },
  AUDIT_COLUMNS.find((c) => c.key === 'kind')!,
  AUDIT_COLUMNS.find((c) => c.key === 'change')!,
  AUDIT_COLUMNS.find((c) => c.key === 'ticket')!,
];

/** Columns that give up width first, and how much each keeps at least. */
const SHRINKABLE: Record<string, number> = {
  command: 16,
  change: 12,
  server: 8,
  uid: 9,
  user: 8,
  time: 20,
  operator: 6,
  profile: 6,
  run: 8,
  ticket: 6,
  kind: 7,
};

/** Columns a terminal's table leaves out when no entry shown has them (older lines, no --ticket). */
const OPTIONAL = new Set(['run', 'ticket']);

/** The terminal's width: what the terminal says, else COLUMNS, else 80. */
export function terminalWidth(stdout: NodeJS.WritableStream, env: NodeJS.ProcessEnv): number {
  const reported = (stdout as { columns?: number }).columns;
  if (reported !== undefined && reported > 0) return reported;
  const fromEnv = Number(env.COLUMNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 80;
}

function cut(text: string, width: number): string {
  const chars = [...text];
  return chars.length <= width ? text : `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
}

/**
 * The table's columns cut to fit `width` (two spaces between columns): the widest columns give
 * up characters first, down to their floor, and their cells end in `…` when cut. A time keeps
 * its whole ISO 8601 form (AUDIT_COLUMNS). The full entries stay in `-o json`.
 */
export function fittedColumns(
  entries: readonly AuditEntry[],
  width: number,
  columns: ReadonlyArray<Column<AuditEntry>> = TABLE_COLUMNS,
): Array<Column<AuditEntry>> {
  const shown = columns.filter((c) => !OPTIONAL.has(c.key) || entries.some((e) => c.cell(e) !== ''));
  const widths = shown.map((c) => Math.max(c.header.length, ...entries.map((e) => [...c.cell(e)].length)));
  let excess = widths.reduce((a, b) => a + b, 0) + 2 * (shown.length - 1) - width;
  while (excess > 0) {
    // Take one character from the widest column still above its floor.
    let pick = -1;
    for (let i = 0; i < shown.length; i++) {
      const floor = SHRINKABLE[shown[i]!.key] ?? widths[i]!;
      if (widths[i]! > floor && (pick === -1 || widths[i]! > widths[pick]!)) pick = i;
    }
    if (pick === -1) break;
    widths[pick]!--;
    excess--;
  }
  return shown.map((c, i) => ({ ...c, cell: (e: AuditEntry) => cut(c.cell(e), widths[i]!) }));
}

const FILTER_EXAMPLES: Record<string, string> = {
  '--run': '20261127T1008-3f9a2c',
  '--ticket': 'SUP-1234',
  '--operator': 'ana@studio.test',
};

/**
 * The team trail's URL when the profile in effect names one (`audit_url`), else undefined (the
 * local audit log). Read from the file alone: a profile since removed still filters the local log.
 */
function teamTrailUrl(factory: Factory, profile: string | undefined): string | undefined {
  const config = readConfig(factory.io.env).data;
  const { name } = activeProfileName(profile === undefined ? {} : { profile }, factory.io.env, config);
  return config.profiles[name]?.audit_url;
}

/** A run id or a ticket as given on the command line: one short line, checked before use. */
export function filterValue(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (v === '' || v.length > 100 || hasControl(v))
    throw new UsageError(`invalid ${flag}: expected a short value such as ${FILTER_EXAMPLES[flag] ?? 'SUP-1234'}`);
  return v;
}

/**
 * The latest line of each user and change (what `udcli audit` shows by default): a change made
 * and then made again shows once, an unknown later settled shows as settled. Lines written
 * before lines named their change stand each for itself.
 */
async function latest(entries: AsyncIterable<AuditEntry>): Promise<AuditEntry[]> {
  const last = new Map<string, AuditEntry>();
  let n = 0;
  for await (const e of entries) {
    const key = auditKey(e) ?? `#${n++}`;
    // Re-inserted: the map's order is the order of each key's latest line.
    last.delete(key);
    last.set(key, e);
  }
  return [...last.values()];
}

/**
 * The open lines (intents no outcome closed, unknowns no later line settled), of those matching
 * the filter. Every line is read: the line that closes one may be another run's, another profile's.
 */
async function unresolved(entries: AsyncIterable<AuditEntry>, filter: AuditFilter): Promise<AuditEntry[]> {
  const open = new OpenChanges();
  for await (const e of entries) open.add(e);
  return open.list().filter(entryFilter(filter));
}

export async function auditRun(factory: Factory, opts: AuditOptions, now: Date = new Date()): Promise<void> {
  const since = opts.since === undefined ? undefined : parseSince(opts.since, now);
  let user: string | undefined;
  if (opts.user !== undefined) {
    // A username is looked up once (the log keeps uids); a bad one is a usage error before that.
    const arg = parseUserArg(opts.user, '--user', 'audit');
    user = 'uid' in arg ? arg.uid : await resolveUid(await factory.client(), arg);
  }
  if (opts.history && opts.unresolved) throw new UsageError('--history and --unresolved are two views: give one');
  const run = filterValue(opts.run, '--run');
  const ticket = filterValue(opts.ticket, '--ticket');
  const operator = filterValue(opts.operator, '--operator');
  // `--profile` is also a global option; whichever parser took it, it filters here.
  const profile = opts.profile ?? factory.globals().profile;
  const teamUrl = teamTrailUrl(factory, profile);
  const out = await factory.output();
  const corrupt: number[] = [];
  // The team's trail: every agent's lines, whatever each calls the profile (the profile chose the trail).
  let trail: Trail | null = null;
  if (teamUrl !== undefined) trail = await openTeamTrail(teamUrl, factory.io.env, factory.io);
  const path = trail === null ? auditLogPath(factory.io.env) : trail.where;
  const what = (n: number) => (trail === null ? `audit log ${path} line ${n}` : `team trail ${path} row ${n}`);
  const filter: AuditFilter = {
    ...(since ? { since } : {}),
    ...(user ? { user } : {}),
    ...(profile !== undefined && trail === null ? { profile } : {}),
    ...(run !== undefined ? { run } : {}),
    ...(ticket !== undefined ? { ticket } : {}),
    ...(operator !== undefined ? { operator } : {}),
  };
  // --unresolved reads every line: the line that closes an open one may be another run's or another ticket's.
  const readFilter: AuditFilter = {
    ...(opts.unresolved ? {} : filter),
    onCorrupt: (line) => {
      corrupt.push(line);
      out.warn(`${what(line)} is not an audit entry: skipped`);
    },
  };
  try {
    await show(factory, opts, trail === null ? readAudit(path, readFilter) : trail.read(readFilter), filter);
  } finally {
    await trail?.close();
  }
  if (corrupt.length > 0) {
    const where = trail === null ? `audit log ${path}` : `team trail ${path}`;
    const unit = `${trail === null ? 'line' : 'row'}${corrupt.length === 1 ? '' : 's'}`;
    throw new UsageError(
      `${where} has ${corrupt.length} corrupt ${unit} (${corrupt.slice(0, 5).join(', ')}${corrupt.length > 5 ? ', …' : ''}), skipped; every other line was shown`,
      {
        hint:
          trail === null
            ? 'a line udcli did not write whole (a full disk, an edit): check it, or move the log aside'
            : 'a row udcli did not write (an edit by hand): check it in the database',
      },
    );
  }
}

/** The lines read, as the view asks (latest state, --unresolved or --history), in the format asked. */
async function show(
  factory: Factory,
  opts: AuditOptions,
  read: AsyncGenerator<AuditEntry>,
  filter: AuditFilter,
): Promise<void> {
  const out = await factory.output();
  // --unresolved reads every line first (a line closing an unknown may come later); the
  // latest-state view keeps one line a user and change; --history streams every line.
  const entries: AsyncIterable<AuditEntry> | AuditEntry[] = opts.history
    ? read
    : opts.unresolved
      ? await unresolved(read, filter)
      : await latest(read);
  const table = out.format === 'table' && !factory.globals().fields;
  if (!table || !factory.io.stdoutIsTTY) {
    await out.list(entries, table ? TABLE_COLUMNS : AUDIT_COLUMNS);
  } else {
    const rows: AuditEntry[] = [];
    for await (const e of entries) rows.push(e);
    await out.list(rows, fittedColumns(rows, terminalWidth(factory.io.stdout, factory.io.env)));
  }
}
