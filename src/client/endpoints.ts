/**
 * The typed methods of ApiClient (spec section 4 + contract) on top of request(): each a row of
 * the endpoint table (domain/endpoints.ts), which gives its path, the parameters it may send,
 * whether it is signed and whether it is safe to repeat.
 */
import { MalformedReplyError } from '../errors.js';
import { printable } from '../printable.js';
import { LOGIN_PATH, PARAMS, TOKEN_GENERATOR_PATH } from '../domain/contract.js';
import { ENDPOINTS, parameterOf, servicePath, type EndpointRow, type ParameterOf } from '../domain/endpoints.js';
import type { QueryParams } from '../domain/signing.js';
import type {
  AchievementDefinition,
  AchievementUpdate,
  AuthenticatedUser,
  Friend,
  ProductEntry,
  User,
  UserAchievement,
} from '../domain/types.js';
import type { ReplyContext } from './envelope.js';
import { readLoginCookie, readTokenRecord } from './site.js';
import type { HttpResult } from './transport.js';
import type {
  AchievementTarget,
  ApiClient,
  EraseResult,
  ProductTarget,
  Reply,
  RequestSpec,
  SaveResult,
} from './types.js';

export type Interpreter<R> = (res: HttpResult, ctx: ReplyContext) => R;

/** What the endpoints need from the client: the envelope request and a raw one for the site. */
export interface RequestCore {
  request<T>(spec: RequestSpec): Promise<Reply<T>>;
  call<R>(spec: RequestSpec, interpret: Interpreter<R>): Promise<R>;
}

export type Endpoints = Omit<ApiClient, 'request' | 'prepare' | 'close'>;

export const FRIENDS_PAGE_MAX: number = parameterOf(ENDPOINTS.getFriends, PARAMS.limit).clampedTo;

type Param = readonly [string, string | number | boolean | undefined];

/** Query parameters in order, leaving out the ones not given. */
export function params(...entries: Param[]): QueryParams {
  return entries
    .filter((e): e is readonly [string, string | number | boolean] => e[1] !== undefined)
    .map(([n, v]) => [n, String(v)]);
}

/** A parameter the row declares, with its value (left out when undefined). */
type RowParam<R extends EndpointRow> = readonly [ParameterOf<R>, string | number | boolean | undefined];

/**
 * The request a row of the endpoint table (domain/endpoints.ts) makes: its verb and path, the
 * given parameters in the given order (a form-body parameter in the body), signed and repeated as
 * the row says.
 */
function requestOf<R extends EndpointRow>(
  row: R,
  element: string | undefined,
  ...entries: Array<RowParam<R>>
): RequestSpec {
  const inForm = new Set(row.parameters.filter((p) => p.sentIn === 'form').map((p) => p.name));
  const { idempotent } = row;
  const given = (name: string) => entries.some(([n, v]) => n === name && v !== undefined);
  const body = params(...entries.filter(([n]) => inForm.has(n)));
  return {
    method: row.method,
    path: servicePath(row.path, element),
    query: params(...entries.filter(([n]) => !inForm.has(n))),
    ...(body.length > 0 ? { body } : {}),
    ...(row.signature === 'none' ? {} : { sign: true }),
    idempotent: typeof idempotent === 'boolean' ? idempotent : !given(idempotent.unless),
  };
}

