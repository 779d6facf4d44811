import { runChange } from '../../../batch/change.js';
import type { BatchFlags } from '../../../batch/flags.js';
import { resetAchievement } from '../../../ops/achievements.js';
import type { Factory } from '../../../ops/factory.js';
import { achievementChange } from './change.js';
import type { TargetOptions } from './index.js';

/** `achievements reset`: signed PUT reset=1, back to the start value; safe to repeat. */
export const resetChange = achievementChange({
  action: 'reset',
  idempotent: true,
  change: (_args: { uid: string; developerId: string }, _opts: TargetOptions) => ({ action: 'reset' }),
  confirm: ({ target }, who) => `reset ${target.developerId} of ${who}`,
  label: ({ target }) => `reset ${target.developerId}`,
  spin: (developerId) => `Resetting ${developerId}`,
  perform: (client, uid, target) => resetAchievement(client, uid, target),
  next: (_now, start) => start,
});

export async function run(factory: Factory, args: { uid: string; developerId: string }, opts: TargetOptions & BatchFlags): Promise<void> {
  await runChange(factory, resetChange, args, opts);
}
