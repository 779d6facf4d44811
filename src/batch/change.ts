/**
 * The change runner: every change type is declared once, as a ChangeType loaded by its
 * declaration (src/cli/changes/<noun>-<verb>.ts, src/cli/change-registry.ts); runChange gives
 * each one the single-user command, `@FILE` batches with the journal, `--dry-run`, the
 * confirmation, the checks made before anything is sent, the audit trace and the receipt.
 */
import type { ApiClient, Reply } from '../client/types.js';
import type { Settings } from '../config/types.js';
import type { OutcomeJudgement } from '../domain/outcome.js';
import type { Trail } from '../audit/trail.js';
import {
  replyFromState,
  traceContext,
  tracedChange,
  tracedSingle,
  type TraceContext,
  type TraceSpec,
} from '../audit/tracked.js';
import { openTrail } from '../audit/trail.js';
import { parseUserArg, rejectSwapped, userLabel } from '../ops/args.js';
import { printDryRun, requestOf } from '../ops/dry-run.js';
import type { Factory } from '../ops/factory.js';
import { confirmMutation, sandboxBanner, sandboxReceipt } from '../ops/safety.js';
import { gateChange } from './policy-gate.js';
import { redactUrl } from '../redact.js';
import { resolveUid } from '../ops/users.js';
import { canAsk, confirmOrRequireYes } from '../runtime/prompt.js';
import { isBatchArg, parseWhy, rejectBatchFlags, type BatchFlags, type Why, type WhyFlags } from './flags.js';
import type { BatchSummary, Recovery } from './runner.js';

/** The arguments of a change command: `<user>` first, then its own (developer_id, sku, key, progress, value). */
export interface ChangeArgs {
  uid: string;
}

/** What a change type adds to its trace: the scope of its audit line, and the rest. */
export type ChangeTrace<S, T> = Omit<
  TraceSpec<S, T>,
  'uid' | 'argv' | 'read' | 'perform' | 'kept' | 'judge' | 'rebuild'
> & {
  scope: readonly string[];
};

/** Parse: the command as typed, its input, and the words that name the change. */
export interface ChangeParse<Args extends ChangeArgs, Opts extends object, I> {
  /** `achievements inc`: the command as typed, the journal's operation. */
  command: string;
  /** The argument after `<user>` (developer_id, sku, key), for the swapped-argument hint. */
  key: { name: string; of(args: Args): string };
  /**
   * argv and options → what to do (`who`: the user as typed, or the batch's @FILE). Throws UsageError; nothing is sent.
   */
  parse(factory: Factory, args: Args, opts: Opts, who: string): Promise<I> | I;
  /**
   * The change's words after `<user>`, spelled once for every place that names it: `journal`,
   * what decides the change for each user with its game (the journal's command, the audit's
   * subject: a rerun must be the same command); `typed`, as the audit line shows it (the trace
   * adds its scope).
   */
  argv(input: I, form: 'journal' | 'typed'): string[];
  /** What the confirmation of one user's change names: `increment FIRST_WIN of user alice by 2`. */
  confirm(input: I, who: string): string;
  /** The change without its user, for a batch: `increment FIRST_WIN by 2` (" for every user in FILE" is added). */
  label(input: I): string;
  /**
   * Asks y/N on a terminal outside production too, showing what would be lost (delete, erase);
   * where it cannot ask it needs --yes before anything is sent, even the read of what would be lost.
   */
  ask?: ChangeAsk<I, unknown>;
}

/** The question of a change that asks first, and what the current state `S` would lose. */
export interface ChangeAsk<I, S> {
  /** `Delete achievement FIRST_WIN`: the question's start. */
  what(input: I): string;
  /** What the current state would lose, or null when there is nothing to lose. */
  loss(current: S): string | null;
  /** Nothing to lose is the service's error (erase): say it without sending the change. */
  absent?(uid: string, input: I): Error;
}

/** Read: the checks every user shares, and the state of one user the change is about. */
export interface ChangeRead<I, P, S> {
  /**
   * The checks every user shares, made once before the first one, in a real run and a dry run
   * alike (the quest exists, the sku exists): a failure here is the whole command's, with its
   * exit code, before anything is sent. `sample` is a user to read through (the first of a batch).
   */
  prepare(client: ApiClient, input: I, how: { sample: string | null; batch: boolean; dryRun: boolean }): Promise<P>;
  /** The state of one user the change is about: read before it, to decide a lost reply, for a dry run. */
  read(client: ApiClient, uid: string, input: I): Promise<S>;
  /** The state before as the journal keeps it (for a resume's decision). */
  kept(before: S | null): unknown;
  /** Not idempotent: did the change happen, from the state kept before and the state now? */
  judge?(before: unknown, now: S, input: I, prepared: P): OutcomeJudgement;
}

