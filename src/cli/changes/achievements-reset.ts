/** `achievements reset`: signed PUT reset=1, back to the start value; safe to repeat. */
import { defineChange } from '../change-registry.js';
import type { TargetOptions } from '../commands/achievements/index.js';
import { SCOPE_OPTIONS } from '../scope-options.js';

export default defineChange({
  command: 'achievements reset',
  order: 3,
  description: "Reset a user's progress to the start value (signed PUT reset=1)",
  arguments: [{ name: 'developer_id', key: 'developerId', description: 'the achievement' }],
  options: SCOPE_OPTIONS,
  examples: ['UID FIRST_WIN'],
  batchExample: 'LEVEL_10',
  async type() {
    const [{ achievementChange }, { resetAchievement }] = await Promise.all([
      import('../../batch/changes/achievements.js'),
      import('../../ops/achievements.js'),
    ]);
    return achievementChange({
      action: 'reset',
      idempotent: true,
      change: (_args: { uid: string; developerId: string }, _opts: TargetOptions) => ({ action: 'reset' as const }),
      argv: () => [],
      confirm: ({ target }, who) => `reset ${target.developerId} of ${who}`,
      label: ({ target }) => `reset ${target.developerId}`,
      spin: (developerId) => `Resetting ${developerId}`,
      perform: (client, uid, target) => resetAchievement(client, uid, target),
      next: (_now, start) => start,
    });
  },
});
