/**
 * The typed methods of ApiClient (spec section 4 + contract) on top of request(): paths,
 * parameter names, which requests are signed and which are safe to repeat.
 */
import { MalformedReplyError } from '../errors.js';
import { LIMITS, LOGIN_PATH, PARAMS, ROUTES, TOKEN_GENERATOR_PATH } from '../domain/contract.js';
import type { QueryParams } from '../domain/signing.js';
import {
  API_PREFIX,
  type AchievementDefinition,
  type AchievementUpdate,
  type AuthenticatedUser,
  type Friend,
  type ProductEntry,
  type User,
  type UserAchievement,
} from '../domain/types.js';
import type { ReplyContext } from './envelope.js';
import { readLoginCookie, readTokenRecord } from './site.js';
import type { HttpResult } from './transport.js';
import type { AchievementTarget, ApiClient, EraseResult, Reply, RequestSpec, SaveResult } from './types.js';

type Route = (typeof ROUTES)[keyof typeof ROUTES];

export type Interpreter<R> = (res: HttpResult, ctx: ReplyContext) => R;

/** What the endpoints need from the client: the envelope request and a raw one for the site. */
export interface RequestCore {
  request<T>(spec: RequestSpec): Promise<Reply<T>>;
  call<R>(spec: RequestSpec, interpret: Interpreter<R>): Promise<R>;
}

export type Endpoints = Omit<ApiClient, 'request' | 'prepare' | 'close'>;

export const FRIENDS_PAGE_MAX = LIMITS.friends.maxLimit;

type Param = readonly [string, string | number | boolean | undefined];

/** Query parameters in order, leaving out the ones not given. */
export function params(...entries: Param[]): QueryParams {
  return entries.filter((e): e is readonly [string, string | number | boolean] => e[1] !== undefined).map(([n, v]) => [n, String(v)]);
}

/** `/services/rest/v1/<route>/<element>.json`, the element encoded (authenticate has none). */
export function servicePath(route: Route, element?: string): string {
  return `${API_PREFIX}/${route}${element === undefined ? '' : `/${encodeURIComponent(element)}`}.json`;
}