/** Send: what one user needs, the request, and its trace (audit line, receipt, undo). */
export interface ChangeSend<I, P, S, T, A> {
  /**
   * Safe to repeat once it may have reached the server (set, reset, delete): a lost reply is not decided by reading.
   */
  idempotent: boolean;
  /** What one user needs before the change (the player's auth token); after the confirmation. */
  authorize?(factory: Factory, settings: Settings, client: ApiClient, uid: string, input: I): Promise<A>;
  /** Sends the change through `client` (a dry run hands a client that captures the request, and no `auth`). */
  perform(client: ApiClient, uid: string, input: I, auth: A): Promise<Reply<T>>;
  /**
   * The rest of the trace: the flags that place the audit line's command (`--game 1002`), the
   * receipt and undo, the state the audit keeps.
   */
  trace(ctx: TraceContext, client: ApiClient, uid: string, input: I, prepared: P, auth: A): ChangeTrace<S, T>;
  /** A 404 of the change with the closest known name as a hint. */
  suggest?(client: ApiClient, uid: string, input: I): (error: unknown) => Promise<never>;
}

/** Present: the spinner, the dry run's words, and how a single user's reply is printed. */
export interface ChangePresent<I, P, S, T> {
  /** The spinner's words while the change is sent. */
  spin(input: I): string;
  /** `--dry-run`: what this user's change is expected to do, from the state read now. */
  expected?(uid: string, input: I, before: S, prepared: P): string;
  /** `--dry-run` of a batch: the line for one user. */
  describe?(uid: string, input: I): string;
  /**
   * How the reply of a single-user change is printed (its columns); made before anything is
   * sent, so a wrong --fields is refused first.
   */
  printer(factory: Factory): (reply: Reply<T>, input: I, uid: string) => Promise<void>;
}

/**
 * One change type, declared once, in four parts. `I` is the typed input (argv and options
 * checked), `P` what is read once for every user (a quest's definition), `S` the state of one
 * user the change is about, `T` the service's reply, `A` what one user needs besides (the
 * player's auth token).
 */
export interface ChangeType<Args extends ChangeArgs, Opts extends object, I, P, S, T, A = undefined>
  extends ChangeParse<Args, Opts, I>,
    ChangeRead<I, P, S>,
    ChangeSend<I, P, S, T, A>,
    ChangePresent<I, P, S, T> {
  ask?: ChangeAsk<I, S>;
}

/**
 * The action handler of every change command: `@FILE`/`@-` in place of `<user>` runs a batch,
 * anything else one user (`--dry-run` works for both). Returns the batch's summary.
 */
export async function runChange<Args extends ChangeArgs, Opts extends object, I, P, S, T, A>(
  factory: Factory,
  type: ChangeType<Args, Opts, I, P, S, T, A>,
  args: Args,
  opts: Opts & BatchFlags & WhyFlags,
): Promise<BatchSummary | undefined> {
  // First: a swap explains what would fail next (the batch options, the user's form).
  if (!isBatchArg(args.uid)) rejectSwapped(args.uid, type.key.of(args), type.key.name, type.command, true);
  if (isBatchArg(args.uid)) {
    const input = await type.parse(factory, args, opts, args.uid);
    const why = await whyOf(factory, opts, opts.dryRun === true);
    const { runChangeBatch } = await import('./change-batch.js');
    return runChangeBatch(factory, type, input, args.uid, opts, why);
  }
  // --dry-run works for one user too; the other batch options need @FILE.
  rejectBatchFlags({ ...opts, dryRun: undefined });
  const user = parseUserArg(args.uid, 'uid', type.command);
  const input = await type.parse(factory, args, opts, userLabel(user));
  const print = type.printer(factory);
  const settings = await factory.settings();
  const why = await whyOf(factory, opts, opts.dryRun === true);
  if (opts.dryRun) {
    const client = await factory.client();
    const uid = await resolveUid(client, user);
    const prepared = await type.prepare(client, input, { sample: uid, batch: false, dryRun: true });
    await dryRun(factory, type, client, uid, input, prepared);
    return undefined;
  }
  const who = `user ${userLabel(user)}`;
  const what = type.confirm(input, who);
  // The team's operator and bounds, before anyone is asked anything or anything is sent.
  gateChange(factory, settings, type, input, why);
  sandboxBanner(factory, settings, what);
  const { yes } = factory.globals();
  // Where udcli cannot ask, it needs --yes before it sends anything, even the read below.
  if (type.ask && !yes && !canAsk(factory.io)) await confirmOrRequireYes(factory.io, '', { yes, what });
  if (!type.ask) await confirmMutation(factory, settings, `${what}${onTarget(settings)}`);
  // Before anything is sent, even the reads: a trail that cannot be written stops the change here.
  const trail = await openTrail(factory.io.env, settings, factory.io);
  try {
    const client = await factory.client();
    const uid = await resolveUid(client, user);
    if (type.ask) await askFirst(factory, settings, type, client, uid, input, what);
    const auth = (type.authorize ? await type.authorize(factory, settings, client, uid, input) : undefined) as A;
    const out = await factory.output();
    let traced = out.spin(type.spin(input), async () => {
      const prepared = await type.prepare(client, input, { sample: uid, batch: false, dryRun: false });
      return tracedSingle(
        factory,
        settings,
        client,
        (ctx) =>
          traceSpec(type, ctx, client, uid, input, prepared, auth, 'username' in user ? user.username : undefined),
        why,
        trail,
      );
    });
    if (type.suggest) traced = traced.catch(type.suggest(client, uid, input));
    const { reply } = await traced;
    await print(reply, input, uid);
    sandboxReceipt(factory, settings);
  } finally {
    await trail.close();
  }
  return undefined;
}

