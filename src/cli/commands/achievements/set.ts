import { tracedSingleAchievement } from '../../../audit/tracked.js';
import { isBatchArg, rejectBatchFlags, type BatchFlags } from '../../../batch/flags.js';
import { dryRunAchievement } from '../../../ops/dry-run.js';
import type { Factory } from '../../../ops/factory.js';
import { confirmMutation } from '../../../ops/safety.js';
import { parseProgress, parseUserBeforeKey, printItem, userLabel } from '../../../ops/args.js';
import { resolveUid } from '../../../ops/users.js';
import { UPDATE_FIELDS, checkReplyFields } from '../../../ops/reply-fields.js';
import { UPDATE_COLUMNS } from './columns.js';
import type { TargetOptions } from './index.js';
import { resolveAchievementTarget, setAchievementProgress, suggestDeveloperId } from '../../../ops/achievements.js';

export async function run(
  factory: Factory,
  args: { uid: string; developerId: string; progress: string },
  opts: TargetOptions & BatchFlags,
): Promise<void> {
  if (isBatchArg(args.uid)) {
    const { runAchievementBatch } = await import('../../../batch/commands.js');
    await runAchievementBatch(factory, { spec: args.uid, action: 'set', developerId: args.developerId, progress: args.progress }, opts);
    return;
  }
  // --dry-run works for one user too; the other batch options need @FILE.
  rejectBatchFlags({ ...opts, dryRun: undefined });
  const user = parseUserBeforeKey(args.uid, args.developerId, 'developer_id', 'achievements set');
  const progress = parseProgress(args.progress);
  const printable = checkReplyFields(factory, UPDATE_COLUMNS, UPDATE_FIELDS);
  const settings = await factory.settings();
  const target = resolveAchievementTarget(settings, opts, args.developerId);
  if (opts.dryRun) {
    const client = await factory.client();
    const uid = await resolveUid(client, user);
    await dryRunAchievement(factory, client, uid, target, { action: 'set', progress }, (dry) => setAchievementProgress(dry, uid, target, progress));
    return;
  }
  await confirmMutation(factory, settings, `set ${target.developerId} of user ${userLabel(user)} to ${args.progress.trim()}`);
  const client = await factory.client();
  const uid = await resolveUid(client, user);
  const out = await factory.output();
  const reply = await out.spin(`Setting ${target.developerId}`, () =>
    tracedSingleAchievement(factory, settings, client, uid, target, { action: 'set', progress, progressText: args.progress.trim() }, (c) =>
      setAchievementProgress(c, uid, target, progress),
    ),
  ).catch(suggestDeveloperId(client, target));
  await printItem(factory, { bodyText: reply.bodyText, payload: printable(reply.payload) }, UPDATE_COLUMNS);
}
