import type { Factory } from '../../factory.js';
import { confirmMutation } from '../../safety.js';
import { parseProgress, parseUid, printItem } from '../../args.js';
import { UPDATE_COLUMNS } from './columns.js';
import type { TargetOptions } from './index.js';
import { resolveAchievementTarget, setAchievementProgress } from './operations.js';

export async function run(
  factory: Factory,
  args: { uid: string; developerId: string; progress: string },
  opts: TargetOptions,
): Promise<void> {
  const uid = parseUid(args.uid);
  const progress = parseProgress(args.progress);
  const settings = await factory.settings();
  const target = resolveAchievementTarget(settings, opts, args.developerId);
  await confirmMutation(factory, settings, `set ${target.developerId} of user ${uid} to ${args.progress.trim()}`);
  const client = await factory.client();
  const out = await factory.output();
  const reply = await out.spin(`Setting ${target.developerId}`, () => setAchievementProgress(client, uid, target, progress));
  await printItem(factory, reply, UPDATE_COLUMNS);
}
