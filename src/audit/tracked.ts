/**
 * A change that leaves a trace (cli.md "Safety for support staff"): read the state before,
 * make the change, work out the receipt (what changed, how to undo it) and append the audit
 * line. Shared by the single-user commands and batch mode, for every mutation: `inc`, `set`,
 * `reset`, `delete`, `give` and `take`.
 */
import type { AchievementTarget, ApiClient, ProductTarget, Reply } from '../client/types.js';
import { readAchievement } from '../ops/achievements.js';
import { readProduct } from '../ops/products.js';
import { UdcliError, markUnchanged, outcomeUnknown, wasNotSent } from '../errors.js';
import type { AchievementDefinition, AchievementUpdate, ProductEntry, UserAchievement } from '../domain/types.js';
import { ENVELOPE_VERSION } from '../domain/types.js';
import { achievementState, incrementOutcome, productOutcome, productState, type OutcomeJudgement } from '../domain/outcome.js';
import { amountText, unitsOfChange } from '../domain/packs.js';
import type { Factory } from '../ops/factory.js';
import { printable } from '../printable.js';
import { withoutUserinfo } from '../redact.js';
import type { Settings } from '../config/types.js';
import { AuditLog, auditEntry, auditLogPath } from './log.js';
import { achievementReceipt, productReceipt, progressPercent, shortUid, undoLine, type AchievementAction, type Receipt } from './receipt.js';

export interface TraceContext {
  /** For the operator (`$USER`). */
  env: NodeJS.ProcessEnv;
  profile: string;
  /** The server's base URL (the audit line keeps it without userinfo). */
  server?: string;
  log: AuditLog;
  /** The profile's defaults: `--game`/`--type` are written into commands only when they differ. */
  defaults?: { gameId?: string; type?: string };
  /** Flags every undo command carries so it reaches the same server: `--profile`, `--base-url`. */
  target?: string[];
}

/** What of the settings decides where an undo must be sent. */
export type TraceSettings = Pick<Settings, 'profile' | 'gameId' | 'type'> & Partial<Pick<Settings, 'baseUrl' | 'sources'>>;

/**
 * `--profile NAME` always, and `--base-url URL` (userinfo removed) when the base URL was not the
 * profile's own (a flag or UDCLI_BASE_URL): an undo pasted later, after a `profile use` or in
 * another shell without that variable, must still reach the server the change was made on.
 */
export function targetFlags(settings: TraceSettings): string[] {
  const out: string[] = ['--profile', settings.profile];
  const source = settings.sources?.base_url;
  if ((source === 'flag' || source === 'env') && settings.baseUrl) out.push('--base-url', withoutUserinfo(settings.baseUrl));
  return out;
}

