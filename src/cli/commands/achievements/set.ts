import { runChange } from '../../../batch/change.js';
import type { BatchFlags } from '../../../batch/flags.js';
import { parseProgress } from '../../../ops/args.js';
import { setAchievementProgress } from '../../../ops/achievements.js';
import type { Factory } from '../../../ops/factory.js';
import { achievementChange } from './change.js';
import type { TargetOptions } from './index.js';

/** `achievements set`: signed PUT progress=P, total progress, so safe to repeat. */
export const setChange = achievementChange({
  action: 'set',
  idempotent: true,
  change: (args: { uid: string; developerId: string; progress: string }) => ({ action: 'set', progress: parseProgress(args.progress), progressText: args.progress.trim() }),
  confirm: ({ target, change }, who) => `set ${target.developerId} of ${who} to ${change.progressText}`,
  label: ({ target, change }) => `set ${target.developerId} to ${change.progressText}`,
  spin: (developerId) => `Setting ${developerId}`,
  perform: (client, uid, target, change) => setAchievementProgress(client, uid, target, change.progress),
  next: (_now, start, goal, change) => start + Math.round(change.progress * (goal - start)),
});

export async function run(factory: Factory, args: { uid: string; developerId: string; progress: string }, opts: TargetOptions & BatchFlags): Promise<void> {
  await runChange(factory, setChange, args, opts);
}
