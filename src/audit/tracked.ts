// Over 400 lines: one change's whole trace (state before, send, judge, receipt, audit line), in the order that
// makes it safe.
/**
 * A change that leaves a trace (docs/CLI.md "Safety for support staff"): read the state before,
 * make the change, work out the receipt (what changed, how to undo it) and append the audit
 * line. One trace for every declared change type (src/batch/change.ts): each says how to read
 * its state, send, judge a lost reply and write its receipt; the single-user commands and batch
 * mode both come here.
 */
import type { ApiClient, Reply } from '../client/types.js';
import { UdcliError, markUnchanged, outcomeUnknown, wasNotSent } from '../errors.js';
import { ENVELOPE_VERSION } from '../domain/types.js';
import type { OutcomeJudgement } from '../domain/outcome.js';
import type { Factory } from '../ops/factory.js';
import { printable } from '../printable.js';
import { withoutUserinfo } from '../redact.js';
import type { Settings } from '../config/types.js';
import { auditEntry, type AuditSpec } from './log.js';
import { openTrail, type Trail } from './trail.js';
import type { Receipt } from './receipt.js';
import { MAX_REASON } from '../batch/flags.js';

export interface TraceContext {
  /** For the operator (`$USER`) when none is named. */
  env: NodeJS.ProcessEnv;
  /** The run's named operator (UDCLI_OPERATOR or the profile's): on every line it writes. */
  operator?: string;
  profile: string;
  /** The server's base URL (the audit line keeps it without userinfo). */
  server?: string;
  log: Trail;
  /** The profile's defaults: `--game`/`--type` are written into commands only when they differ. */
  defaults?: { gameId?: string; type?: string };
  /** Flags every undo command carries so it reaches the same server: `--profile`, `--base-url`. */
  target?: string[];
  /** `--reason` and `--ticket` of the run: the receipt and every audit line keep them. */
  why?: { reason?: string; ticket?: string };
}

/** What of the settings decides where an undo must be sent. */
export type TraceSettings = Pick<Settings, 'profile' | 'gameId' | 'type'> &
  Partial<Pick<Settings, 'baseUrl' | 'sources' | 'operator'>>;

/**
 * `--profile NAME` always, and `--base-url URL` (userinfo removed) when the base URL was not the
 * profile's own (a flag or UDCLI_BASE_URL): an undo pasted later, after a `profile use` or in
 * another shell without that variable, must still reach the server the change was made on.
 */
export function targetFlags(settings: TraceSettings): string[] {
  const out: string[] = ['--profile', settings.profile];
  const source = settings.sources?.base_url;
  if ((source === 'flag' || source === 'env') && settings.baseUrl)
    out.push('--base-url', withoutUserinfo(settings.baseUrl));
  return out;
}

/**
 * `--reason 'undo: <reason>' --ticket <ticket>` of a change's undo, as far as the change had
 * them: a profile with require_reason refuses an undo without them, so the line printed must
 * carry them to paste as is. The reason is cut (ending in `…`) to the length --reason takes.
 */
export function undoWhy(why: { reason?: string; ticket?: string } | undefined): string[] {
  const out: string[] = [];
  if (why?.reason !== undefined) {
    const chars = [...`undo: ${why.reason}`];
    out.push('--reason', chars.length <= MAX_REASON ? chars.join('') : `${chars.slice(0, MAX_REASON - 1).join('')}…`);
  }
  if (why?.ticket !== undefined) out.push('--ticket', why.ticket);
  return out;
}

/** The flags every undo command of this trace ends with: where it must go, then why. */
export function undoFlags(ctx: Pick<TraceContext, 'target' | 'why'>): string[] {
  return [...(ctx.target ?? []), ...undoWhy(ctx.why)];
}

