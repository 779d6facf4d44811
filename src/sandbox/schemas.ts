/**
 * Request parameters of every endpoint: what their declarations (src/domain/parameters.ts, checked
 * by http/checked-parameters.ts) cannot say. Aliases (`developer_id`/`dev_id`, `parent_id`/
 * `game_id`), one of several (`increment`/`progress`/`reset`), a default that depends on another
 * parameter, the letter case a value is answered in, a range a pattern cannot hold, and the typed
 * value each handler gets. Handlers only see checked values.
 */
import {
  DEFAULT_ORDER,
  DEFAULT_SORT,
  PARAMS,
  PARENT_TYPES,
  saveValueProblem,
  type Comparator,
  type SortDirection,
} from '../domain/contract.js';
import type { ParentType } from '../domain/types.js';
import type { ProgressChange } from './domain/achievements.js';
import { checked, integerParameter, textParameter } from './http/checked-parameters.js';
import { fail } from './http/failure.js';
import type { Query } from './http/query.js';
import { LIMITS, PATH, PATTERNS, QUERY, type ParamSpec } from './http/parameters.js';
import type { ListFilter, ListOrder, ListQuery } from './repositories/achievements.js';

export { LIMITS };

// --- building blocks --------------------------------------------------------------------------

/** A uid or token as declared (32 hex digits), in lower case. */
function hexId(spec: ParamSpec, value: string): string {
  return String(checked(spec, value)).toLowerCase();
}

const requiredHex = (q: Query, spec: ParamSpec): string => hexId(spec, textParameter(q, spec)!);

/** `Game` or `Website`, the letter case as sent not minded, answered as the spec writes it. */
function parentType(q: Query): ParentType {
  const value = textParameter(q, QUERY.type);
  return value === undefined ? 'Game' : PARENT_TYPES.find((t) => t.toLowerCase() === value.toLowerCase())!;
}

const TRUE = new RegExp(PATTERNS.reset);

/** `true` or `1` (any case), or `false` or `0`; absent is false. */
function flag(q: Query, spec: ParamSpec): boolean {
  const value = textParameter(q, spec);
  return value !== undefined && TRUE.test(value);
}

/** The first of a parameter and its aliases that is given (two given: 400), checked by its own declaration. */
function oneOf(q: Query, ...specs: [ParamSpec, ...ParamSpec[]]): string | undefined {
  const given = q.getAny(...specs.map((s) => s.name));
  if (!given) return undefined;
  return String(checked(specs.find((s) => s.name === given.name)!, given.value));
}

/** developer_id, or its alias dev_id (contract). */
function developerId(q: Query, required: boolean): string | undefined {
  const id = oneOf(q, QUERY.developerId, QUERY.devId);
  if (id === undefined && required) throw fail.missingParameter(PARAMS.developerId);
  return id;
}

// --- 4.1 authenticate ---------------------------------------------------------------------------

export interface AuthenticateParams {
  userId: string;
  authToken: string;
}

export function authenticateParams(q: Query): AuthenticateParams {
  return { userId: requiredHex(q, QUERY.userId), authToken: requiredHex(q, QUERY.authToken) };
}

// --- 4.5 users ------------------------------------------------------------------------------------

export type UserLookup = { by: 'uid'; uid: string } | { by: 'username'; username: string };

export function userParams(q: Query, element: string): UserLookup {
  if (flag(q, QUERY.usernameFlag)) {
    if (element.length > LIMITS.idLength) throw fail.invalidParameter(PARAMS.username);
    return { by: 'username', username: element };
  }
  return { by: 'uid', uid: hexId(PATH.uid, element) };
}

// --- 4.6 friends ----------------------------------------------------------------------------------

export interface FriendsParams {
  uid: string;
  limit: number;
  offset: number;
}

export function friendsParams(q: Query, element: string): FriendsParams {
  const uid = hexId(PATH.uid, element);
  const limit = integerParameter(q, QUERY.friendsLimit) ?? LIMITS.friends.defaultLimit;
  const page = integerParameter(q, QUERY.page);
  const offset = integerParameter(q, QUERY.offset) ?? 0;
  // page is 1-based and wins over offset (contract).
  return { uid, limit, offset: page === undefined ? offset : (page - 1) * limit };
}