/** The trace context of a run: who, which profile, where undo commands must go. */
export function traceContext(env: NodeJS.ProcessEnv, settings: TraceSettings, log: AuditLog): TraceContext {
  return {
    env,
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

function scopeArgs(ctx: TraceContext, pid: string, type: string | undefined): string[] {
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
  if (!/outcome (is )?unknown|cannot be told/.test(err.message)) err.message = `${err.message}; the change was sent and its outcome is unknown`;
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
function readThenChange<S, T>(client: ApiClient, read: () => Promise<S>, perform: Perform<T>, keep?: (before: S) => Promise<void>) {
  const before = readBefore(read);
  // Awaited by the gate or below; a change that fails first must not leave it unhandled.
  before.catch(() => {});
  let gate: Promise<void> | undefined;
  const open = (): Promise<void> => (gate ??= before.then((b) => keep?.(b)));
  const changer = client.gated?.(open);
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

const RACED_NOTE = 'the server applied this change without the signature it asked for until then, while the state before was being read: the state before and the undo may already include the change';

/** What a batch (or a single command) hears of a change not safe to repeat. */
export interface ChangeHooks {
  /** The state read before sending, handed over before the change is sent (the journal keeps it). */
  onBefore?(before: unknown): Promise<void>;
  /** The reply was lost and reading the state decided it: applied, or not applied and sent now. */
  onResolved?(how: 'applied' | 'sent', detail: string): void;
}

/** A reply made up from the state read back, for a change found applied after its reply was lost. */
function replyFromState<T>(payload: T): Reply<T> {
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
      // The first attempt was sent and found not applied; this one never got through: nothing changed.
      throw wasNotSent(again) ? markUnchanged(again, true) : again;
    });
  }
  if (err instanceof Error) err.message = `${err.message}; read back: ${judgement.detail}, so whether it was applied cannot be told`;
  throw err;
}

export type AchievementChangeSpec =
  | { action: 'inc'; by: number }
  | { action: 'set'; progress: number; /** as typed, e.g. `75%` */ progressText: string }
  | { action: 'reset' }
  | { action: 'delete' };

/** The per-user command line of an achievement change, as recorded in the audit log. */
export function achievementArgv(uid: string, target: AchievementTarget, change: AchievementChangeSpec, scope: string[]): string[] {
  const argv = ['achievements', change.action, uid, target.developerId];
  if (change.action === 'set') argv.push(change.progressText);
  if (change.action === 'inc') argv.push('--by', String(change.by));
  return [...argv, ...scope];
}

export async function tracedAchievementChange<T extends AchievementUpdate | UserAchievement>(
  ctx: TraceContext,
  client: ApiClient,
  uid: string,
  target: AchievementTarget,
  change: AchievementChangeSpec,
  perform: Perform<T>,
  definition?: Pick<AchievementDefinition, 'start_value' | 'target_value'> | null,
  hooks?: ChangeHooks,
): Promise<Traced<T>> {
  const scope = scopeArgs(ctx, target.pid, target.type);
  const argv = achievementArgv(uid, target, change, scope);
  const keep = change.action === 'inc' && hooks?.onBefore ? (b: UserAchievement | null) => hooks.onBefore!(achievementState(b)) : undefined;
  const made = readThenChange(client, () => readAchievement(client, uid, target), perform, keep);
  let reply: Reply<T>;
  try {
    if (change.action === 'inc') {
      const by = change.by;
      reply = await made.send().catch(async (err: unknown) => {
        if (!outcomeUnknown(err)) throw err;
        const before = await made.known();
        return decideLostReply(
          err,
          () => readAchievement(client, uid, target),
          (now) => incrementOutcome(achievementState(before), achievementState(now), by, definition),
          (now) => now as unknown as T,
          made.send,
          hooks,
        );
      });
    } else {
      reply = await made.send();
    }
  } catch (err) {
    if (outcomeUnknown(err)) {
      ctx.log.append(
        auditEntry({ env: ctx.env, profile: ctx.profile, ...server(ctx), argv, uid, before: await made.known(), after: null, change: `${target.developerId} of ${shortUid(uid)}: ${change.action} sent, outcome unknown (${sayOutcomeUnknown(err)})`, undo: null }),
      );
    }
    throw err;
  }
  const { before, raced } = await made.settled();
  const undoScope = [...scope, ...(ctx.target ?? [])];
  let after: unknown = change.action === 'delete' ? null : reply.payload;
  let receipt: Receipt;
  if (change.action === 'reset' && !before) {
    // A reset of a record that does not exist creates it (the contract, from the platform's
    // pages); a platform that answers the start state yet writes nothing is told apart by what
    // is stored afterwards.
    after = await readAchievement(client, uid, target);
    receipt = after
      ? achievementReceipt({ uid, developerId: target.developerId, action: 'reset', before, after: after as UserAchievement, scope: undoScope })
      : { change: `${target.developerId} of ${shortUid(uid)}: no record, nothing to reset`, undo: null, note: 'nothing changed', unchanged: true };
  } else {
    receipt = achievementReceipt({
      uid,
      developerId: target.developerId,
      action: change.action as AchievementAction,
      before,
      after: after as AchievementUpdate | null,
      ...(definition ? { startValue: Number(definition.start_value), targetValue: Number(definition.target_value) } : {}),
      scope: undoScope,
    });
  }
  if (raced) receipt = { ...receipt, note: RACED_NOTE };
  ctx.log.append(auditEntry({ env: ctx.env, profile: ctx.profile, ...server(ctx), argv, uid, before, after, change: receipt.change, undo: receipt.undo }));
  if (change.action === 'set') refuseKeptCompletion(uid, target, change, before, after as AchievementUpdate | null, definition, undoScope);
  return { reply, before, after, receipt };
}

/**
 * A `set` below the current value of a Completed achievement reaches the server and changes
 * nothing (Completed is kept until a reset). Exit 0 would let a script believe the value is
 * now what it asked for: this is the service refusing the change, as a 409 would (exit 1).
 */
function refuseKeptCompletion(
  uid: string,
  target: AchievementTarget,
  change: Extract<AchievementChangeSpec, { action: 'set' }>,
  before: UserAchievement | null,
  after: AchievementUpdate | null,
  definition: Pick<AchievementDefinition, 'start_value' | 'target_value'> | null | undefined,
  scope: readonly string[],
): void {
  if (before?.state !== 'Completed' || after?.state !== 'Completed' || change.progress >= 1) return;
  const was = Number(before.current_value);
  if (Number(after.current_value) !== was) return;
  const start = Number(definition?.start_value ?? 0);
  const targetValue = Number(definition?.target_value ?? before.target_value);
  if (Number.isFinite(targetValue) && start + Math.round(change.progress * (targetValue - start)) === was) return;
  const shown = Number.isFinite(targetValue) ? `${was}/${targetValue}` : String(was);
  throw new CompletedKeptError(
    `nothing changed: ${target.developerId} of ${shortUid(uid)} is Completed (${shown}) and set does not lower a completed achievement`,
    {
      hint: `to lower it, reset it first: ${undoLine(
        [
          ['achievements', 'reset', uid, target.developerId],
          ['achievements', 'set', uid, target.developerId, change.progressText || progressPercent(was, start, targetValue)],
        ],
        scope,
      )}`,
    },
  );
}

export function productArgv(uid: string, target: ProductTarget, action: 'give' | 'take', qty: number, post: boolean, scope: string[]): string[] {
  return ['products', action, uid, target.sku, '--qty', String(qty), ...(post ? ['--post'] : []), ...scope];
}

export async function tracedProductChange(
  ctx: TraceContext,
  client: ApiClient,
  uid: string,
  target: ProductTarget,
  change: { action: 'give' | 'take'; qty: number; post?: boolean },
  perform: Perform<ProductEntry>,
  hooks?: ChangeHooks,
): Promise<Traced<ProductEntry>> {
  const scope = scopeArgs(ctx, target.parentId, target.type);
  const argv = productArgv(uid, target, change.action, change.qty, change.post ?? false, scope);
  const keep = hooks?.onBefore ? (b: ProductEntry | null) => hooks.onBefore!(productState(b)) : undefined;
  const made = readThenChange(client, () => readProduct(client, uid, target), perform, keep);
  // A give naming a pack (`gems:500`) gives qty packs, by PUT or POST; anything else counts qty units.
  const units = unitsOfChange(target.sku, change.qty, change.action);
  let reply: Reply<ProductEntry>;
  try {
    reply = await made.send().catch(async (err: unknown) => {
      if (!outcomeUnknown(err)) throw err;
      const before = await made.known();
      return decideLostReply(
        err,
        () => readProduct(client, uid, target),
        (now) => productOutcome(productState(before), now, change.action, units),
        (now) => now as ProductEntry,
        made.send,
        hooks,
      );
    });
  } catch (err) {
    if (outcomeUnknown(err)) {
      ctx.log.append(
        auditEntry({ env: ctx.env, profile: ctx.profile, ...server(ctx), argv, uid, before: await made.known(), after: null, change: `${target.sku} of ${shortUid(uid)}: ${change.action} ${amountText(target.sku, change.qty, change.action)} sent, outcome unknown (${sayOutcomeUnknown(err)})`, undo: null }),
      );
    }
    throw err;
  }
  const { before, raced } = await made.settled();
  let receipt = productReceipt({ uid, sku: target.sku, action: change.action, qty: units, amount: amountText(target.sku, change.qty, change.action), before, after: reply.payload, scope: [...scope, ...(ctx.target ?? [])] });
  if (raced) receipt = { ...receipt, note: RACED_NOTE };
  ctx.log.append(auditEntry({ env: ctx.env, profile: ctx.profile, ...server(ctx), argv, uid, before, after: reply.payload, change: receipt.change, undo: receipt.undo }));
  return { reply, before, after: reply.payload, receipt };
}

/** The receipt as printed after a single-user change (stderr, two lines); what a server sent is shown escaped. */
export function receiptLines(receipt: Receipt): string[] {
  const lines = [receipt.unchanged ? `No change: ${receipt.change}` : `Changed: ${receipt.change}`];
  lines.push(`Undo:    ${receipt.undo ?? 'none'}`);
  if (receipt.note) lines.push(`Note:    ${receipt.note}`);
  return lines.map(printable);
}

/**
 * For a single-user achievement change: reads the state before (and the
 * definition, for an exact undo), makes the change, appends the audit line, prints the receipt
 * on stderr, and returns the reply to print as before.
 */
export async function tracedSingleAchievement<T extends AchievementUpdate | UserAchievement>(
  factory: Pick<Factory, 'io' | 'output'>,
  settings: TraceSettings,
  client: ApiClient,
  uid: string,
  target: AchievementTarget,
  change: AchievementChangeSpec,
  perform: Perform<T>,
): Promise<Reply<T>> {
  let definition: AchievementDefinition | null = null;
  if (change.action !== 'reset') {
    const defs = await client.listAchievementDefinitions(target.pid, { type: target.type, developerId: target.developerId });
    definition = (defs.payload ?? []).find((d) => d.developer_id === target.developerId) ?? null;
  }
  const log = AuditLog.open(auditLogPath(factory.io.env));
  try {
    const said = resolutionNote();
    const t = await tracedAchievementChange(singleContext(factory, settings, log), client, uid, target, change, perform, definition, said.hooks);
    const out = await factory.output();
    for (const line of [...said.lines(), ...receiptLines(t.receipt)]) out.info(line);
    return t.reply;
  } finally {
    log.close();
  }
}

/** For the single-user `give` and `take` handlers: as tracedSingleAchievement. */
export async function tracedSingleProduct(
  factory: Pick<Factory, 'io' | 'output'>,
  settings: TraceSettings,
  client: ApiClient,
  uid: string,
  target: ProductTarget,
  change: { action: 'give' | 'take'; qty: number; post?: boolean },
  perform: Perform<ProductEntry>,
): Promise<Reply<ProductEntry>> {
  const log = AuditLog.open(auditLogPath(factory.io.env));
  try {
    const said = resolutionNote();
    const t = await tracedProductChange(singleContext(factory, settings, log), client, uid, target, change, perform, said.hooks);
    const out = await factory.output();
    for (const line of [...said.lines(), ...receiptLines(t.receipt)]) out.info(line);
    return t.reply;
  } finally {
    log.close();
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

function singleContext(factory: Pick<Factory, 'io'>, settings: TraceSettings, log: AuditLog): TraceContext {
  return traceContext(factory.io.env, settings, log);
}
