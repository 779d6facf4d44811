/** `achievements inc`: signed PUT increment=N; not safe to repeat, so a lost reply is decided by reading. */
import { defineChange } from '../change-registry.js';
import type { TargetOptions } from '../commands/achievements/index.js';
import { SCOPE_OPTIONS } from '../scope-options.js';

interface IncOptions extends TargetOptions {
  by?: string;
}

export default defineChange({
  command: 'achievements inc',
  order: 1,
  description: "Add to a user's progress (signed PUT increment)",
  arguments: [{ name: 'developer_id', key: 'developerId', description: 'the achievement' }],
  options: [...SCOPE_OPTIONS, { flags: '--by <n>', description: 'amount to add, an integer ≥ 1', default: '1' }],
  examples: ['UID FIRST_WIN --by 2'],
  batchExample: 'LEVEL_10',
  async type() {
    const [{ achievementChange }, { incrementAchievement }, { incrementOutcome }, { parseInteger }] = await Promise.all(
      [
        import('../../batch/changes/achievements.js'),
        import('../../ops/achievements.js'),
        import('../../domain/outcome.js'),
        import('../../ops/args.js'),
      ],
    );
    return achievementChange({
      action: 'inc',
      idempotent: false,
      change: (_args: { uid: string; developerId: string }, opts: IncOptions) => ({
        action: 'inc' as const,
        by: parseInteger(opts.by ?? '1', '--by', { min: 1 }),
      }),
      argv: (change) => ['--by', String(change.by)],
      confirm: ({ target, change }, who) => `increment ${target.developerId} of ${who} by ${change.by}`,
      label: ({ target, change }) => `increment ${target.developerId} by ${change.by}`,
      spin: (developerId) => `Incrementing ${developerId}`,
      perform: (client, uid, target, change) => incrementAchievement(client, uid, target, change.by),
      judge: (before, now, change, definition) => incrementOutcome(before, now, change.by, definition),
      next: (now, _start, _goal, change) => now + change.by,
    });
  },
});
