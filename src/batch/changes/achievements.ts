/**
 * What every achievement change (inc, set, reset, delete) shares, for the change runner
 * (src/batch/change.ts): its target and state, the definition read once, the audit command,
 * the receipt, the dry run's expectation, the columns. Each verb file adds what is its own.
 */
import { CompletedKeptError, scopeArgs, undoFlags } from '../../audit/tracked.js';
import { achievementReceipt, progressPercent, shortUid, undoLine, type Receipt } from '../../audit/receipt.js';
import type { ChangeType } from '../change-type.js';
import type { AchievementTarget, ApiClient, Reply } from '../../client/types.js';
import { achievementState, type AchievementState, type OutcomeJudgement } from '../../domain/outcome.js';
import { completedDateOf, isState } from '../../domain/quests.js';
import type { AchievementDefinition, AchievementUpdate, UserAchievement } from '../../domain/types.js';
import { readAchievement, resolveAchievementTarget, suggestDeveloperId } from '../../ops/achievements.js';
import { printItem, type ScopeOptions as TargetOptions } from '../../ops/args.js';
import type { Factory } from '../../ops/factory.js';
import { UPDATE_FIELDS, USER_ACHIEVEMENT_FIELDS, checkReplyFields } from '../../ops/reply-fields.js';
import { UPDATE_COLUMNS, USER_ACHIEVEMENT_COLUMNS } from '../../ops/columns/achievements.js';

/**
 * What one verb changes, beside the achievement: `{ action: 'inc', by: 2 }`. Open: a new verb
 * brings its own shape in its declaration (src/cli/changes/achievements-<verb>.ts).
 */
export interface AchievementChangeSpec {
  action: string;
}

export interface AchievementInput<C extends AchievementChangeSpec = AchievementChangeSpec> {
  target: AchievementTarget;
  change: C;
}

/** The definition's bounds (for an exact undo, the dry run's numbers and a lost increment's judgement). */
export type Definition = Pick<AchievementDefinition, 'start_value' | 'target_value'> | null;

type AchievementChange<Args extends { uid: string; developerId: string }, C extends AchievementChangeSpec> = ChangeType<
  Args,
  TargetOptions,
  AchievementInput<C>,
  Definition,
  UserAchievement | null,
  AchievementUpdate | UserAchievement
>;

/** What one verb adds to the shared achievement change. */
export interface AchievementVerb<
  Args extends { uid: string; developerId: string },
  Opts extends TargetOptions,
  C extends AchievementChangeSpec,
> {
  action: C['action'];
  idempotent: boolean;
  /** The reply is the record as it was, and nothing is left after (delete). */
  deletes?: boolean;
  /** The verb's own arguments and options: `--by`, the progress. */
  change(args: Args, opts: Opts): C;
  /**
   * The verb's own words of its command line after the developer_id (`--by 2`, `75%`): the
   * journal's (what decides the run) or the audit line's and hints' (as typed).
   */
  argv(change: C, form: 'journal' | 'typed'): string[];
  confirm(input: AchievementInput<C>, who: string): string;
  label(input: AchievementInput<C>): string;
  spin(developerId: string): string;
  perform(
    client: ApiClient,
    uid: string,
    target: AchievementTarget,
    change: C,
  ): Promise<Reply<AchievementUpdate | UserAchievement>>;
  /** Not idempotent: a lost reply decided from the state kept before and the state now. */
  judge?(
    before: AchievementState | null,
    now: AchievementState | null,
    change: C,
    definition: Definition,
  ): OutcomeJudgement;
  /** The dry run: the value after, from the value now and the definition's start and target. */
  next?(now: number, start: number, goal: number, change: C): number;
  /** Asks first on a terminal, showing what would be lost (delete). */
  ask?: AchievementChange<Args, C>['ask'];
  /** A check of the reply once it is in (set: a Completed achievement kept its value). */
  afterwards?(
    uid: string,
    target: AchievementTarget,
    change: C,
    before: UserAchievement | null,
    after: AchievementUpdate | null,
    definition: Definition,
    scope: readonly string[],
  ): void;
}

