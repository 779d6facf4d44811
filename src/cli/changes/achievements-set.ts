/** `achievements set`: signed PUT progress=P, total progress, so safe to repeat. */
import { defineChange } from '../change-registry.js';
import type { TargetOptions } from '../commands/achievements/index.js';
import { SCOPE_OPTIONS } from '../scope-options.js';

export default defineChange({
  command: 'achievements set',
  order: 2,
  description: "Set a user's total progress: 0..1 or a percentage (signed PUT progress)",
  arguments: [
    { name: 'developer_id', key: 'developerId', description: 'the achievement' },
    { name: 'progress', key: 'progress', description: 'a fraction from 0 to 1 (0.5) or a percentage (75%)' },
  ],
  options: SCOPE_OPTIONS,
  examples: ['UID FIRST_WIN 75%', 'UID FIRST_WIN 1'],
  batchExample: 'LEVEL_10 50%',
  async type() {
    const [{ achievementChange, refuseKeptCompletion }, { setAchievementProgress }, { parseProgress }] =
      await Promise.all([
        import('../../batch/changes/achievements.js'),
        import('../../ops/achievements.js'),
        import('../../ops/args.js'),
      ]);
    return achievementChange({
      action: 'set',
      idempotent: true,
      change: (args: { uid: string; developerId: string; progress: string }, _opts: TargetOptions) => ({
        action: 'set' as const,
        progress: parseProgress(args.progress),
        /** as typed, e.g. `75%` */
        progressText: args.progress.trim(),
      }),
      // The journal keeps the fraction (`75%` and `0.75` are the same run); the audit line, as typed.
      argv: (change, form) => [form === 'journal' ? String(change.progress) : change.progressText],
      confirm: ({ target, change }, who) => `set ${target.developerId} of ${who} to ${change.progressText}`,
      label: ({ target, change }) => `set ${target.developerId} to ${change.progressText}`,
      spin: (developerId) => `Setting ${developerId}`,
      perform: (client, uid, target, change) => setAchievementProgress(client, uid, target, change.progress),
      next: (_now, start, goal, change) => start + Math.round(change.progress * (goal - start)),
      afterwards: (uid, target, change, ...rest) => refuseKeptCompletion(uid, target, change, ...rest),
    });
  },
});
