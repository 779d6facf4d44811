/**
 * The trail: where every change's lines go, written ahead (docs/SUPPORT.md): the local file
 * (`AuditLog`, `<config dir>/audit.log`), or the team's database (`PgTrail`). Whoever
 * changes data opens a trail before anything is sent (one that cannot be written stops the change
 * with one line), appends lines through it, and closes it.
 */
import type { Settings } from '../config/types.js';
import type { PromptIO } from '../runtime/prompt.js';
import { AuditLog, auditLogPath, type AuditEntry, type AuditFilter } from './log.js';

export interface Trail {
  /** This invocation's run id: every line it writes carries it. */
  readonly run: string;
  /** Where the trail is, for messages: the file's path, or the database without its password. */
  readonly where: string;
  /** Appends the entry with this run's id and the next line id; resolves once the line is durable. */
  append(entry: AuditEntry): Promise<string>;
  /** The entries matching the filter, oldest first (in the order they were written), streamed. */
  read(filter?: AuditFilter): AsyncGenerator<AuditEntry>;
  close(): Promise<void>;
}

/**
 * The trail of these settings: the team's database when the profile names one (`audit_url`: an
 * unreachable one stops the change, exit 5, before anything is sent), else the local audit log.
 * `io`: where a database password may be asked for.
 */
export async function openTrail(
  env: NodeJS.ProcessEnv,
  settings?: Pick<Settings, 'profile' | 'auditUrl'>,
  io?: PromptIO,
): Promise<Trail> {
  if (settings?.auditUrl !== undefined) return openTeamTrail(settings.auditUrl, env, io);
  return AuditLog.open(auditLogPath(env));
}

/** The team's trail at `url` (loads `pg`, only now). */
export async function openTeamTrail(url: string, env: NodeJS.ProcessEnv, io?: PromptIO): Promise<Trail> {
  const { PgTrail } = await import('./pg-trail.js');
  return PgTrail.open(url, { env, ...(io === undefined ? {} : { io }) });
}
