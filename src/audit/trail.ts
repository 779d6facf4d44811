/**
 * The trail: where every change's lines go, written ahead (docs/SUPPORT.md). Today the one kind is
 * the local file (`AuditLog`, `<config dir>/audit.log`); a team's database is another. Whoever
 * changes data opens a trail before anything is sent (one that cannot be written stops the change
 * with one line), appends lines through it, and closes it.
 */
import type { Settings } from '../config/types.js';
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

/** The trail of these settings: the local audit log. */
export async function openTrail(env: NodeJS.ProcessEnv, _settings?: Pick<Settings, 'profile'>): Promise<Trail> {
  return AuditLog.open(auditLogPath(env));
}

/**
 * The `unknown` lines no later line settles, by auditKey: the latest for each (a later run that
 * settles one closes it). Streams the trail; keeps only those still open.
 */
export { openUnknowns } from './log.js';
