import type { AchievementListQuery, ApiClient } from '../../../client/types.js';
import type { Factory } from '../../../ops/factory.js';
import { UsageError } from '../../../errors.js';
import type { UserAchievement } from '../../../domain/types.js';
import { optionalInteger, parseChoice, parseKey, parseUserArg, printList, rejectRawWithAll } from '../../../ops/args.js';
import { resolveUid } from '../../../ops/users.js';
import { USER_ACHIEVEMENT_COLUMNS } from './columns.js';
import type { ListOptions } from './index.js';
import { resolveParent } from '../../../ops/achievements.js';

export const ORDERS = ['started_date', 'completed_date', 'state', 'parent_id', 'percent_complete', 'name'] as const;
export const SORTS = ['asc', 'desc'] as const;
export const FILTERS = ['parent', 'name', 'percent_complete', 'state', 'parent_id'] as const;
/** The service's largest page (contract: limit max 1000). */
export const ACHIEVEMENTS_MAX_LIMIT = 1000;

export async function run(factory: Factory, args: { uid: string }, opts: ListOptions): Promise<void> {
  const user = parseUserArg(args.uid, 'uid', 'achievements list');
  const developerId = opts.developerId === undefined ? undefined : parseKey(opts.developerId, 'developer_id');
  const limit = optionalInteger(opts.limit, '--limit', { min: 1, max: ACHIEVEMENTS_MAX_LIMIT });
  const offset = optionalInteger(opts.offset, '--offset', { min: 0 });
  const order = opts.order === undefined ? undefined : parseChoice(opts.order, '--order', ORDERS);
  const sort = opts.sort === undefined ? undefined : parseChoice(opts.sort, '--sort', SORTS);
  const filter = opts.filter === undefined ? undefined : parseChoice(opts.filter, '--filter', FILTERS);
  if (opts.match !== undefined && filter === undefined) {
    throw new UsageError('--match needs --filter: say which field to match', {
      hint: 'e.g. --filter state --match Completed',
    });
  }
  if (filter !== undefined && opts.match === undefined) {
    throw new UsageError(`--filter ${filter} needs --match <value>`);
  }
  if (opts.all && (opts.limit !== undefined || opts.offset !== undefined)) {
    throw new UsageError('--all fetches every record and cannot be combined with --limit or --offset');
  }
  rejectRawWithAll(factory, opts.all);
  if (opts.started && factory.globals().raw) {
    throw new UsageError('--raw prints the reply as received and cannot be combined with --started', {
      hint: 'drop --raw, or filter on the server with --filter state --match Started',
    });
  }

  const settings = await factory.settings();
  const query: AchievementListQuery = { ...resolveParent(settings, opts) };
  if (developerId !== undefined) query.developerId = developerId;
  if (limit !== undefined) query.limit = limit;
  if (offset !== undefined) query.offset = offset;
  if (order !== undefined) query.order = order;
  if (sort !== undefined) query.sort = sort;
  if (filter !== undefined) query.filter = filter;
  if (opts.match !== undefined) query.match = opts.match;

  const client = await factory.client();
  const uid = await resolveUid(client, user);
  const out = await factory.output();
  if (opts.all) {
    const all = allUserAchievements(client, uid, query);
    await out.list(opts.started ? onlyStarted(all) : all, USER_ACHIEVEMENT_COLUMNS);
    return;
  }
  const reply = await out.spin('Fetching achievements', () => client.listUserAchievements(uid, query));
  await printList(factory, opts.started ? { ...reply, payload: reply.payload.filter(isStarted) } : reply, USER_ACHIEVEMENT_COLUMNS);
}

/**
 * The service lists every achievement of the game, those the user never touched in state
 * `Not Started` (contract: Achievements); --started leaves those out, here, after the reply.
 */
export function isStarted(a: UserAchievement): boolean {
  return String(a?.state ?? '').trim().toLowerCase() !== 'not started';
}

async function* onlyStarted(items: AsyncIterable<UserAchievement>): AsyncGenerator<UserAchievement> {
  for await (const a of items) if (isStarted(a)) yield a;
}

/** Every record matching `query`, a page of 1000 at a time until a short page. */
export async function* allUserAchievements(
  client: ApiClient,
  uid: string,
  query: AchievementListQuery,
): AsyncGenerator<UserAchievement> {
  let offset = 0;
  for (;;) {
    const reply = await client.listUserAchievements(uid, { ...query, limit: ACHIEVEMENTS_MAX_LIMIT, offset });
    const page = reply.payload ?? [];
    yield* page;
    if (page.length < ACHIEVEMENTS_MAX_LIMIT) return;
    offset += page.length;
  }
}
