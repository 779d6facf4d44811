/**
 * One user's change as the audit traces it, shared by the single-user run (change.ts), the
 * batch (change-batch.ts) and `audit resolve`: the trace, the subject, a resume's decision and
 * the undo of a change found applied after the fact.
 */
import type { ApiClient } from '../client/types.js';
import type { Settings } from '../config/types.js';
import type { Trail } from '../audit/trail.js';
import { replyFromState, traceContext, tracedChange, type TraceContext, type TraceSpec } from '../audit/tracked.js';
import type { Factory } from '../ops/factory.js';
import type { ChangeArgs, ChangeRead, ChangeType } from './change-type.js';
import type { Why } from './flags.js';
import type { Recovery } from './runner.js';

/** One user's change: whom, with what input and what the type prepared from it, through which client. */
export interface UserChange<I, P> {
  client: ApiClient;
  uid: string;
  input: I;
  prepared: P;
}

/** The trace of one user's change: the declaration's parts, with the runner's read, send and judge. */
export function traceSpec<I, P, S, T, A>(
  type: ChangeType<ChangeArgs, object, I, P, S, T, A>,
  ctx: TraceContext,
  { client, uid, input, prepared }: UserChange<I, P>,
  auth: A,
  username?: string,
): TraceSpec<S, T> {
  const judge = type.judge;
  const { scope, ...trace } = type.trace(ctx, client, uid, input, prepared, auth);
  return {
    ...trace,
    argv: [...type.command.split(' '), uid, ...type.argv(input, 'typed'), ...scope],
    uid,
    subject: subjectOf(type, input),
    rebuild: { command: type.command, args: type.argv(input, 'journal') },
    ...(username !== undefined ? { username } : {}),
    read: () => type.read(client, uid, input),
    perform: (c) => type.perform(c, uid, input, auth),
    kept: (before) => type.kept(before),
    ...(judge ? { judge: (before: unknown, now: S) => judge(before, now, input, prepared) } : {}),
  };
}

/** The change without its user, as the audit groups it: `products give sword --qty 1 --game 1001 --type Game`. */
export function subjectOf<I>(
  type: Pick<ChangeType<ChangeArgs, object, I, unknown, unknown, unknown, unknown>, 'command' | 'argv'>,
  input: I,
): string {
  return [type.command, ...type.argv(input, 'journal')].join(' ');
}

/** For a batch: the trace of one user inside the batch's audit log, with the journal's hooks. */
export async function tracedBatchUser<I, P, S, T, A>(
  factory: Factory,
  settings: Settings,
  log: Trail,
  type: ChangeType<ChangeArgs, object, I, P, S, T, A>,
  user: UserChange<I, P>,
  hooks: { onBefore(before: unknown): Promise<void>; onResolved(how: 'applied' | 'sent', detail: string): void },
  who: { username?: string; why: Why },
): Promise<unknown> {
  const { client, uid, input } = user;
  const auth = (type.authorize ? await type.authorize(factory, settings, client, uid, input) : undefined) as A;
  const ctx = traceContext(factory.io.env, settings, log, who.why);
  const t = await tracedChange(ctx, client, traceSpec(type, ctx, user, auth, who.username), hooks);
  return { before: t.before, after: t.after, ...t.receipt };
}

/** A resume's decision for an item an earlier run left unknown: read the state, judge it. */
export async function recoverUser<I, P, S>(
  type: ChangeRead<I, P, S>,
  { client, uid, input, prepared }: UserChange<I, P>,
  before: unknown,
): Promise<Recovery<unknown>> {
  const now = await type.read(client, uid, input);
  const judged = type.judge!(before, now, input, prepared);
  return judged.outcome === 'applied'
    ? { outcome: 'applied', detail: judged.detail, result: { before, after: now } }
    : { outcome: judged.outcome, detail: judged.detail };
}

/**
 * The undo of a change found applied after the fact (a resume, `udcli audit resolve`): the
 * receipt the change would have printed, from the state before (as the audit keeps it) and the
 * state read now standing in for the lost reply.
 */
export async function undoOnceApplied<I, P, S, T, A>(
  type: ChangeType<ChangeArgs, object, I, P, S, T, A>,
  ctx: TraceContext,
  { client, uid, input, prepared }: UserChange<I, P>,
  before: unknown,
  now: S,
): Promise<string | null> {
  const trace = type.trace(ctx, client, uid, input, prepared, undefined as A);
  const done = await trace.receipt(before as S | null, replyFromState(now as unknown as T));
  return done.receipt.undo;
}
