import { tracedSingleAchievement } from '../../../audit/tracked.js';
import { isBatchArg, rejectBatchFlags, type BatchFlags } from '../../../batch/flags.js';
import { dryRunAchievement } from '../../../ops/dry-run.js';
import type { Factory } from '../../../ops/factory.js';
import { confirmMutation } from '../../../ops/safety.js';
import { parseUserBeforeKey, printItem, userLabel } from '../../../ops/args.js';
import { resolveUid } from '../../../ops/users.js';
import { UPDATE_FIELDS, checkReplyFields } from '../../../ops/reply-fields.js';
import { UPDATE_COLUMNS } from './columns.js';
import type { TargetOptions } from './index.js';
import { resetAchievement, resolveAchievementTarget, suggestDeveloperId } from '../../../ops/achievements.js';

export async function run(factory: Factory, args: { uid: string; developerId: string }, opts: TargetOptions & BatchFlags): Promise<void> {
  if (isBatchArg(args.uid)) {
    const { runAchievementBatch } = await import('../../../batch/commands.js');
    await runAchievementBatch(factory, { spec: args.uid, action: 'reset', developerId: args.developerId }, opts);
    return;
  }
  // --dry-run works for one user too; the other batch options need @FILE.
  rejectBatchFlags({ ...opts, dryRun: undefined });
  const user = parseUserBeforeKey(args.uid, args.developerId, 'developer_id', 'achievements reset');
  const printable = checkReplyFields(factory, UPDATE_COLUMNS, UPDATE_FIELDS);
  const settings = await factory.settings();
  const target = resolveAchievementTarget(settings, opts, args.developerId);
  if (opts.dryRun) {
    const client = await factory.client();
    const uid = await resolveUid(client, user);
    await dryRunAchievement(factory, client, uid, target, { action: 'reset' }, (dry) => resetAchievement(dry, uid, target));
    return;
  }
  await confirmMutation(factory, settings, `reset ${target.developerId} of user ${userLabel(user)}`);
  const client = await factory.client();
  const uid = await resolveUid(client, user);
  const out = await factory.output();
  const reply = await out.spin(`Resetting ${target.developerId}`, () =>
    tracedSingleAchievement(factory, settings, client, uid, target, { action: 'reset' }, (c) => resetAchievement(c, uid, target)),
  ).catch(suggestDeveloperId(client, target));
  await printItem(factory, { bodyText: reply.bodyText, payload: printable(reply.payload) }, UPDATE_COLUMNS);
}
