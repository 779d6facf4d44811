/**
 * `@FILE` for every declared change type (change.ts): the shared checks once (dry runs too),
 * each user's state read first, a receipt and an audit line per user, the journal and its
 * resume decided by the type's own judge.
 */
import { AuditLog, auditKey, auditLogPath, openUnknowns } from '../audit/log.js';
import { auditResolution, traceContext } from '../audit/tracked.js';
import { normalizeHex32 } from '../domain/ids.js';
import type { Factory } from '../ops/factory.js';
import { withoutUserinfo } from '../redact.js';
import { recoverUser, subjectOf, tracedBatchUser, type ChangeArgs, type ChangeType } from './change.js';
import { runBatchCommand, type BatchCommandSpec } from './commands.js';
import type { BatchFlags, Why } from './flags.js';
import type { BatchSummary, Recovery } from './runner.js';

/** The username a line named its user by: none when the line was a uid. */
function usernameOf(input: string): string | undefined {
  return normalizeHex32(input) ? undefined : input;
}

export async function runChangeBatch<I, P, S, T, A>(
  factory: Factory,
  type: ChangeType<ChangeArgs, object, I, P, S, T, A>,
  input: I,
  spec: string,
  opts: BatchFlags,
  why: Why = {},
): Promise<BatchSummary> {
  const settings = await factory.settings();
  const dryRun = opts.dryRun === true;
  let log: AuditLog | null = null;
  let prepared: P | undefined;
  const description = type.label(input);
  const subject = subjectOf(type, input);
  // The unknown lines earlier runs left open, read once when the first one is settled.
  let open: Promise<Map<string, string>> | null = null;
  const settle = async (uid: string, line: string, recovery: Recovery<unknown>, before: unknown): Promise<void> => {
    if (recovery.outcome === 'unknown' || log === null) return;
    const l: AuditLog = log;
    open ??= openUnknowns(l.path);
    const key = auditKey({ server: withoutUserinfo(settings.baseUrl), profile: settings.profile, uid, subject })!;
    const opened = (await open).get(key);
    (await open).delete(key);
    const username = usernameOf(line);
    const now = recovery.outcome === 'applied' ? (recovery.result as { after?: unknown }).after : null;
    auditResolution(traceContext(factory.io.env, settings, l, why), {
      uid,
      argv: [...type.command.split(' '), uid, ...type.journalArgs(input)],
      subject,
      ...(username !== undefined ? { username } : {}),
      // A run killed in flight left no line to close: the resolution still says what was found.
      closes: opened ?? '(none: the earlier run was interrupted before it wrote one)',
      outcome: recovery.outcome,
      detail: recovery.detail,
      before,
      after: now ?? null,
    });
  };
  const batch: BatchCommandSpec<unknown> = {
    spec,
    operationName: type.command,
    args: type.journalArgs(input),
    options: opts,
    description,
    idempotent: type.idempotent,
    ...(type.ask ? { askFirst: type.ask.what(input) } : {}),
    describe: async (uid, client) => {
      // What the real run reads first: a user it would fail on fails here. From that state, the
      // before → after the single-user dry run shows.
      const before = await type.read(client, uid, input);
      if (type.expected) return type.expected(uid, input, before, prepared as P);
      return type.describe ? type.describe(uid, input) : `${description} of ${uid}`;
    },
    prepare: async (client, sample) => {
      prepared = await type.prepare(client, input, { sample: await sample(), batch: true, dryRun });
      if (!dryRun) log = AuditLog.open(auditLogPath(factory.io.env));
    },
    why,
    perUser: (client, uid, ctx, line) =>
      tracedBatchUser(
        factory,
        settings,
        log!,
        type,
        client,
        uid,
        input,
        prepared as P,
        {
          onBefore: (before) => ctx.started(before),
          onResolved: (how, detail) => ctx.resolved(how, detail),
        },
        { ...(usernameOf(line) !== undefined ? { username: line } : {}), why },
      ),
    ...(type.judge
      ? {
          recover: async (client, uid, before, line) => {
            const recovery = await recoverUser(type, client, uid, input, prepared as P, before);
            await settle(uid, line, recovery, before);
            return recovery;
          },
        }
      : {}),
  };
  try {
    return await runBatchCommand(factory, batch);
  } finally {
    (log as AuditLog | null)?.close();
  }
}
