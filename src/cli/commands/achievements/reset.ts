import type { Factory } from '../../factory.js';
import { confirmMutation } from '../../safety.js';
import { parseUid, printItem } from '../../args.js';
import { UPDATE_COLUMNS } from './columns.js';
import type { TargetOptions } from './index.js';
import { resetAchievement, resolveAchievementTarget } from './operations.js';

export async function run(factory: Factory, args: { uid: string; developerId: string }, opts: TargetOptions): Promise<void> {
  const uid = parseUid(args.uid);
  const settings = await factory.settings();
  const target = resolveAchievementTarget(settings, opts, args.developerId);
  await confirmMutation(factory, settings, `reset ${target.developerId} of user ${uid}`);
  const client = await factory.client();
  const out = await factory.output();
  const reply = await out.spin(`Resetting ${target.developerId}`, () => resetAchievement(client, uid, target));
  await printItem(factory, reply, UPDATE_COLUMNS);
}
