/**
 * Request parameters of every endpoint: each parser reads the query (and the path element),
 * checks it against the contract and returns a typed value, or throws the 400 of the contract
 * (`missing parameter: NAME` / `invalid parameter: NAME`). Handlers only see checked values.
 */
import { normalizeHex32 } from '../domain/ids.js';
import {
  DEFAULT_ORDER,
  DEFAULT_SORT,
  PARAMS,
  PARENT_TYPES,
  isSaveKey,
  saveValueProblem,
  SAVE_LIMITS,
  SORTS,
  type Comparator,
  type ListOrder,
  type SortDirection,
} from '../domain/contract.js';
import type { ParentType } from '../domain/types.js';
import type { ProgressChange } from './domain/achievements.js';
import { fail, shown } from './http/failure.js';
import type { Query } from './http/query.js';
import { bounds, FILTERS, LIMITS, ORDERS, PATTERNS, QUERY, type ParamSpec } from './http/parameters.js';
import type { ListFilter, ListQuery } from './repositories/achievements.js';

export { LIMITS };

// --- building blocks --------------------------------------------------------------------------

export function hexId(name: string, value: string | undefined): string {
  if (value === undefined) throw fail.missingParameter(name);
  const id = normalizeHex32(value);
  if (!id) throw fail.invalidParameter(name, `expected 32 hex digits, got "${shown(value, 40)}"`);
  return id;
}

const INTEGER = new RegExp(PATTERNS.integer);
const PARENT_ID = new RegExp(PATTERNS.parentId);

function integer(name: string, value: string, min: number, max: number = LIMITS.maxCount): number {
  if (!INTEGER.test(value)) throw fail.invalidParameter(name, `expected an integer, got "${shown(value, 20)}"`);
  const n = Number(value);
  if (n < min) throw fail.invalidParameter(name, `must be at least ${min}`);
  if (n > max) throw fail.invalidParameter(name, `must be at most ${max}`);
  return n;
}

/** An integer parameter, within the bounds its declaration gives. */
function integerOf(spec: ParamSpec, value: string): number {
  const { minimum, maximum } = bounds(spec);
  return integer(spec.name, value, minimum, maximum);
}

function optionalInteger(q: Query, spec: ParamSpec): number | undefined {
  const value = q.get(spec.name);
  return value === undefined ? undefined : integerOf(spec, value);
}

/** Game or website id: letters, digits, '-', '_', '.'. */
function parentIdValue(name: string, value: string | undefined): string {
  if (value === undefined) throw fail.missingParameter(name);
  if (!PARENT_ID.test(value)) throw fail.invalidParameter(name, `not a game or website id: "${shown(value)}"`);
  return value;
}

/** `Game` or `Website` (any case accepted, emitted as written in the spec). */
function parentType(q: Query, name: string = PARAMS.type): ParentType {
  const value = q.get(name);
  if (value === undefined) return 'Game';
  return parentTypeValue(name, value);
}

/** `Game` or `Website` as declared (PARENT_TYPES), the letter case as sent not minded. */
function parentTypeValue(name: string, value: string): ParentType {
  const type = PARENT_TYPES.find((t) => t.toLowerCase() === value.toLowerCase());
  if (!type) throw fail.invalidParameter(name, `expected Game or Website, got "${shown(value)}"`);
  return type;
}

function text(name: string, value: string | undefined): string {
  if (value === undefined) throw fail.missingParameter(name);
  if (value.length > LIMITS.idLength) throw fail.invalidParameter(name, `longer than ${LIMITS.idLength} characters`);
  return value;
}

const FLAG = new RegExp(PATTERNS.flag);
const RESET = new RegExp(PATTERNS.reset);

/** `true` or `1` (any case), or `false` or `0` (PATTERNS.flag); absent is false. */
function flag(q: Query, name: string): boolean {
  const value = q.get(name);
  if (value === undefined) return false;
  if (!FLAG.test(value)) throw fail.invalidParameter(name, `expected true or 1, got "${shown(value, 20)}"`);
  return RESET.test(value);
}

/** developer_id, or its alias dev_id (contract). */
function developerId(q: Query, required: boolean): string | undefined {
  const given = q.getAny(PARAMS.developerId, PARAMS.devId);
  if (!given) {
    if (required) throw fail.missingParameter(PARAMS.developerId);
    return undefined;
  }
  return text(given.name, given.value);
}

// --- 4.1 authenticate ---------------------------------------------------------------------------

export interface AuthenticateParams {
  userId: string;
  authToken: string;
}

export function authenticateParams(q: Query): AuthenticateParams {
  return {
    userId: hexId(PARAMS.userId, q.get(PARAMS.userId)),
    authToken: hexId(PARAMS.authToken, q.get(PARAMS.authToken)),
  };
}

// --- 4.5 users ------------------------------------------------------------------------------------

export type UserLookup = { by: 'uid'; uid: string } | { by: 'username'; username: string };

