/**
 * `@FILE` for every declared change type (change.ts): the shared checks once (dry runs too),
 * each user's state read first, a receipt and an audit line per user, the journal and its
 * resume decided by the type's own judge.
 */
import { AuditLog, auditLogPath } from '../audit/log.js';
import type { Factory } from '../ops/factory.js';
import { recoverUser, tracedBatchUser, type ChangeArgs, type ChangeType } from './change.js';
import { runBatchCommand, type BatchCommandSpec } from './commands.js';
import type { BatchFlags } from './flags.js';
import type { BatchSummary } from './runner.js';

export async function runChangeBatch<I, P, S, T, A>(
  factory: Factory,
  type: ChangeType<ChangeArgs, object, I, P, S, T, A>,
  input: I,
  spec: string,
  opts: BatchFlags,
): Promise<BatchSummary> {
  const settings = await factory.settings();
  const dryRun = opts.dryRun === true;
  let log: AuditLog | null = null;
  let prepared: P | undefined;
  const description = type.label(input);
  const batch: BatchCommandSpec<unknown> = {
    spec,
    operationName: type.command,
    args: type.journalArgs(input),
    options: opts,
    description,
    idempotent: type.idempotent,
    ...(type.ask ? { askFirst: type.ask.what(input) } : {}),
    describe: async (uid, client) => {
      // What the real run reads first: a user it would fail on fails here.
      await type.read(client, uid, input);
      return type.describe ? type.describe(uid, input) : `${description} of ${uid}`;
    },
    prepare: async (client, sample) => {
      prepared = await type.prepare(client, input, { sample: await sample(), batch: true, dryRun });
      if (!dryRun) log = AuditLog.open(auditLogPath(factory.io.env));
    },
    perUser: (client, uid, ctx) =>
      tracedBatchUser(factory, settings, log!, type, client, uid, input, prepared as P, {
        onBefore: (before) => ctx.started(before),
        onResolved: (how, detail) => ctx.resolved(how, detail),
      }),
    ...(type.judge ? { recover: (client, uid, before) => recoverUser(type, client, uid, input, prepared as P, before) } : {}),
  };
  try {
    return await runBatchCommand(factory, batch);
  } finally {
    (log as AuditLog | null)?.close();
  }
}
