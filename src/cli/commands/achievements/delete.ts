import { tracedSingleAchievement } from '../../../audit/tracked.js';
import { isBatchArg, rejectBatchFlags, type BatchFlags } from '../../../batch/flags.js';
import type { UserAchievement } from '../../../domain/types.js';
import { completedDateOf } from '../../../domain/quests.js';
import { dryRunAchievement } from '../../../ops/dry-run.js';
import type { Factory } from '../../../ops/factory.js';
import { confirmMutation } from '../../../ops/safety.js';
import { parseUserBeforeKey, printItem, userLabel } from '../../../ops/args.js';
import { resolveUid } from '../../../ops/users.js';
import { canAsk, confirmOrRequireYes } from '../../../runtime/prompt.js';
import { USER_ACHIEVEMENT_FIELDS, checkReplyFields } from '../../../ops/reply-fields.js';
import { USER_ACHIEVEMENT_COLUMNS } from './columns.js';
import type { TargetOptions } from './index.js';
import { deleteAchievement, readAchievement, resolveAchievementTarget, suggestDeveloperId } from '../../../ops/achievements.js';

/** What a delete loses, for the question: `1/1 Completed, completed 2024-05-01 10:05:00`. */
export function lossText(record: UserAchievement): string {
  const value = record.target_value === undefined || record.target_value === null ? `${record.current_value}` : `${record.current_value}/${record.target_value}`;
  const completed = completedDateOf(record.completed_date);
  return `${value} ${record.state}${completed ? `, completed ${completed}` : ''}`;
}

export async function run(factory: Factory, args: { uid: string; developerId: string }, opts: TargetOptions & BatchFlags): Promise<void> {
  if (isBatchArg(args.uid)) {
    const { runAchievementBatch } = await import('../../../batch/commands.js');
    await runAchievementBatch(factory, { spec: args.uid, action: 'delete', developerId: args.developerId }, opts);
    return;
  }
  // --dry-run works for one user too; the other batch options need @FILE.
  rejectBatchFlags({ ...opts, dryRun: undefined });
  const user = parseUserBeforeKey(args.uid, args.developerId, 'developer_id', 'achievements delete');
  const printable = checkReplyFields(factory, USER_ACHIEVEMENT_COLUMNS, USER_ACHIEVEMENT_FIELDS);
  const settings = await factory.settings();
  const target = resolveAchievementTarget(settings, opts, args.developerId);
  if (opts.dryRun) {
    const client = await factory.client();
    const uid = await resolveUid(client, user);
    await dryRunAchievement(factory, client, uid, target, { action: 'delete' }, (dry) => deleteAchievement(dry, uid, target));
    return;
  }
  const { yes } = factory.globals();
  const what = `delete achievement ${target.developerId} of user ${userLabel(user)}`;
  // Where udcli cannot ask, it needs --yes before it sends anything, even the read below.
  if (!yes && !canAsk(factory.io)) await confirmOrRequireYes(factory.io, '', { yes, what });
  const client = await factory.client();
  const uid = await resolveUid(client, user);
  const out = await factory.output();
  // Only a record that exists is worth asking about; without one the DELETE answers 404.
  const record = yes ? null : await readAchievement(client, uid, target);
  if (settings.production) {
    // The production check (profile name typed on a terminal, --yes off one) is the stronger ask.
    await confirmMutation(factory, settings, `${what}${record ? ` (${lossText(record)})` : ''}`);
  } else if (record) {
    await confirmOrRequireYes(factory.io, `Delete achievement ${target.developerId} of user ${uid} (${lossText(record)})?`, { yes, what });
  }
  const reply = await out.spin(`Deleting ${target.developerId}`, () =>
    tracedSingleAchievement(factory, settings, client, uid, target, { action: 'delete' }, (c) => deleteAchievement(c, uid, target)),
  ).catch(suggestDeveloperId(client, target));
  out.info(`Deleted achievement ${target.developerId} of user ${uid}; it was:`);
  await printItem(factory, { bodyText: reply.bodyText, payload: printable(reply.payload) }, USER_ACHIEVEMENT_COLUMNS);
}
