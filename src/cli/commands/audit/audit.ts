import { auditLogPath, readAudit, parseSince, type AuditEntry } from '../../../audit/log.js';
import type { Column } from '../../../output/types.js';
import { parseUserArg } from '../../../ops/args.js';
import { resolveUid } from '../../../ops/users.js';
import type { Factory } from '../../../ops/factory.js';

export interface AuditOptions {
  since?: string;
  user?: string;
  profile?: string;
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
];

/** Columns that give up width first, and how much each keeps at least. */
const SHRINKABLE: Record<string, number> = { command: 16, change: 16, server: 12, uid: 9, time: 19, operator: 8, profile: 8 };

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
 * up characters first, down to their floor, and their cells end in `…` when cut. A time shows to
 * the second. The full entries stay in `-o json`.
 */
export function fittedColumns(entries: readonly AuditEntry[], width: number): Array<Column<AuditEntry>> {
  const base = AUDIT_COLUMNS.map((c) =>
    c.key === 'time' ? { ...c, cell: (e: AuditEntry) => e.time.replace('T', ' ').replace(/\.\d+Z$|Z$/, '') } : c,
  );
  const widths = base.map((c) => Math.max(c.header.length, ...entries.map((e) => [...c.cell(e)].length)));
  let excess = widths.reduce((a, b) => a + b, 0) + 2 * (base.length - 1) - width;
  while (excess > 0) {
    // Take one character from the widest column still above its floor.
    let pick = -1;
    for (let i = 0; i < base.length; i++) {
      const floor = SHRINKABLE[base[i]!.key] ?? widths[i]!;
      if (widths[i]! > floor && (pick === -1 || widths[i]! > widths[pick]!)) pick = i;
    }
    if (pick === -1) break;
    widths[pick]!--;
    excess--;
  }
  return base.map((c, i) => ({ ...c, cell: (e: AuditEntry) => cut(c.cell(e), widths[i]!) }));
}

export async function auditRun(factory: Factory, opts: AuditOptions, now: Date = new Date()): Promise<void> {
  const since = opts.since === undefined ? undefined : parseSince(opts.since, now);
  let user: string | undefined;
  if (opts.user !== undefined) {
    // A username is looked up once (the log keeps uids); a bad one is a usage error before that.
    const arg = parseUserArg(opts.user, '--user', 'audit');
    user = 'uid' in arg ? arg.uid : await resolveUid(await factory.client(), arg);
  }
  // `--profile` is also a global option; whichever parser took it, it filters here.
  const profile = opts.profile ?? factory.globals().profile;
  const out = await factory.output();
  const entries = readAudit(auditLogPath(factory.io.env), {
    ...(since ? { since } : {}),
    ...(user ? { user } : {}),
    ...(profile !== undefined ? { profile } : {}),
  });
  if (out.format !== 'table' || !factory.io.stdoutIsTTY || factory.globals().fields) {
    await out.list(entries, AUDIT_COLUMNS);
    return;
  }
  const rows: AuditEntry[] = [];
  for await (const e of entries) rows.push(e);
  await out.list(rows, fittedColumns(rows, terminalWidth(factory.io.stdout, factory.io.env)));
}