export function createEndpoints(core: RequestCore): Endpoints {
  const { request, call } = core;

  const getFriends: Endpoints['getFriends'] = async (uid, page) =>
    asList(
      await request<Friend[]>({
        method: 'GET',
        path: servicePath(ROUTES.friends, uid),
        query: params([PARAMS.limit, page.limit], [PARAMS.offset, page.offset], [PARAMS.page, page.page]),
        idempotent: true,
      }),
    );

  const achievementTarget = (t: AchievementTarget): Param[] => [
    [PARAMS.type, t.type],
    [PARAMS.pid, t.pid],
    [PARAMS.developerId, t.developerId],
  ];

  return {
    authenticate: (userId, authToken) =>
      request<AuthenticatedUser | null>({
        method: 'GET',
        path: servicePath(ROUTES.authenticate),
        query: params([PARAMS.userId, userId], [PARAMS.authToken, authToken]),
        idempotent: true,
      }),

    siteLogin: (username) =>
      call({ method: 'POST', path: LOGIN_PATH, query: params([PARAMS.username, username]), base: 'site', idempotent: true }, readLoginCookie),

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
        method: 'GET',
        path: servicePath(ROUTES.users, idOrUsername),
        query: params([PARAMS.username, options.byUsername ? '1' : undefined]),
        withoutApiKey: options.publicOnly === true,
        idempotent: true,
      });
      if (!reply.payload || typeof reply.payload !== 'object' || Array.isArray(reply.payload)) {
        throw new MalformedReplyError(
          `the users service answered ${reply.envelope.code} "${reply.envelope.message}" without a user`,
        );
      }
      return reply;
    },

    getFriends,

    async *iterateFriends(uid, pageSize = FRIENDS_PAGE_MAX) {
      const limit = Math.max(1, Math.min(FRIENDS_PAGE_MAX, Math.floor(pageSize)));
      let previousFirst: string | undefined;
      for (let offset = 0; ; offset += limit) {
        const { payload } = await getFriends(uid, { limit, offset });
        // A server that ignores `offset` would send the first page forever.
        const first = payload[0]?.uid;
        if (offset > 0 && first !== undefined && first === previousFirst) {
          throw new MalformedReplyError(`the friends service sent the same page again at offset ${offset} (offset ignored?)`);
        }
        previousFirst = first;
        yield* payload;
        if (payload.length < limit) return;
      }
    },

    listAchievementDefinitions: async (parentId, query = {}) =>
      asList(
        await request<AchievementDefinition[]>({
          method: 'GET',
          path: servicePath(ROUTES.definitions, parentId),
          query: params([PARAMS.type, query.type], [PARAMS.aid, query.aid], [PARAMS.developerId, query.developerId]),
          idempotent: true,
        }),
      ),

    listUserAchievements: async (uid, q) =>
      asList(
        await request<UserAchievement[]>({
          method: 'GET',
          path: servicePath(ROUTES.userAchievements, uid),
          query: params(
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
          idempotent: true,
        }),
      ),

    changeUserAchievement: (uid, target, change) => {
      const [name, value] =
        'increment' in change ? [PARAMS.increment, change.increment] : 'progress' in change ? [PARAMS.progress, change.progress] : [PARAMS.reset, 1];
      return request<AchievementUpdate>({
        method: 'PUT',
        path: servicePath(ROUTES.userAchievements, uid),
        query: params(...achievementTarget(target), [name, value]),
        sign: true,
        // Setting progress and resetting are safe to repeat; adding is not.
        idempotent: name !== PARAMS.increment,
      });
    },

    deleteUserAchievement: (uid, target) =>
      request<UserAchievement>({
        method: 'DELETE',
        path: servicePath(ROUTES.userAchievements, uid),
        query: params(...achievementTarget(target)),
        idempotent: true,
      }),

    listProducts: async (uid, query) =>
      asList(
        await request<ProductEntry[]>({
          method: 'GET',
          path: servicePath(ROUTES.products, uid),
          query: params([PARAMS.sku, query.sku], [PARAMS.parentId, query.parentId], [PARAMS.type, query.type]),
          idempotent: true,
        }),
      ),

    grantProduct: (uid, target, qty) =>
      request<ProductEntry>({
        method: 'POST',
        path: servicePath(ROUTES.products, uid),
        query: params([PARAMS.sku, target.sku], [PARAMS.parentId, target.parentId], [PARAMS.type, target.type], [PARAMS.qty, qty]),
        idempotent: false,
      }),

    adjustProduct: (uid, target, qty, direction) =>
      request<ProductEntry>({
        method: 'PUT',
        path: servicePath(ROUTES.products, uid),
        query: params([PARAMS.sku, target.sku], [PARAMS.parentId, target.parentId], [PARAMS.type, target.type], [PARAMS.qty, qty], [direction, 'true']),
        sign: true,
        idempotent: false,
      }),

    getSaves: async (uid, key) =>
      asRecord(
        await request<Record<string, string>>({
          method: 'GET',
          path: servicePath(ROUTES.saves, uid),
          query: params([PARAMS.key, key]),
          idempotent: true,
        }),
      ),

    // As the SDK's saveGame: the key and token in the query, the value in the form body.
    saveGame: (uid, key, value, authToken) =>
      request<SaveResult>({
        method: 'POST',
        path: servicePath(ROUTES.saves, uid),
        query: params([PARAMS.authToken, authToken], [PARAMS.key, key]),
        body: [[PARAMS.data, value]],
        sign: true,
        // Storing the same value again leaves the same state.
        idempotent: true,
      }),

    eraseGame: (uid, key, authToken) =>
      request<EraseResult>({
        method: 'DELETE',
        path: servicePath(ROUTES.saves, uid),
        query: params([PARAMS.authToken, authToken], [PARAMS.key, key]),
        sign: true,
        idempotent: true,
      }),
  };
}

/** A saves payload as `{key: text}`: `null` or `[]` (what loose platforms send for "none") is `{}`. */
function asRecord(reply: Reply<Record<string, string>>): Reply<Record<string, string>> {
  const payload: unknown = reply.payload;
  if (payload === null || payload === undefined || (Array.isArray(payload) && payload.length === 0)) return { ...reply, payload: {} };
  if (typeof payload !== 'object' || Array.isArray(payload)) throw new MalformedReplyError(`expected an object of saves in the reply, got ${Array.isArray(payload) ? 'a list' : typeof payload}`);
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
