import { tracedSingleAchievement } from '../../../audit/tracked.js';
import { isBatchArg, rejectBatchFlags, type BatchFlags } from '../../../batch/flags.js';
import type { Factory } from '../../factory.js';
import { confirmMutation } from '../../safety.js';
import { parseUid, printItem } from '../../args.js';
import { confirm } from '../../prompt.js';
import { USER_ACHIEVEMENT_COLUMNS } from './columns.js';
import type { TargetOptions } from './index.js';
import { deleteAchievement, resolveAchievementTarget } from './operations.js';

export async function run(factory: Factory, args: { uid: string; developerId: string }, opts: TargetOptions & BatchFlags): Promise<void> {
  if (isBatchArg(args.uid)) {
    const { runAchievementBatch } = await import('../../../batch/commands.js');
    await runAchievementBatch(factory, { spec: args.uid, action: 'delete', developerId: args.developerId }, opts);
    return;
  }
  rejectBatchFlags(opts);
  const uid = parseUid(args.uid);
  const settings = await factory.settings();
  const target = resolveAchievementTarget(settings, opts, args.developerId);
  const question = `Delete achievement ${target.developerId} of user ${uid}?`;
  if (settings.production) {
    // The production check (profile name typed on a terminal, --yes off one) is the stronger ask.
    await confirmMutation(factory, settings, `delete ${target.developerId} of user ${uid}`);
  } else {
    // On a terminal, ask before anything is sent; scripts (no TTY) and --yes go ahead.
    await confirm(factory.io, question, { yes: factory.globals().yes });
  }
  const client = await factory.client();
  const out = await factory.output();
  const reply = await out.spin(`Deleting ${target.developerId}`, () =>
    tracedSingleAchievement(factory, settings, client, uid, target, { action: 'delete' }, () => deleteAchievement(client, uid, target)),
  );
  out.info(`Deleted achievement ${target.developerId} of user ${uid}; it was:`);
  await printItem(factory, reply, USER_ACHIEVEMENT_COLUMNS);
}