// --- 4.7 achievement definitions -----------------------------------------------------------------

export type DefinitionsParams =
  | { parentType: ParentType; parentId: string; select: 'all' }
  | { parentType: ParentType; parentId: string; select: 'aid'; aid: number }
  | { parentType: ParentType; parentId: string; select: 'developer_id'; developerId: string };

export function definitionsParams(q: Query, element: string): DefinitionsParams {
  const parentId = String(checked(PATH.parentId, element));
  const type = parentType(q);
  const aid = integerParameter(q, QUERY.aid);
  if (aid !== undefined) return { parentType: type, parentId, select: 'aid', aid };
  const devId = developerId(q, false);
  if (devId !== undefined) return { parentType: type, parentId, select: 'developer_id', developerId: devId };
  return { parentType: type, parentId, select: 'all' };
}

// --- 4.3 user achievements ------------------------------------------------------------------------

export interface UserAchievementTarget {
  uid: string;
  parentType: ParentType;
  parentId: string;
}

/**
 * The user (the path element) and the parent a request names: `type` defaults to Game (the
 * platform's SDK sends none, SERVICE.md: Achievements); the parent id by the first of `specs`
 * given (an alias stands in for the declared name).
 */
function userAndParent(q: Query, element: string, ...specs: [ParamSpec, ...ParamSpec[]]): UserAchievementTarget {
  const uid = hexId(PATH.uid, element);
  const type = parentType(q);
  const parentId = oneOf(q, ...specs);
  if (parentId === undefined) throw fail.missingParameter(specs[0].name);
  return { uid, parentType: type, parentId };
}

/** The list as the SDK asks for it (the repository's query): `pid` may be left out and means the api_key's game. */
export type UserAchievementsListParams = Omit<ListQuery, 'parentId'> & { parentId?: string };

const PERCENT_MATCH = new RegExp(PATTERNS.percentMatch);

function listFilter(q: Query): ListFilter | undefined {
  const kind = textParameter(q, QUERY.filter) as ListFilter['kind'] | undefined;
  if (kind === undefined) {
    if (q.get(PARAMS.match) !== undefined) throw fail.missingParameter(PARAMS.filter);
    return undefined;
  }
  const match = textParameter(q, QUERY.match);
  if (match === undefined) throw fail.missingParameter(PARAMS.match);
  if (kind === 'percent_complete') {
    const m = PERCENT_MATCH.exec(match);
    if (!m)
      throw fail.invalidParameter(PARAMS.match, 'expected a percentage with an optional =, >, >=, < or <= prefix');
    return { kind, comparator: (m[1] ?? '=') as Comparator, value: Number(m[2]) };
  }
  return { kind, match };
}

export function userAchievementsListParams(q: Query, element: string): UserAchievementsListParams {
  const uid = hexId(PATH.uid, element);
  const type = parentType(q);
  const pid = textParameter(q, QUERY.pidOptional);
  // Only a game has a default (the key's own); a website must be named.
  if (pid === undefined && type === 'Website') throw fail.missingParameter(PARAMS.pid);
  const devId = developerId(q, false);
  const order = (textParameter(q, QUERY.order) ?? DEFAULT_ORDER) as ListOrder;
  const sort = (textParameter(q, QUERY.sort) ?? DEFAULT_SORT).toLowerCase() as SortDirection;
  const filter = listFilter(q);
  return {
    uid,
    parentType: type,
    ...(pid === undefined ? {} : { parentId: pid }),
    ...(devId === undefined ? {} : { developerId: devId }),
    ...(filter === undefined ? {} : { filter }),
    order,
    sort,
    limit: integerParameter(q, QUERY.achievementsLimit) ?? LIMITS.userAchievements.defaultLimit,
    offset: integerParameter(q, QUERY.offset) ?? 0,
  };
}

export interface UserAchievementParams extends UserAchievementTarget {
  developerId: string;
}

export function userAchievementParams(q: Query, element: string): UserAchievementParams {
  const target = userAndParent(q, element, QUERY.pidRequired);
  return { ...target, developerId: developerId(q, true)! };
}

