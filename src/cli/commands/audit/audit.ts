import { auditLogPath, readAudit, parseSince, type AuditEntry } from '../../../audit/log.js';
import { UsageError } from '../../../errors.js';
import type { Column } from '../../../output/types.js';
import { normalizeHex32 } from '../../../domain/ids.js';
import type { Factory } from '../../../ops/factory.js';

export interface AuditOptions {
  since?: string;
  user?: string;
  profile?: string;
}

export const AUDIT_COLUMNS: ReadonlyArray<Column<AuditEntry>> = [
  { key: 'time', header: 'TIME', cell: (e) => e.time },
  { key: 'operator', header: 'OPERATOR', cell: (e) => e.operator },
  { key: 'profile', header: 'PROFILE', cell: (e) => e.profile },
  { key: 'command', header: 'COMMAND', cell: (e) => e.command },
  { key: 'uid', header: 'UID', cell: (e) => e.uid },
  { key: 'change', header: 'CHANGE', cell: (e) => e.change ?? '' },
];

export async function auditRun(factory: Factory, opts: AuditOptions, now: Date = new Date()): Promise<void> {
  const since = opts.since === undefined ? undefined : parseSince(opts.since, now);
  let user: string | undefined;
  if (opts.user !== undefined) {
    const uid = normalizeHex32(opts.user);
    if (!uid) throw new UsageError(`invalid --user: ${opts.user} (expected a uid of 32 hex digits)`);
    user = uid;
  }
  // `--profile` is also a global option; whichever parser took it, it filters here.
  const profile = opts.profile ?? factory.globals().profile;
  const out = await factory.output();
  await out.list(
    readAudit(auditLogPath(factory.io.env), {
      ...(since ? { since } : {}),
      ...(user ? { user } : {}),
      ...(profile !== undefined ? { profile } : {}),
    }),
    AUDIT_COLUMNS,
  );
}
