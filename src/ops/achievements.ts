/**
 * One user's achievement changes, as functions of (client, uid, ...) so the command handlers
 * and the batch runner (@FILE in place of <uid>) share them. Arguments are already validated;
 * these only talk to the service and throw its typed errors.
 */
import type { AchievementTarget, ApiClient, Reply } from '../client/types.js';
import type { Settings } from '../config/types.js';
import type { AchievementUpdate, ParentType, UserAchievement } from '../domain/types.js';
import { parseKey, parseParentType, resolveGame } from './args.js';
import { withSuggestion } from './suggest.js';

/** A signed PUT to one user's achievement: the service's reply. */
type AchievementChange<A extends unknown[] = []> = (
  client: ApiClient,
  uid: string,
  target: AchievementTarget,
  ...args: A
) => Promise<Reply<AchievementUpdate>>;

/** Signed PUT increment=N (N ≥ 1). Not idempotent: the client never retries it once sent. */
export const incrementAchievement: AchievementChange<[by: number]> = (client, uid, target, by) =>
  client.changeUserAchievement(uid, target, { increment: by });

/** Signed PUT progress=P (0..1): total progress, so safe to repeat. */
export const setAchievementProgress: AchievementChange<[progress: number]> = (client, uid, target, progress) =>
  client.changeUserAchievement(uid, target, { progress });

/** Signed PUT reset=1: back to the start value, state In Progress (a quest never started is started). */
export const resetAchievement: AchievementChange = (client, uid, target) =>
  client.changeUserAchievement(uid, target, { reset: true });

/** DELETE: the reply is the user achievement as it was; 404 when the user has no record of it. */
export function deleteAchievement(
  client: ApiClient,
  uid: string,
  target: AchievementTarget,
): Promise<Reply<UserAchievement>> {
  return client.deleteUserAchievement(uid, target);
}

/**
 * The user's current record of one achievement, or null when there is none (for before/after
 * views). The service lists started quests only; a row in state `Not Started` or without an id
 * (a server that lists untouched quests too) is no record.
 */
export async function readAchievement(
  client: ApiClient,
  uid: string,
  target: AchievementTarget,
): Promise<UserAchievement | null> {
  const reply = await client.listUserAchievements(uid, {
    type: target.type,
    pid: target.pid,
    developerId: target.developerId,
  });
  const found = (reply.payload ?? []).find((a) => a.developer_id === target.developerId);
  return !found || found.state === 'Not Started' || found.id === null ? null : found;
}

/** What a change's target is made of: its parent from --game/--type (else the profile) and the key argument. */
export type ResolveTarget<T> = (
  settings: Pick<Settings, 'gameId' | 'type'>,
  opts: { game?: string; type?: string },
  key: string,
) => T;

/**
 * Which achievement a command means: --game (else the profile's game_id, else a usage error),
 * --type (else the profile's type) and the developer_id argument. Throws UsageError; sends nothing.
 */
export const resolveAchievementTarget: ResolveTarget<AchievementTarget> = (settings, opts, developerId) => {
  const key = parseKey(developerId, 'developer_id');
  return { ...resolveParent(settings, opts), developerId: key };
};

/** The parent (type and game or website id) from --type/--game, else the profile. Throws UsageError. */
export function resolveParent(
  settings: Pick<Settings, 'gameId' | 'type'>,
  opts: { game?: string; type?: string },
): { type: ParentType; pid: string } {
  const type = opts.type === undefined ? settings.type : parseParentType(opts.type);
  const pid = resolveGame(opts.game, settings, 'pass --game ID');
  return { type, pid };
}

/** For `.catch()` after a change: a 404 for the developer_id gets the closest defined one as a hint. */
export function suggestDeveloperId(client: ApiClient, target: AchievementTarget): (error: unknown) => Promise<never> {
  return (error) =>
    withSuggestion(error, {
      what: 'achievement',
      typed: target.developerId,
      listCommand: `udcli achievements defs ${target.pid}${target.type === 'Game' ? '' : ` --type ${target.type}`}`,
      known: async () =>
        ((await client.listAchievementDefinitions(target.pid, { type: target.type })).payload ?? []).map(
          (d) => d.developer_id,
        ),
    });
}
