/**
 * What a change type is: the four parts every change declares (parse, read, send, present),
 * read by the runner (change.ts), the batch (change-batch.ts) and `audit resolve`. Types only,
 * so each of them imports it without importing another.
 */
import type { ApiClient, Reply } from '../client/types.js';
import type { Settings } from '../config/types.js';
import type { OutcomeJudgement } from '../domain/outcome.js';
import type { TraceContext, TraceSpec } from '../audit/tracked.js';
import type { Factory } from '../ops/factory.js';
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
