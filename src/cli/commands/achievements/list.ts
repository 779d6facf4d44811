import type { AchievementListQuery, ApiClient } from '../../../client/types.js';
import type { Factory } from '../../../ops/factory.js';
import { UsageError } from '../../../errors.js';
import { FILTERS, LIMITS, ORDERS, SORTS } from '../../../domain/contract.js';
import { NOT_COMPLETED_DATE, NOT_STARTED } from '../../../domain/quests.js';
import type { AchievementDefinition, UserAchievement } from '../../../domain/types.js';
import {
  optionalInteger,
  parseChoice,
  parseKey,
  parseUserArg,
  printList,
  rejectRawWithAll,
} from '../../../ops/args.js';
import { resolveUid } from '../../../ops/users.js';
import { USER_ACHIEVEMENT_COLUMNS, userAchievementColumns } from '../../../ops/columns/achievements.js';
import { resolveParent } from '../../../ops/achievements.js';
import type { TargetOptions } from './index.js';

export interface ListOptions extends TargetOptions {
  developerId?: string;
  limit?: string;
  offset?: string;
  order?: string;
  sort?: string;
  filter?: string;
  match?: string;
  all?: boolean;
  started?: boolean;
}

/** The service's largest page (SERVICE.md: limit max 1000). */
export const ACHIEVEMENTS_MAX_LIMIT = LIMITS.userAchievements.maxLimit;

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
  // The service lists only the quests the user started (the platform's pages). The whole list
  // (no --started, --raw, --filter or paging of one's own) also shows the game's other quests as
  // Not Started, from the definitions, read beside the records.
  const whole =
    !opts.started && !factory.globals().raw && filter === undefined && limit === undefined && offset === undefined;
  if (whole) {
    const starts = new Map<string, unknown>();
    await out.list(withUntouched(client, uid, query, starts), userAchievementColumns(starts));
    return;
  }
  if (opts.all) {
    await out.list(allUserAchievements(client, uid, query), USER_ACHIEVEMENT_COLUMNS);
    return;
  }
  const reply = await out.spin('Fetching achievements', () => client.listUserAchievements(uid, query));
  await printList(factory, reply, USER_ACHIEVEMENT_COLUMNS);
}

/**
 * Every record (pages of 1000 until a short one: one request for nearly every user), then a
 * `Not Started` row for each quest of the game the records do not name, built from the
 * definitions, which are asked for at once, beside the first page. Each quest's start_value goes
 * into `starts`, for the table's PROGRESS.
 */
export async function* withUntouched(
  client: ApiClient,
  uid: string,
  query: AchievementListQuery,
  starts: Map<string, unknown> = new Map(),
): AsyncGenerator<UserAchievement> {
  const definitions = client.listAchievementDefinitions(query.pid, {
    type: query.type,
    ...(query.developerId === undefined ? {} : { developerId: query.developerId }),
  });
  // Awaited only after the records: a failure of the list must not leave this one unhandled.
  definitions.catch(() => undefined);
  const seen = new Set<string>();
  for await (const record of allUserAchievements(client, uid, query)) {
    seen.add(String(record.developer_id));
    yield record;
  }
  for (const def of (await definitions).payload ?? []) {
    starts.set(String(def.developer_id), def.start_value);
    // A platform may list Inactive definitions too: those are hidden from players.
    if (seen.has(String(def.developer_id)) || String(def.state).trim().toLowerCase() === 'inactive') continue;
    yield notStartedRow(uid, def);
  }
}

/** A quest the user never touched, as udcli shows it (the service has no record of it). */
export function notStartedRow(uid: string, def: AchievementDefinition): UserAchievement {
  return {
    id: null,
    uid,
    achievement_id: def.id,
    parent_id: def.parent_id,
    current_value: def.start_value,
    percent_complete: 0,
    state: NOT_STARTED,
    started_date: null,
    completed_date: NOT_COMPLETED_DATE,
    updated_date: null,
    developer_id: def.developer_id,
    type: def.type,
    name: def.name,
    target_value: def.target_value,
  };
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
