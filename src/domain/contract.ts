/**
 * What udcli and its sandbox agree on (docs/SERVICE.md, docs/PLATFORM.md), declared once: the client and
 * the CLI's checks read these values before anything is sent, the sandbox reads the same values
 * to check what it receives (the parameter declarations of parameters.ts, src/sandbox/schemas.ts),
 * and its OpenAPI document is generated from those declarations (the endpoint table, endpoints.ts). A value changed
 * here changes what the CLI
 * refuses, what the sandbox refuses and what the description says, together.
 *
 * Free of Node built-ins except Buffer, so the CLI can import it at start-up.
 */

// --- names --------------------------------------------------------------------------------------

/** The service's routes under API_PREFIX (domain/types.ts), each followed by `/{element}.json` (or `.xml`). */
export const ROUTES = {
  authenticate: 'authenticate/user',
  users: 'users',
  friends: 'friends',
  definitions: 'achievements',
  userAchievements: 'achievements/user',
  products: 'products/user',
  saves: 'gamesave',
} as const;

/**
 * The names of the service's parameters (spec section 4, docs/SERVICE.md), in the query or a form
 * body alike: the client sends these and the declarations (parameters.ts) take them.
 */
export const PARAMS = {
  aid: 'aid',
  apiKey: 'api_key',
  authToken: 'auth_token',
  data: 'data',
  decrement: 'decrement',
  devId: 'dev_id',
  developerId: 'developer_id',
  filter: 'filter',
  gameId: 'game_id',
  increment: 'increment',
  key: 'key',
  limit: 'limit',
  match: 'match',
  method: 'method',
  offset: 'offset',
  order: 'order',
  page: 'page',
  parentId: 'parent_id',
  pid: 'pid',
  progress: 'progress',
  qty: 'qty',
  reset: 'reset',
  sku: 'sku',
  sort: 'sort',
  type: 'type',
  userId: 'user_id',
  username: 'username',
} as const;

/** The sandbox site's login and token generator (SERVICE.md: Tokens and the site), outside the API prefix. */
export const LOGIN_PATH = '/login';
export const TOKEN_GENERATOR_PATH = '/service/user-auth-token-generator';

/** The body type the platform's SDK sends a change in (SERVICE.md: Parameters in the query or a form body). */
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/**
 * The user fields the users service gives anyone (spec 2.4 and 4.5): without a valid api_key a
 * user is these alone (plus plays_game for the key's launchable game). The service never fails
 * on a bad key, so a reply reduced to these is the only sign a key was refused.
 */
export const PUBLIC_USER_FIELDS = ['uid', 'username', 'avatar'] as const;

/** What a parent (`type`) is: a game, or a website; `Game` when not given. */
export const PARENT_TYPES = ['Game', 'Website'] as const;
export type ParentType = (typeof PARENT_TYPES)[number];

// --- bounds -------------------------------------------------------------------------------------

export const LIMITS = {
  /** `limit` default 500; larger values count as 500 (SERVICE.md: Users and friends). */
  friends: { defaultLimit: 500, maxLimit: 500 },
  /** `limit` default 100, at most 1000 (SERVICE.md: Achievements). */
  userAchievements: { defaultLimit: 100, maxLimit: 1000 },
  /** Largest increment, qty, offset or page accepted. */
  maxCount: 1_000_000_000,
  /** Longest developer_id, sku, username or match accepted. */
  idLength: 128,
} as const;

/** A game (or website) id as the sandbox takes it: letters, digits, `-`, `_`, `.`, at most 64. */
export const GAME_ID_PATTERN = '^[A-Za-z0-9_.-]{1,64}$';
const GAME_ID = new RegExp(GAME_ID_PATTERN);
export const isGameId = (value: string): boolean => GAME_ID.test(value);

// --- orders and filters of the user achievements list -----------------------------------------

export const ORDERS = ['started_date', 'completed_date', 'state', 'parent_id', 'percent_complete', 'name'] as const;
export type ListOrder = (typeof ORDERS)[number];
export const DEFAULT_ORDER: ListOrder = 'started_date';

export const SORTS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORTS)[number];
export const DEFAULT_SORT: SortDirection = 'desc';

/**
 * `name` and `parent` match a substring (any case); `state` and `parent_id` exactly; `percent_complete` a number with a
 * comparator.
 */
export const FILTERS = ['parent', 'name', 'percent_complete', 'state', 'parent_id'] as const;
export type ListFilterKind = (typeof FILTERS)[number];
export const COMPARATORS = ['=', '>', '>=', '<', '<='] as const;
export type Comparator = (typeof COMPARATORS)[number];

// --- states -------------------------------------------------------------------------------------

/**
 * A user's quest (SERVICE.md: Achievements, the platform's JavaScript pages): `In Progress` below
 * its target, `Completed`, `Revoked` (only from a data file). A quest never touched has no state
 * on the wire (the CLI's `Not Started` is its own word: domain/quests.ts).
 */
export const QUEST_STATES = ['In Progress', 'Completed', 'Revoked'] as const;
export type QuestState = (typeof QUEST_STATES)[number];

/** A definition's state: `Inactive` ones are hidden from users. */
export const DEFINITION_STATES = ['Active', 'Inactive'] as const;
export type DefinitionState = (typeof DEFINITION_STATES)[number];

// --- game saves ---------------------------------------------------------------------------------

/** Game saves (SERVICE.md: Game saves; docs/PLATFORM.md): per user and game, a key names a string value. */
export const SAVE_LIMITS = {
  /** 1–64 characters of `A-Z a-z 0-9 _ . -`. */
  keyPattern: '^[A-Za-z0-9_.-]{1,64}$',
  keyMaxLength: 64,
  /** A value's size in UTF-8 bytes (256 KiB). */
  valueMaxBytes: 256 * 1024,
  keysPerGame: 100,
} as const;

const SAVE_KEY = new RegExp(SAVE_LIMITS.keyPattern);
// A lone UTF-16 surrogate has no UTF-8 form: the server would store something else.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isSaveKey = (key: string): boolean => SAVE_KEY.test(key);

export const saveBytes = (value: string): number => Buffer.byteLength(value, 'utf8');

export const hasLoneSurrogate = (value: string): boolean => LONE_SURROGATE.test(value);

/**
 * Why a value cannot be saved (its size or a lone surrogate), or null when it can. Emptiness is the caller's: the API
 * requires `data`.
 */
export function saveValueProblem(value: string): string | null {
  if (hasLoneSurrogate(value)) return 'not valid Unicode text (a lone surrogate)';
  const bytes = saveBytes(value);
  if (bytes > SAVE_LIMITS.valueMaxBytes)
    return `${bytes} bytes of UTF-8; at most ${SAVE_LIMITS.valueMaxBytes} (256 KiB)`;
  return null;
}

// --- signing schemes ----------------------------------------------------------------------------

/** The two schemes (SERVICE.md: Signatures): the platform's `agi` challenge, and our `hmac-sha256-v1`. */
export const SCHEMES = ['agi', 'hmac-sha256-v1'] as const;
export type Scheme = (typeof SCHEMES)[number];

/** What a profile signs with (`signing_scheme`): a scheme, or `none`. */
export const SIGNING_SCHEMES = [...SCHEMES, 'none'] as const;
export type SigningScheme = (typeof SIGNING_SCHEMES)[number];

/** What a sandbox game accepts: a scheme, or `both`. */
export const GAME_SIGNINGS = [...SCHEMES, 'both'] as const;
export type GameSigning = (typeof GAME_SIGNINGS)[number];
