import { runChange } from '../../../batch/change.js';
import type { BatchFlags } from '../../../batch/flags.js';
import { incrementOutcome } from '../../../domain/outcome.js';
import { incrementAchievement } from '../../../ops/achievements.js';
import { parseInteger } from '../../../ops/args.js';
import type { Factory } from '../../../ops/factory.js';
import { achievementChange } from './change.js';
import type { IncOptions } from './index.js';

/** `achievements inc`: signed PUT increment=N; not safe to repeat, so a lost reply is decided by reading. */
export const incChange = achievementChange({
  action: 'inc',
  idempotent: false,
  change: (_args: { uid: string; developerId: string }, opts: IncOptions) => ({ action: 'inc', by: parseInteger(opts.by ?? '1', '--by', { min: 1 }) }),
  confirm: ({ target, change }, who) => `increment ${target.developerId} of ${who} by ${change.by}`,
  label: ({ target, change }) => `increment ${target.developerId} by ${change.by}`,
  spin: (developerId) => `Incrementing ${developerId}`,
  perform: (client, uid, target, change) => incrementAchievement(client, uid, target, change.by),
  judge: (before, now, change, definition) => incrementOutcome(before, now, change.by, definition),
  next: (now, _start, _goal, change) => now + change.by,
});

export async function run(factory: Factory, args: { uid: string; developerId: string }, opts: IncOptions & BatchFlags): Promise<void> {
  await runChange(factory, incChange, args, opts);
}