/** What a delete loses, for the question: `1/1 Completed, completed 2024-05-01 10:05:00`. */
export function lossText(record: UserAchievement): string {
  const value =
    record.target_value === undefined || record.target_value === null
      ? `${record.current_value}`
      : `${record.current_value}/${record.target_value}`;
  const completed = completedDateOf(record.completed_date);
  return `${value} ${record.state}${completed ? `, completed ${completed}` : ''}`;
}

export function achievementChange<
  Args extends { uid: string; developerId: string },
  Opts extends TargetOptions,
  C extends AchievementChangeSpec,
>(verb: AchievementVerb<Args, Opts, C>): AchievementChange<Args, C> {
  const deleting = verb.deletes === true;
  const judge = verb.judge;
  const afterwards = verb.afterwards;
  return {
    command: `achievements ${verb.action}`,
    key: { name: 'developer_id', of: (args) => args.developerId },
    idempotent: verb.idempotent,
    async parse(factory: Factory, args: Args, opts: Opts) {
      const change = verb.change(args, opts);
      const settings = await factory.settings();
      return { target: resolveAchievementTarget(settings, opts, args.developerId), change };
    },
    argv: ({ target, change }, form) => [
      target.developerId,
      ...verb.argv(change, form),
      ...(form === 'journal' ? ['--game', target.pid, '--type', target.type] : []),
    ],
    // Read once for every user: a quest that does not exist is the command's 404 (exit 4), dry or not.
    async prepare(client, { target }, how) {
      // One reset needs no definition (its undo is exact without one): none is read for it.
      if (verb.action === 'reset' && !how.batch && !how.dryRun) return null;
      const defs = await client.listAchievementDefinitions(target.pid, {
        type: target.type,
        developerId: target.developerId,
      });
      return (defs.payload ?? []).find((d) => d.developer_id === target.developerId) ?? null;
    },
    confirm: verb.confirm,
    label: verb.label,
    ...(verb.ask ? { ask: verb.ask } : {}),
    spin: ({ target }) => verb.spin(target.developerId),
    read: (client, uid, { target }) => readAchievement(client, uid, target),
    perform: (client, uid, { target, change }) => verb.perform(client, uid, target, change),
    kept: (before) => achievementState(before),
    ...(judge
      ? {
          judge: (
            before: unknown,
            now: UserAchievement | null,
            { change }: AchievementInput<C>,
            definition: Definition,
          ) => judge(before as AchievementState | null, achievementState(now), change, definition),
        }
      : {}),
    trace(ctx, client, uid, { target, change }, definition) {
      const scope = scopeArgs(ctx, target.pid, target.type);
      const undoScope = [...scope, ...undoFlags(ctx)];
      // The hint of a `set` that changed nothing is the operator's own change, not an undo: no `undo:` reason.
      const hintScope = [...scope, ...(ctx.target ?? [])];
      return {
        scope,
        unknownChange: `${target.developerId} of ${shortUid(uid)}: ${change.action}`,
        async receipt(before, reply) {
          let after: unknown = deleting ? null : reply.payload;
          let receipt: Receipt;
          if (change.action === 'reset' && !before) {
            // A reset of a record that does not exist creates it (the contract, from the platform's
            // pages); a platform that answers the start state yet writes nothing is told apart by what
            // is stored afterwards.
            after = await readAchievement(client, uid, target);
            receipt = after
              ? achievementReceipt({
                  uid,
                  developerId: target.developerId,
                  action: 'reset',
                  before,
                  after: after as UserAchievement,
                  scope: undoScope,
                })
              : {
                  change: `${target.developerId} of ${shortUid(uid)}: no record, nothing to reset`,
                  undo: null,
                  note: 'nothing changed',
                  unchanged: true,
                };
          } else {
            receipt = achievementReceipt({
              uid,
              developerId: target.developerId,
              action: change.action,
              before,
              after: after as AchievementUpdate | null,
              ...(definition
                ? { startValue: Number(definition.start_value), targetValue: Number(definition.target_value) }
                : {}),
              scope: undoScope,
            });
          }
          return { receipt, after };
        },
        ...(afterwards
          ? {
              afterwards: (before: UserAchievement | null, after: unknown) =>
                afterwards(uid, target, change, before, after as AchievementUpdate | null, definition, hintScope),
            }
          : {}),
      };
    },
    expected: (uid, { target, change }, before, def) => expectedText(uid, target, change, before, def, verb.next),
    describe: (uid, input) => `${verb.label(input)} of ${uid} (${input.target.type} ${input.target.pid})`,
    suggest: (client, _uid, { target }) => suggestDeveloperId(client, target),
    printer(factory) {
      if (deleting) {
        const printable = checkReplyFields(factory, USER_ACHIEVEMENT_COLUMNS, USER_ACHIEVEMENT_FIELDS);
        return async (reply, { target }, uid) => {
          (await factory.output()).info(`Deleted achievement ${target.developerId} of user ${uid}; it was:`);
          await printItem(
            factory,
            { bodyText: reply.bodyText, payload: printable(reply.payload as UserAchievement) },
            USER_ACHIEVEMENT_COLUMNS,
          );
        };
      }
      const printable = checkReplyFields(factory, UPDATE_COLUMNS, UPDATE_FIELDS);
      return (reply) =>
        printItem(
          factory,
          { bodyText: reply.bodyText, payload: printable(reply.payload as AchievementUpdate) },
          UPDATE_COLUMNS,
        );
    },
  };
}