export function userParams(q: Query, element: string): UserLookup {
  if (flag(q, PARAMS.username)) {
    if (element.length === 0 || element.length > LIMITS.idLength) throw fail.invalidParameter(PARAMS.username);
    return { by: 'username', username: element };
  }
  return { by: 'uid', uid: hexId('uid', element) };
}

// --- 4.6 friends ----------------------------------------------------------------------------------

export interface FriendsParams {
  uid: string;
  limit: number;
  offset: number;
}

export function friendsParams(q: Query, element: string): FriendsParams {
  const uid = hexId('uid', element);
  const { defaultLimit, maxLimit } = LIMITS.friends;
  const limit = Math.min(maxLimit, optionalInteger(q, QUERY.friendsLimit) ?? defaultLimit);
  const page = optionalInteger(q, QUERY.page);
  const offset = optionalInteger(q, QUERY.offset) ?? 0;
  // page is 1-based and wins over offset (contract).
  return { uid, limit, offset: page === undefined ? offset : (page - 1) * limit };
}

// --- 4.7 achievement definitions -----------------------------------------------------------------

export type DefinitionsParams =
  | { parentType: ParentType; parentId: string; select: 'all' }
  | { parentType: ParentType; parentId: string; select: 'aid'; aid: number }
  | { parentType: ParentType; parentId: string; select: 'developer_id'; developerId: string };