/** The trace context of a run: who, which profile, where undo commands must go. */
export function traceContext(
  env: NodeJS.ProcessEnv,
  settings: TraceSettings,
  log: Trail,
  why?: { reason?: string; ticket?: string },
): TraceContext {
  return {
    ...(why && (why.reason !== undefined || why.ticket !== undefined) ? { why } : {}),
    env,
    ...(settings.operator !== undefined ? { operator: settings.operator } : {}),
    profile: settings.profile,
    ...(settings.baseUrl ? { server: settings.baseUrl } : {}),
    log,
    defaults: { ...(settings.gameId !== undefined ? { gameId: settings.gameId } : {}), type: settings.type },
    target: targetFlags(settings),
  };
}

export interface Traced<T> {
  reply: Reply<T>;
  before: unknown;
  after: unknown;
  receipt: Receipt;
}

function server(ctx: TraceContext): { server?: string } {
  return ctx.server !== undefined ? { server: ctx.server } : {};
}

/** What every audit line of a change carries beside its states: who, where, about what, why. */
function lineBase(ctx: TraceContext, spec: Pick<TraceSpec<unknown, unknown>, 'argv' | 'subject' | 'username'>) {
  return {
    env: ctx.env,
    ...(ctx.operator !== undefined ? { operator: ctx.operator } : {}),
    profile: ctx.profile,
    ...server(ctx),
    argv: spec.argv,
    ...(spec.subject !== undefined ? { subject: spec.subject } : {}),
    ...(spec.username !== undefined ? { username: spec.username } : {}),
    ...(ctx.why?.reason !== undefined ? { reason: ctx.why.reason } : {}),
    ...(ctx.why?.ticket !== undefined ? { ticket: ctx.why.ticket } : {}),
  };
}

/**
 * A later read settled a change an earlier run left `unknown` (line `closes`): the line that says
 * so, pointing at the one it closes, so the audit log no longer shows that change as open.
 */
export function auditResolution(
  ctx: TraceContext,
  spec: {
    uid: string;
    argv: string[];
    subject: string;
    username?: string;
    closes: string;
    outcome: 'applied' | 'not-applied';
    detail: string;
    before: unknown;
    after: unknown;
    /** The undo of a change found applied (null: none known). */
    undo?: string | null;
    /** What follows a change found not applied (default: it was sent again). */
    then?: string;
  },
): Promise<string> {
  const change =
    spec.outcome === 'applied'
      ? `outcome of ${spec.closes} settled: it was applied (${spec.detail})`
      : `outcome of ${spec.closes} settled: it was not applied (${spec.detail}); ${spec.then ?? 'sent again'}`;
  return ctx.log.append(
    auditEntry({
      ...lineBase(ctx, spec),
      uid: spec.uid,
      kind: 'resolved',
      closes: spec.closes,
      outcome: spec.outcome,
      before: spec.before,
      after: spec.after,
      change,
      undo: spec.outcome === 'applied' ? (spec.undo ?? null) : null,
    }),
  );
}

/** `--game`/`--type` where they differ from the profile's: what a command line needs to reach the same place. */
export function scopeArgs(ctx: TraceContext, pid: string, type: string | undefined): string[] {
  const out: string[] = [];
  if (pid !== ctx.defaults?.gameId) out.push('--game', pid);
  if (type !== undefined && type !== (ctx.defaults?.type ?? 'Game')) out.push('--type', type);
  return out;
}

/** Thrown when a `set` reached the server but could not change a Completed achievement (exit 1). */
export class CompletedKeptError extends UdcliError {}

/**
 * A change sent whose outcome stays unknown: the error the command reports says so, as the
 * audit line does (an HTML 502 alone reads like a refusal). Returns the message for the audit.
 */
export function sayOutcomeUnknown(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (!/outcome (is )?unknown|cannot be told/.test(err.message))
    err.message = `${err.message}; the change was sent and its outcome is unknown`;
  return err.message;
}

/** The state read before a change: a failure there sent nothing (`failed`, `sent: false`, never unknown). */
async function readBefore<S>(read: () => Promise<S>): Promise<S> {
  try {
    return await read();
  } catch (err) {
    throw markUnchanged(err);
  }
}

/** How a change is made: `perform` sends it through the client it is given. */
export type Perform<T> = (client: ApiClient) => Promise<Reply<T>>;