export function createEndpoints(core: RequestCore): Endpoints {
  const { request, call } = core;
  const E = ENDPOINTS;

  const getFriends: Endpoints['getFriends'] = async (uid, page) =>
    asList(
      await request<Friend[]>(
        requestOf(
          E.getFriends,
          uid,
          [PARAMS.limit, page.limit],
          [PARAMS.offset, page.offset],
          [PARAMS.page, page.page],
        ),
      ),
    );

  const achievementTarget = (t: AchievementTarget) =>
    [
      [PARAMS.type, t.type],
      [PARAMS.pid, t.pid],
      [PARAMS.developerId, t.developerId],
    ] as const;

  const productTarget = (t: Omit<ProductTarget, 'sku'> & { sku?: string }) =>
    [
      [PARAMS.sku, t.sku],
      [PARAMS.parentId, t.parentId],
      [PARAMS.type, t.type],
    ] as const;

  return {
    send: (row, element, parameters = {}) =>
      request(requestOf(row, element, ...(Object.entries(parameters) as Array<RowParam<typeof row>>))),

    authenticate: (userId, authToken) =>
      request<AuthenticatedUser | null>(
        requestOf(E.authenticate, undefined, [PARAMS.userId, userId], [PARAMS.authToken, authToken]),
      ),

    siteLogin: (username) =>
      call(
        {
          method: 'POST',
          path: LOGIN_PATH,
          query: params([PARAMS.username, username]),
          base: 'site',
          idempotent: true,
        },
        readLoginCookie,
      ),

    generateToken: (gameId, cookie) =>
      call(
        {
          method: 'GET',
          path: `${TOKEN_GENERATOR_PATH}/${encodeURIComponent(gameId)}`,
          base: 'site',
          headers: { cookie },
          idempotent: true,
        },
        readTokenRecord,
      ),

    getUser: async (idOrUsername, options = {}) => {
      const reply = await request<User>({
        ...requestOf(E.getUser, idOrUsername, [PARAMS.username, options.byUsername ? '1' : undefined]),
        withoutApiKey: options.publicOnly === true,
      });
      if (!reply.payload || typeof reply.payload !== 'object' || Array.isArray(reply.payload)) {
        throw new MalformedReplyError(
          `the users service answered ${reply.envelope.code} "${printable(reply.envelope.message)}" without a user`,
        );
      }
      return reply;
    },

    getFriends,

    async *friendPages(uid, pageSize = FRIENDS_PAGE_MAX) {
      const limit = Math.max(1, Math.min(FRIENDS_PAGE_MAX, Math.floor(pageSize)));
      let previousFirst: string | undefined;
      // Let go of each page before waiting for the next: a suspended generator keeps what its
      // variables last held, and two pages alive at once grew `friends --all`'s peak RSS.
      let page: Friend[] | undefined;
      for (let offset = 0; ; offset += limit) {
        page = (await getFriends(uid, { limit, offset })).payload;
        // A server that ignores `offset` would send the first page forever.
        const first = page[0]?.uid;
        if (offset > 0 && first !== undefined && first === previousFirst) {
          throw new MalformedReplyError(
            `the friends service sent the same page again at offset ${offset} (offset ignored?)`,
          );
        }
        previousFirst = first;
        const last = page.length < limit;
        if (page.length > 0) yield page;
        page = undefined;
        if (last) return;
      }
    },

    listAchievementDefinitions: async (parentId, query = {}) =>
      asList(
        await request<AchievementDefinition[]>(
          requestOf(
            E.listAchievementDefinitions,
            parentId,
            [PARAMS.type, query.type],
            [PARAMS.aid, query.aid],
            [PARAMS.developerId, query.developerId],
          ),
        ),
      ),

    listUserAchievements: async (uid, q) =>
      asList(
        await request<UserAchievement[]>(
          requestOf(
            E.listUserAchievements,
            uid,
            [PARAMS.type, q.type],
            [PARAMS.pid, q.pid],
            [PARAMS.developerId, q.developerId],
            [PARAMS.limit, q.limit],
            [PARAMS.offset, q.offset],
            [PARAMS.order, q.order],
            [PARAMS.sort, q.sort],
            [PARAMS.filter, q.filter],
            [PARAMS.match, q.match],
          ),
        ),
      ),

    changeUserAchievement: (uid, target, change) => {
      const given =
        'increment' in change
          ? ([PARAMS.increment, change.increment] as const)
          : 'progress' in change
            ? ([PARAMS.progress, change.progress] as const)
            : ([PARAMS.reset, 1] as const);
      return request<AchievementUpdate>(requestOf(E.changeUserAchievement, uid, ...achievementTarget(target), given));
    },

    deleteUserAchievement: (uid, target) =>
      request<UserAchievement>(requestOf(E.deleteUserAchievement, uid, ...achievementTarget(target))),

    listProducts: async (uid, query) =>
      asList(await request<ProductEntry[]>(requestOf(E.listProducts, uid, ...productTarget(query)))),

    grantProduct: (uid, target, qty) =>
      request<ProductEntry>(requestOf(E.grantProduct, uid, ...productTarget(target), [PARAMS.qty, qty])),

    adjustProduct: (uid, target, qty, direction) =>
      request<ProductEntry>(
        requestOf(E.adjustProduct, uid, ...productTarget(target), [PARAMS.qty, qty], [direction, 'true']),
      ),

    getSaves: async (uid, key) =>
      asRecord(await request<Record<string, string>>(requestOf(E.getSaves, uid, [PARAMS.key, key]))),

    // As the SDK's saveGame: the key and token in the query, the value in the form body (the row says where).
    saveGame: (uid, key, value, authToken) =>
      request<SaveResult>(
        requestOf(E.saveGame, uid, [PARAMS.authToken, authToken], [PARAMS.key, key], [PARAMS.data, value]),
      ),

    eraseGame: (uid, key, authToken) =>
      request<EraseResult>(requestOf(E.eraseGame, uid, [PARAMS.authToken, authToken], [PARAMS.key, key])),
  };
}

/** A saves payload as `{key: text}`: `null` or `[]` (what loose platforms send for "none") is `{}`. */
function asRecord(reply: Reply<Record<string, string>>): Reply<Record<string, string>> {
  const payload: unknown = reply.payload;
  if (payload === null || payload === undefined || (Array.isArray(payload) && payload.length === 0))
    return { ...reply, payload: {} };
  if (typeof payload !== 'object' || Array.isArray(payload))
    throw new MalformedReplyError(
      `expected an object of saves in the reply, got ${Array.isArray(payload) ? 'a list' : typeof payload}`,
    );
  return reply;
}

/**
 * List payloads as arrays. Tolerates what loosely typed platforms send for a list: null for
 * "none" and an object keyed "0", "1", ... . The envelope and body stay as received.
 */
function asList<T>(reply: Reply<T[]>): Reply<T[]> {
  const payload: unknown = reply.payload;
  if (Array.isArray(payload)) return reply;
  if (payload === null || payload === undefined) return { ...reply, payload: [] };
  if (typeof payload === 'object' && Object.keys(payload).every((k) => /^\d+$/.test(k))) {
    const entries = Object.entries(payload as Record<string, T>).sort(([a], [b]) => Number(a) - Number(b));
    return { ...reply, payload: entries.map(([, v]) => v) };
  }
  throw new MalformedReplyError(`expected a list in the reply, got ${typeof payload}`);
}