/** The dry run's expectation: `FIRST_WIN of 01e5…: 3/10 In Progress → 5/10 In Progress`. */
function expectedText<C extends AchievementChangeSpec>(
  uid: string,
  target: AchievementTarget,
  change: C,
  before: UserAchievement | null,
  def: Definition,
  nextOf: ((now: number, start: number, goal: number, change: C) => number) | undefined,
): string {
  const start = Number(def?.start_value ?? 0);
  const goal = Number(def?.target_value ?? before?.target_value ?? NaN);
  const now = before ? Number(before.current_value) : start;
  const shown = (v: number) => (Number.isFinite(goal) ? `${v}/${goal}` : String(v));
  const was = before ? `${shown(now)} ${before.state}` : '(none)';
  let next: string;
  if (!nextOf) next = '(deleted)';
  else if (isState(before?.state, 'Revoked'))
    return `refused (409): ${target.developerId} of ${shortUid(uid)} is Revoked and takes no progress; nothing would change`;
  else {
    const value = nextOf(now, start, goal, change);
    const capped = Number.isFinite(goal) ? Math.min(goal, value) : value;
    // Completed is kept through set and inc; only a reset brings it down.
    const kept = before?.state === 'Completed' && change.action !== 'reset';
    next = kept
      ? `${shown(Math.max(now, capped))} Completed`
      : `${shown(capped)} ${Number.isFinite(goal) && capped >= goal ? 'Completed' : 'In Progress'}`;
  }
  return `${target.developerId} of ${shortUid(uid)}: ${was} → ${next}`;
}

/**
 * A `set` below the current value of a Completed achievement reaches the server and changes
 * nothing (Completed is kept until a reset). Exit 0 would let a script believe the value is
 * now what it asked for: this is the service refusing the change, as a 409 would (exit 1).
 */
export function refuseKeptCompletion(
  uid: string,
  target: AchievementTarget,
  change: { progress: number; progressText: string },
  before: UserAchievement | null,
  after: AchievementUpdate | null,
  definition: Definition,
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
          [
            'achievements',
            'set',
            uid,
            target.developerId,
            change.progressText || progressPercent(was, start, targetValue),
          ],
        ],
        scope,
      )}`,
    },
  );
}