/**
 * The read before a change, and the change, as few round trips apart as the protocol allows.
 * The read starts at once; the change goes through a gated client that waits for it (and for
 * `keep`, the journal's started record) before sending anything that may change state, so under
 * agi the unsigned challenge request travels beside the read. A client without a gate reads,
 * then changes.
 */
function readThenChange<S, T>(
  client: ApiClient,
  read: () => Promise<S>,
  perform: Perform<T>,
  keep?: (before: S) => Promise<void>,
  sequential = false,
) {
  const before = readBefore(read);
  // Awaited by the gate or below; a change that fails first must not leave it unhandled.
  before.catch(() => {});
  let gate: Promise<void> | undefined;
  const open = (): Promise<void> => (gate ??= before.then((b) => keep?.(b)));
  const changer = sequential ? undefined : client.gated?.(open);
  return {
    send: (): Promise<Reply<T>> => (changer ? perform(changer) : open().then(() => perform(client))),
    /**
     * The state before, once the change is done. `raced`: the server applied the unsigned request
     * at once, without the challenge it had asked for until then, while the read ran: the state
     * read may already hold the change.
     */
    async settled(): Promise<{ before: S | null; raced: boolean }> {
      if (gate) return { before: await before, raced: false };
      try {
        await open();
        return { before: await before, raced: true };
      } catch {
        return { before: null, raced: true };
      }
    },
    /** For the audit line of a change whose outcome is unknown (the read passed the gate). */
    known: (): Promise<S | null> => before.catch(() => null),
  };
}

const RACED_NOTE =
  'the server applied this change without the signature it asked for until then, while the state before was being read: the state before and the undo may already include the change';

/** What a batch (or a single command) hears of a change not safe to repeat. */
export interface ChangeHooks {
  /** The state read before sending, handed over before the change is sent (the journal keeps it). */
  onBefore?(before: unknown): Promise<void>;
  /** The reply was lost and reading the state decided it: applied, or not applied and sent now. */
  onResolved?(how: 'applied' | 'sent', detail: string): void;
}

/** A reply made up from the state read back, for a change found applied after its reply was lost. */
export function replyFromState<T>(payload: T): Reply<T> {
  const envelope = { version: ENVELOPE_VERSION, code: 200, message: 'OK', payload };
  return { payload, envelope, bodyText: JSON.stringify(envelope), httpStatus: 200 };
}

/**
 * After the reply of a change not safe to repeat was lost: one read of the state decides it.
 * Applied → the state read stands in for the reply. Not applied → sent once more (its own lost
 * reply is unknown for good). Anything else → the error, saying what was read.
 */
async function decideLostReply<T, S>(
  err: unknown,
  readNow: () => Promise<S>,
  judge: (now: S) => OutcomeJudgement,
  asReply: (now: S) => T,
  resend: () => Promise<Reply<T>>,
  hooks: ChangeHooks | undefined,
): Promise<Reply<T>> {
  let now: S;
  let judgement: OutcomeJudgement;
  try {
    now = await readNow();
    judgement = judge(now);
  } catch {
    throw err;
  }
  if (judgement.outcome === 'applied') {
    hooks?.onResolved?.('applied', judgement.detail);
    return replyFromState(asReply(now));
  }
  if (judgement.outcome === 'not-applied') {
    hooks?.onResolved?.('sent', judgement.detail);
    return resend().catch((again: unknown) => {
      // The first attempt was sent and found not applied; this one never got through: nothing
      // changed, which the read proves, not the error of the second attempt alone.
      if (!wasNotSent(again)) throw again;
      if (again instanceof Error) {
        again.message = `${again.message.replace(/; nothing was changed$/, '')}; the first attempt was sent, and the state read back shows it was not applied (${judgement.detail}): nothing was changed`;
      }
      throw markUnchanged(again, true);
    });
  }
  if (err instanceof Error)
    err.message = `${err.message}; read back: ${judgement.detail}, so whether it was applied cannot be told`;
  throw err;
}

