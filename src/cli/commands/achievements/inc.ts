import { isBatchArg, rejectBatchFlags, type BatchFlags } from '../../../batch/flags.js';
import type { Factory } from '../../factory.js';
import { confirmMutation } from '../../safety.js';
import { parseInteger, parseUid, printItem } from '../../args.js';
import { UPDATE_COLUMNS } from './columns.js';
import type { IncOptions } from './index.js';
import { incrementAchievement, resolveAchievementTarget } from './operations.js';

export async function run(factory: Factory, args: { uid: string; developerId: string }, opts: IncOptions & BatchFlags): Promise<void> {
  if (isBatchArg(args.uid)) {
    const { runAchievementBatch } = await import('../../../batch/commands.js');
    await runAchievementBatch(factory, { spec: args.uid, action: 'inc', developerId: args.developerId }, opts);
    return;
  }
  rejectBatchFlags(opts);
  const uid = parseUid(args.uid);
  const by = parseInteger(opts.by ?? '1', '--by', { min: 1 });
  const settings = await factory.settings();
  const target = resolveAchievementTarget(settings, opts, args.developerId);
  await confirmMutation(factory, settings, `increment ${target.developerId} of user ${uid} by ${by}`);
  const client = await factory.client();
  const out = await factory.output();
  const reply = await out.spin(`Incrementing ${target.developerId}`, () => incrementAchievement(client, uid, target, by));
  await printItem(factory, reply, UPDATE_COLUMNS);
}
