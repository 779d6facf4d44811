/** `achievements delete`: DELETE, the reply is the record as it was; asks first, showing what is lost. */
import { defineChange } from '../change-registry.js';
import type { TargetOptions } from '../commands/achievements/index.js';
import { SCOPE_OPTIONS } from '../scope-options.js';

export default defineChange({
  command: 'achievements delete',
  order: 4,
  description: "Delete a user's record of an achievement (asks first on a terminal; needs --yes where it cannot ask)",
  arguments: [{ name: 'developer_id', key: 'developerId', description: 'the achievement' }],
  options: SCOPE_OPTIONS,
  examples: ['UID FIRST_WIN --yes'],
  batchExample: 'FIRST_WIN --yes',
  async type() {
    const [{ achievementChange, lossText }, { deleteAchievement }] = await Promise.all([
      import('../../batch/changes/achievements.js'),
      import('../../ops/achievements.js'),
    ]);
    return achievementChange({
      action: 'delete',
      idempotent: true,
      deletes: true,
      change: (_args: { uid: string; developerId: string }, _opts: TargetOptions) => ({ action: 'delete' as const }),
      argv: () => [],
      confirm: ({ target }, who) => `delete achievement ${target.developerId} of ${who}`,
      label: ({ target }) => `delete ${target.developerId}`,
      // Only a record that exists is worth asking about; without one the DELETE answers 404.
      ask: {
        what: ({ target }) => `Delete achievement ${target.developerId}`,
        loss: (record) => (record ? lossText(record) : null),
      },
      spin: (developerId) => `Deleting ${developerId}`,
      perform: (client, uid, target) => deleteAchievement(client, uid, target),
    });
  },
});