export function definitionsParams(q: Query, element: string): DefinitionsParams {
  const parentId = parentIdValue(PARAMS.parentId, element);
  const type = parentType(q);
  const aid = optionalInteger(q, QUERY.aid);
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
 * platform's SDK sends none, SERVICE.md: Achievements); the parent id by the first of `names`
 * given (an alias stands in for the declared name).
 */
function userAndParent(q: Query, element: string, ...names: [string, ...string[]]): UserAchievementTarget {
  const uid = hexId('uid', element);
  const type = parentType(q);
  const given = q.getAny(...names);
  return { uid, parentType: type, parentId: parentIdValue(given?.name ?? names[0], given?.value) };
}

/** The list as the SDK asks for it (the repository's query): `pid` may be left out and means the api_key's game. */
export type UserAchievementsListParams = Omit<ListQuery, 'parentId'> & { parentId?: string };

const PERCENT_MATCH = new RegExp(PATTERNS.percentMatch);

function listFilter(q: Query): ListFilter | undefined {
  const filter = q.get(PARAMS.filter);
  const match = q.get(PARAMS.match);
  if (filter === undefined) {
    if (match !== undefined) throw fail.missingParameter(PARAMS.filter);
    return undefined;
  }
  const kind = FILTERS.find((f) => f === filter);
  if (!kind) throw fail.invalidParameter(PARAMS.filter, `expected one of ${FILTERS.join(', ')}`);
  if (match === undefined) throw fail.missingParameter(PARAMS.match);
  if (match.length > LIMITS.idLength)
    throw fail.invalidParameter(PARAMS.match, `longer than ${LIMITS.idLength} characters`);
  if (kind === 'percent_complete') {
    const m = PERCENT_MATCH.exec(match);
    if (!m)
      throw fail.invalidParameter(PARAMS.match, 'expected a percentage with an optional =, >, >=, < or <= prefix');
    return { kind, comparator: (m[1] ?? '=') as Comparator, value: Number(m[2]) };
  }
  return { kind, match };
}

export function userAchievementsListParams(q: Query, element: string): UserAchievementsListParams {
  const uid = hexId('uid', element);
  const type = parentType(q);
  const pid = q.get(PARAMS.pid);
  // Only a game has a default (the key's own); a website must be named.
  if (pid === undefined && type === 'Website') throw fail.missingParameter(PARAMS.pid);
  const target = { uid, parentType: type, ...(pid === undefined ? {} : { parentId: parentIdValue(PARAMS.pid, pid) }) };
  const devId = developerId(q, false);
  const orderValue = q.get(PARAMS.order) ?? DEFAULT_ORDER;
  const order: ListOrder | undefined = ORDERS.find((o) => o === orderValue);
  if (!order) throw fail.invalidParameter(PARAMS.order, `expected one of ${ORDERS.join(', ')}`);
  const sortValue = (q.get(PARAMS.sort) ?? DEFAULT_SORT).toLowerCase();
  const sort: SortDirection | undefined = SORTS.find((s) => s === sortValue);
  if (!sort) throw fail.invalidParameter(PARAMS.sort, 'expected asc or desc');
  const { defaultLimit, maxLimit } = LIMITS.userAchievements;
  const filter = listFilter(q);
  return {
    ...target,
    ...(devId === undefined ? {} : { developerId: devId }),
    ...(filter === undefined ? {} : { filter }),
    order,
    sort,
    limit: Math.min(maxLimit, optionalInteger(q, QUERY.achievementsLimit) ?? defaultLimit),
    offset: optionalInteger(q, QUERY.offset) ?? 0,
  };
}

export interface UserAchievementParams extends UserAchievementTarget {
  developerId: string;
}

export function userAchievementParams(q: Query, element: string): UserAchievementParams {
  const target = userAndParent(q, element, PARAMS.pid);
  return { ...target, developerId: developerId(q, true)! };
}

export interface UserAchievementPutParams extends UserAchievementParams {
  change: ProgressChange;
}

const PROGRESS = new RegExp(PATTERNS.progress);

export function userAchievementPutParams(q: Query, element: string): UserAchievementPutParams {
  const base = userAchievementParams(q, element);
  const given = ([PARAMS.increment, PARAMS.progress, PARAMS.reset] as const).filter(
    (name) => q.get(name) !== undefined,
  );
  if (given.length === 0) throw fail.missingParameter('increment, progress or reset');
  if (given.length > 1) throw fail.invalidParameter(given.join('/'), 'give exactly one of increment, progress, reset');
  const [name] = given as [(typeof given)[number]];
  const value = q.get(name)!;
  switch (name) {
    case 'increment':
      return { ...base, change: { kind: 'increment', by: integerOf(QUERY.increment, value) } };
    case 'progress': {
      if (!PROGRESS.test(value)) throw fail.invalidParameter(PARAMS.progress, 'expected a number from 0.0 to 1.0');
      const fraction = Number(value);
      if (!(fraction >= 0 && fraction <= 1))
        throw fail.invalidParameter(PARAMS.progress, 'expected a number from 0.0 to 1.0');
      return { ...base, change: { kind: 'progress', fraction } };
    }
    case 'reset':
      if (!RESET.test(value)) throw fail.invalidParameter(PARAMS.reset, 'expected 1');
      return { ...base, change: { kind: 'reset' } };
  }
}

// --- 4.4 products ---------------------------------------------------------------------------------

export type ProductsTarget = UserAchievementTarget;

/** The game: `parent_id`, or `game_id` as the platform's SDK names it (SERVICE.md: Products). */
const productsTarget = (q: Query, element: string): ProductsTarget =>
  userAndParent(q, element, PARAMS.parentId, PARAMS.gameId);

export interface ProductsListParams extends ProductsTarget {
  sku?: string;
}

export function productsListParams(q: Query, element: string): ProductsListParams {
  const target = productsTarget(q, element);
  const sku = q.get(PARAMS.sku);
  return sku === undefined ? target : { ...target, sku: text(PARAMS.sku, sku) };
}

export interface ProductGrantParams extends ProductsTarget {
  sku: string;
  qty: number;
}

export function productGrantParams(q: Query, element: string): ProductGrantParams {
  const target = productsTarget(q, element);
  const sku = text(PARAMS.sku, q.get(PARAMS.sku));
  return { ...target, sku, qty: integerOf(QUERY.qty, q.require(QUERY.qty.name)) };
}

export interface ProductChangeParams extends ProductGrantParams {
  direction: 'increment' | 'decrement';
}

export function productChangeParams(q: Query, element: string): ProductChangeParams {
  const grant = productGrantParams(q, element);
  const increment = flag(q, PARAMS.increment);
  const decrement = flag(q, PARAMS.decrement);
  if (increment === decrement) {
    if (increment)
      throw fail.invalidParameter('increment/decrement', 'give exactly one of increment=true, decrement=true');
    throw fail.missingParameter('increment or decrement');
  }
  return { ...grant, direction: increment ? 'increment' : 'decrement' };
}

// --- game saves (SERVICE.md: Game saves) ------------------------------------------------------------

function saveKey(value: string | undefined): string {
  if (value === undefined) throw fail.missingParameter(PARAMS.key);
  if (!isSaveKey(value))
    throw fail.invalidParameter(
      PARAMS.key,
      `1 to ${SAVE_LIMITS.keyMaxLength} of A-Z a-z 0-9 _ . -, got "${shown(value, 40)}"`,
    );
  return value;
}

export interface GameSaveReadParams {
  uid: string;
  /** Absent: every save of the user and game. */
  key?: string;
}

export function gameSaveReadParams(q: Query, element: string): GameSaveReadParams {
  const uid = hexId('uid', element);
  const key = q.get(PARAMS.key);
  return key === undefined ? { uid } : { uid, key: saveKey(key) };
}

export interface GameSaveEraseParams {
  uid: string;
  key: string;
  authToken: string;
}

export function gameSaveEraseParams(q: Query, element: string): GameSaveEraseParams {
  return {
    uid: hexId('uid', element),
    key: saveKey(q.get(PARAMS.key)),
    authToken: hexId(PARAMS.authToken, q.get(PARAMS.authToken)),
  };
}

export interface GameSaveWriteParams extends GameSaveEraseParams {
  data: string;
}

export function gameSaveWriteParams(q: Query, element: string): GameSaveWriteParams {
  const base = gameSaveEraseParams(q, element);
  const data = q.require(PARAMS.data);
  const problem = saveValueProblem(data);
  if (problem) throw fail.invalidParameter(PARAMS.data, problem);
  return { ...base, data };
}