export interface UserAchievementPutParams extends UserAchievementParams {
  change: ProgressChange;
}

const CHANGES = [QUERY.increment, QUERY.progress, QUERY.reset] as const;

export function userAchievementPutParams(q: Query, element: string): UserAchievementPutParams {
  const base = userAchievementParams(q, element);
  const given = CHANGES.filter((spec) => q.get(spec.name) !== undefined);
  if (given.length === 0) throw fail.missingParameter('increment, progress or reset');
  if (given.length > 1)
    throw fail.invalidParameter(given.map((s) => s.name).join('/'), 'give exactly one of increment, progress, reset');
  const [spec] = given as [(typeof given)[number]];
  const value = checked(spec, q.get(spec.name)!);
  switch (spec.name) {
    case 'increment':
      return { ...base, change: { kind: 'increment', by: Number(value) } };
    case 'progress': {
      // The pattern says a decimal; that it is at most 1 no pattern says.
      const fraction = Number(value);
      if (!(fraction <= 1)) throw fail.invalidParameter(PARAMS.progress, QUERY.progress.refusal);
      return { ...base, change: { kind: 'progress', fraction } };
    }
    case 'reset':
      return { ...base, change: { kind: 'reset' } };
  }
}

// --- 4.4 products ---------------------------------------------------------------------------------

export type ProductsTarget = UserAchievementTarget;

/** The game: `parent_id`, or `game_id` as the platform's SDK names it (SERVICE.md: Products). */
const productsTarget = (q: Query, element: string): ProductsTarget =>
  userAndParent(q, element, QUERY.parentId, QUERY.gameId);

export interface ProductsListParams extends ProductsTarget {
  sku?: string;
}

export function productsListParams(q: Query, element: string): ProductsListParams {
  const target = productsTarget(q, element);
  const sku = textParameter(q, QUERY.skuFilter);
  return sku === undefined ? target : { ...target, sku };
}

export interface ProductGrantParams extends ProductsTarget {
  sku: string;
  qty: number;
}

export function productGrantParams(q: Query, element: string): ProductGrantParams {
  const target = productsTarget(q, element);
  const sku = textParameter(q, QUERY.sku)!;
  return { ...target, sku, qty: integerParameter(q, QUERY.qty)! };
}

export interface ProductChangeParams extends ProductGrantParams {
  direction: 'increment' | 'decrement';
}

export function productChangeParams(q: Query, element: string): ProductChangeParams {
  const grant = productGrantParams(q, element);
  const increment = flag(q, QUERY.incrementFlag);
  const decrement = flag(q, QUERY.decrementFlag);
  if (increment === decrement) {
    if (increment)
      throw fail.invalidParameter('increment/decrement', 'give exactly one of increment=true, decrement=true');
    throw fail.missingParameter('increment or decrement');
  }
  return { ...grant, direction: increment ? 'increment' : 'decrement' };
}

// --- game saves (SERVICE.md: Game saves) ------------------------------------------------------------

export interface GameSaveReadParams {
  uid: string;
  /** Absent: every save of the user and game. */
  key?: string;
}

export function gameSaveReadParams(q: Query, element: string): GameSaveReadParams {
  const uid = hexId(PATH.uid, element);
  const key = textParameter(q, QUERY.saveKeyOptional);
  return key === undefined ? { uid } : { uid, key };
}

export interface GameSaveEraseParams {
  uid: string;
  key: string;
  authToken: string;
}

export function gameSaveEraseParams(q: Query, element: string): GameSaveEraseParams {
  return {
    uid: hexId(PATH.uid, element),
    key: textParameter(q, QUERY.saveKey)!,
    authToken: requiredHex(q, QUERY.authToken),
  };
}

export interface GameSaveWriteParams extends GameSaveEraseParams {
  data: string;
}

export function gameSaveWriteParams(q: Query, element: string): GameSaveWriteParams {
  const base = gameSaveEraseParams(q, element);
  const data = q.require(PARAMS.data);
  // Its bound is in bytes of UTF-8, which a schema's maxLength (characters) cannot say.
  const problem = saveValueProblem(data);
  if (problem) throw fail.invalidParameter(PARAMS.data, problem);
  return { ...base, data };
}