/**
 * `--reason`/`--ticket`, checked before anything is sent; a profile with require_reason refuses
 * a change without them (a dry run changes nothing and needs none).
 */
async function whyOf(factory: Factory, opts: WhyFlags, dryRun: boolean): Promise<Why> {
  const settings = await factory.settings();
  return parseWhy(opts, settings.requireReason && !dryRun ? { profile: settings.profile } : null);
}

/** ` on prod (https://api.example.com)`: where a production change goes, the URL without userinfo. */
function onTarget(settings: Pick<Settings, 'profile' | 'baseUrl'>): string {
  return ` on ${settings.profile} (${redactUrl(settings.baseUrl)})`;
}

/** Only a state that exists is worth asking about: the production check is the stronger ask. */
async function askFirst<I, S>(
  factory: Factory,
  settings: Settings,
  type: { ask?: ChangeAsk<I, S> } & Pick<ChangeRead<I, unknown, S>, 'read'>,
  client: ApiClient,
  uid: string,
  input: I,
  what: string,
): Promise<void> {
  const ask = type.ask!;
  const { yes } = factory.globals();
  const loss = yes ? null : ask.loss(await type.read(client, uid, input));
  if (!yes && loss === null && ask.absent) throw ask.absent(uid, input);
  if (settings.production)
    await confirmMutation(factory, settings, `${what}${loss !== null ? ` (${loss})` : ''}${onTarget(settings)}`);
  else if (loss !== null)
    await confirmOrRequireYes(factory.io, `${ask.what(input)} of user ${uid} (${loss})?`, { yes, what });
}

/** The trace of one user's change: the declaration's parts, with the runner's read, send and judge. */
export function traceSpec<I, P, S, T, A>(
  type: ChangeType<ChangeArgs, object, I, P, S, T, A>,
  ctx: TraceContext,
  client: ApiClient,
  uid: string,
  input: I,
  prepared: P,
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

/** One user's dry run: the request the change would send, and what it is expected to do from the state read now. */
async function dryRun<I, P, S, T, A>(
  factory: Factory,
  type: ChangeType<ChangeArgs, object, I, P, S, T, A>,
  client: ApiClient,
  uid: string,
  input: I,
  prepared: P,
): Promise<void> {
  const request = await requestOf(client, (dry) => type.perform(dry, uid, input, undefined as A));
  const before = await type.read(client, uid, input);
  await printDryRun(
    factory,
    request,
    type.expected ? type.expected(uid, input, before, prepared) : (type.describe?.(uid, input) ?? type.command),
  );
}

/** For a batch: the trace of one user inside the batch's audit log, with the journal's hooks. */
export async function tracedBatchUser<I, P, S, T, A>(
  factory: Factory,
  settings: Settings,
  log: Trail,
  type: ChangeType<ChangeArgs, object, I, P, S, T, A>,
  client: ApiClient,
  uid: string,
  input: I,
  prepared: P,
  hooks: { onBefore(before: unknown): Promise<void>; onResolved(how: 'applied' | 'sent', detail: string): void },
  who: { username?: string; why: Why },
): Promise<unknown> {
  const auth = (type.authorize ? await type.authorize(factory, settings, client, uid, input) : undefined) as A;
  const ctx = traceContext(factory.io.env, settings, log, who.why);
  const t = await tracedChange(
    ctx,
    client,
    traceSpec(type, ctx, client, uid, input, prepared, auth, who.username),
    hooks,
  );
  return { before: t.before, after: t.after, ...t.receipt };
}

/** A resume's decision for an item an earlier run left unknown: read the state, judge it. */
export async function recoverUser<I, P, S>(
  type: ChangeRead<I, P, S>,
  client: ApiClient,
  uid: string,
  input: I,
  prepared: P,
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
  client: ApiClient,
  uid: string,
  input: I,
  prepared: P,
  before: unknown,
  now: S,
): Promise<string | null> {
  const trace = type.trace(ctx, client, uid, input, prepared, undefined as A);
  const done = await trace.receipt(before as S | null, replyFromState(now as unknown as T));
  return done.receipt.undo;
}
