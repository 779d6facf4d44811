import type { Factory } from '../../../ops/factory.js';
import { UsageError } from '../../../errors.js';
import { PARAMS } from '../../../domain/contract.js';
import { ENDPOINTS, parameterOf } from '../../../domain/endpoints.js';
import { exclusive, optionalInteger, parseUserArg, printList, rejectRawWithAll } from '../../../ops/args.js';
import { resolveUid } from '../../../ops/users.js';
import { FRIEND_COLUMNS } from '../user/columns.js';
import { grouped } from '../../../domain/grouped.js';

export interface FriendsOptions {
  limit?: string;
  offset?: string;
  page?: string;
  all?: boolean;
}

/** The service's page size cap (spec 4.6), as the endpoint table declares it. */
export const FRIENDS_MAX_LIMIT: number = parameterOf(ENDPOINTS.getFriends, PARAMS.limit).clampedTo;

export async function run(factory: Factory, args: { uid: string }, opts: FriendsOptions): Promise<void> {
  const user = parseUserArg(args.uid, 'uid', 'friends');
  exclusive(opts as Record<string, unknown>, 'offset', 'page');
  const limit = optionalInteger(opts.limit, '--limit', { min: 1, max: FRIENDS_MAX_LIMIT });
  const offset = optionalInteger(opts.offset, '--offset', { min: 0 });
  const page = optionalInteger(opts.page, '--page', { min: 1 });
  if (opts.all && (opts.limit !== undefined || opts.offset !== undefined || opts.page !== undefined)) {
    throw new UsageError('--all fetches every friend and cannot be combined with --limit, --offset or --page');
  }
  rejectRawWithAll(factory, opts.all);

  const client = await factory.client();
  const uid = await resolveUid(client, user);
  const out = await factory.output();
  if (opts.all) {
    const { rows, complete } = await out.listPages(client.friendPages(uid, FRIENDS_MAX_LIMIT), FRIEND_COLUMNS);
    // Not when the reader went away (`| head`): the list was not fetched to its end.
    if (complete)
      out.info(`${grouped(rows)} ${rows === 1 ? 'friend' : 'friends'}, every page (${FRIENDS_MAX_LIMIT} a page)`);
    return;
  }
  const query: { limit?: number; offset?: number; page?: number } = {};
  if (limit !== undefined) query.limit = limit;
  if (offset !== undefined) query.offset = offset;
  if (page !== undefined) query.page = page;
  const reply = await out.spin('Fetching friends', () => client.getFriends(uid, query));
  await printList(factory, reply, FRIEND_COLUMNS);
  // A full page is a page, not the whole list: say so rather than stop without a word.
  const shown = Array.isArray(reply.payload) ? reply.payload.length : 0;
  const size = limit ?? FRIENDS_MAX_LIMIT;
  if (shown > 0 && shown >= size) {
    const next = page !== undefined ? `--page ${page + 1}` : `--offset ${(offset ?? 0) + shown}`;
    out.info(`${shown} friends shown, one page: there may be more (--all fetches every one, ${next} the next page)`);
  }
}