/** What the trace needs of one change to one user; a change type's declaration fills it in. */
export interface TraceSpec<S, T> {
  uid: string;
  /** The command line the audit line records (without `udcli`). */
  argv: string[];
  /** The change without its user (see AuditEntry.subject). */
  subject?: string;
  /** The username the user was named by, where known. */
  username?: string;
  /** The state the change is about: read before sending, and again to decide a lost reply. */
  read(): Promise<S>;
  perform: Perform<T>;
  /** The state before as the journal keeps it (handed to hooks.onBefore before sending). */
  kept(before: S | null): unknown;
  /**
   * Not safe to repeat: a lost reply is decided by reading the state again, from what `kept`
   * made of the state before. Absent: the lost reply's error stands.
   */
  judge?(before: unknown, now: S): OutcomeJudgement;
  /** Read, then send, one after the other (no gated client): the state decides whether to send. */
  sequential?: boolean;
  /** Refuses on the state before (nothing is sent), e.g. an erase of nothing. */
  check?(before: S): void;
  /** What the audit line keeps of a state (default: the state itself). */
  audited?(state: S | null): unknown;
  /** `sword of 01e5…: take 1 unit`: the audit's words for a change whose outcome is unknown. */
  unknownChange: string;
  /** What the intent keeps to rebuild the change (`udcli audit resolve`). */
  rebuild?: AuditSpec;
  /** The undo the change will need if applied, from the state before alone; null when it cannot say. */
  undoAhead?(before: S | null): string | null;
  /** The receipt, from the state before and the reply, and the state after as the audit keeps it. */
  receipt(before: S | null, reply: Reply<T>): Promise<{ receipt: Receipt; after: unknown }>;
  /** After the audit line: throws when the service took the change and kept the state as it was. */
  afterwards?(before: S | null, after: unknown): void;
}

/** The intent line of a change about to be sent: who, where, what (how to rebuild it), the state before, the undo. */
function intentEntry<S, T>(
  ctx: TraceContext,
  spec: TraceSpec<S, T>,
  base: ReturnType<typeof lineBase>,
  before: S,
  audited: (state: S | null) => unknown,
) {
  let undo: string | null = null;
  try {
    undo = spec.undoAhead?.(before) ?? null;
  } catch {
    // An undo it cannot work out is none: the outcome line says the real one.
  }
  const change = `${spec.unknownChange}: about to be sent`;
  return auditEntry({
    ...base,
    uid: spec.uid,
    kind: 'intent',
    ...(spec.rebuild ? { spec: spec.rebuild } : {}),
    game: ctx.defaults?.gameId ?? null,
    before: audited(before),
    kept: spec.kept(before),
    after: null,
    change,
    undo,
  });
}

/**
 * One change to one user, traced: the state read before, the change, a lost reply decided by
 * reading the state (when the change is not safe to repeat), the receipt and the audit line.
 */
