import { runChange } from '../../../batch/change.js';
import type { BatchFlags } from '../../../batch/flags.js';
import type { UserAchievement } from '../../../domain/types.js';
import { completedDateOf } from '../../../domain/quests.js';
import { deleteAchievement } from '../../../ops/achievements.js';
import type { Factory } from '../../../ops/factory.js';
import { achievementChange } from './change.js';
import type { TargetOptions } from './index.js';

/** What a delete loses, for the question: `1/1 Completed, completed 2024-05-01 10:05:00`. */
export function lossText(record: UserAchievement): string {
  const value = record.target_value === undefined || record.target_value === null ? `${record.current_value}` : `${record.current_value}/${record.target_value}`;
  const completed = completedDateOf(record.completed_date);
  return `${value} ${record.state}${completed ? `, completed ${completed}` : ''}`;
}

/** `achievements delete`: DELETE, the reply is the record as it was; asks first, showing what is lost. */
export const deleteChange = achievementChange({
  action: 'delete',
  idempotent: true,
  change: (_args: { uid: string; developerId: string }, _opts: TargetOptions) => ({ action: 'delete' }),
  confirm: ({ target }, who) => `delete achievement ${target.developerId} of ${who}`,
  label: ({ target }) => `delete ${target.developerId}`,
  // Only a record that exists is worth asking about; without one the DELETE answers 404.
  ask: { what: ({ target }) => `Delete achievement ${target.developerId}`, loss: (record) => (record ? lossText(record) : null) },
  spin: (developerId) => `Deleting ${developerId}`,
  perform: (client, uid, target) => deleteAchievement(client, uid, target),
});

export async function run(factory: Factory, args: { uid: string; developerId: string }, opts: TargetOptions & BatchFlags): Promise<void> {
  await runChange(factory, deleteChange, args, opts);
}