export async function tracedChange<S, T>(
  ctx: TraceContext,
  client: ApiClient,
  spec: TraceSpec<S, T>,
  hooks?: ChangeHooks,
): Promise<Traced<T>> {
  const audited = spec.audited ?? ((state: S | null) => state);
  const base = lineBase(ctx, spec);
  let intent: string | undefined;
  const keep = async (b: S): Promise<void> => {
    spec.check?.(b);
    // Written ahead: the trail holds the change (and how to rebuild and undo it) before it leaves
    // the machine, so a process killed at any moment leaves it unsent or open (`audit --unresolved`).
    intent = await ctx.log.append(intentEntry(ctx, spec, base, b, audited));
    await hooks?.onBefore?.(spec.kept(b));
  };
  const made = readThenChange(client, spec.read, spec.perform, keep, spec.sequential);
  const closes = (): { closes?: string } => (intent !== undefined ? { closes: intent } : {});
  let reply: Reply<T>;
  try {
    reply = await made.send().catch(async (err: unknown) => {
      if (!spec.judge || !outcomeUnknown(err)) throw err;
      const before = spec.kept(await made.known());
      return decideLostReply(
        err,
        spec.read,
        (now) => spec.judge!(before, now),
        (now) => now as unknown as T,
        made.send,
        hooks,
      );
    });
  } catch (err) {
    if (outcomeUnknown(err)) {
      await ctx.log.append(
        auditEntry({
          ...base,
          uid: spec.uid,
          kind: 'unknown',
          ...closes(),
          before: audited(await made.known()),
          after: null,
          change: `${spec.unknownChange} sent, outcome unknown (${sayOutcomeUnknown(err)})`,
          undo: null,
        }),
      );
    } else if (intent !== undefined) {
      // Refused, or never sent: the intent is closed as not applied.
      await ctx.log.append(
        auditEntry({
          ...base,
          uid: spec.uid,
          kind: 'failed',
          ...closes(),
          before: audited(await made.known()),
          after: null,
          change: `${spec.unknownChange} not applied (${err instanceof Error ? err.message : String(err)})`,
          undo: null,
        }),
      );
    }
    throw err;
  }
  const { before, raced } = await made.settled();
  const done = await spec.receipt(before, reply);
  const after = done.after;
  let receipt = done.receipt;
  if (raced) receipt = { ...receipt, note: RACED_NOTE };
  if (ctx.why) receipt = { ...receipt, ...ctx.why };
  await ctx.log.append(
    auditEntry({
      ...base,
      uid: spec.uid,
      kind: 'change',
      ...closes(),
      before: audited(before),
      after,
      change: receipt.change,
      undo: receipt.undo,
    }),
  );
  spec.afterwards?.(before, after);
  return { reply, before, after, receipt };
}

/** The receipt as printed after a single-user change (stderr, two lines); what a server sent is shown escaped. */
export function receiptLines(receipt: Receipt): string[] {
  const lines = [receipt.unchanged ? `No change: ${receipt.change}` : `Changed: ${receipt.change}`];
  lines.push(`Undo:    ${receipt.undo ?? 'none'}`);
  if (receipt.note) lines.push(`Note:    ${receipt.note}`);
  if (receipt.reason !== undefined || receipt.ticket !== undefined) {
    lines.push(
      `Why:     ${[receipt.reason, receipt.ticket !== undefined ? `(ticket ${receipt.ticket})` : undefined].filter(Boolean).join(' ')}`,
    );
  }
  return lines.map(printable);
}

/**
 * For a single-user change: the trace, the line saying how a lost reply was resolved (if one
 * was) and the receipt, printed on stderr; returns the reply to print as before.
 */
export async function tracedSingle<S, T>(
  factory: Pick<Factory, 'io' | 'output'>,
  settings: TraceSettings,
  client: ApiClient,
  spec: (ctx: TraceContext) => TraceSpec<S, T>,
  why?: { reason?: string; ticket?: string },
  /** The trail the caller opened before sending anything (it closes it); else one is opened here. */
  trail?: Trail,
): Promise<Traced<T>> {
  const log = trail ?? (await openTrail(factory.io.env, settings, factory.io));
  try {
    const said = resolutionNote();
    const ctx = traceContext(factory.io.env, settings, log, why);
    const t = await tracedChange(ctx, client, spec(ctx), said.hooks);
    const out = await factory.output();
    for (const line of [...said.lines(), ...receiptLines(t.receipt)]) out.info(line);
    return t;
  } finally {
    if (trail === undefined) await log.close();
  }
}

/** For a single command: the line saying how a lost reply was resolved, if one was. */
function resolutionNote(): { hooks: ChangeHooks; lines(): string[] } {
  let line: string | null = null;
  return {
    hooks: {
      onResolved(how, detail) {
        line =
          how === 'applied'
            ? `Resolved: the reply was lost, and reading the state shows the change was applied (${detail})`
            : `Resolved: the reply was lost, and reading the state showed the change was not applied (${detail}); sent it again`;
      },
    },
    lines: () => (line === null ? [] : [line]),
  };
}
