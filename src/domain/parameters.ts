/**
 * Every request parameter of /services/rest/v1, declared once: the endpoint table (endpoints.ts)
 * names each operation's, the client may send only those, each declaration is its own check
 * (parameter-check.ts: the sandbox's 400s and the CLI's derived commands), and the OpenAPI
 * description is generated from the same declarations, so none of them can drift apart. The values themselves
 * (bounds, orders, filters, the game id and save key forms) are the contract's
 * (src/domain/contract.ts), which the CLI checks against before it sends.
 */

import {
  DEFAULT_ORDER,
  DEFAULT_SORT,
  FILTERS,
  GAME_ID_PATTERN,
  LIMITS,
  ORDERS,
  PARAMS,
  SAVE_LIMITS,
} from './contract.js';

/** A JSON Schema (2020-12) of one parameter's value as sent (always text on the wire). */
export type ValueSchema = Record<string, unknown>;

export interface ParamSpec {
  name: string;
  in: 'query' | 'path';
  /** Required unless another named one stands in (an alias, `one of`): said in the description. */
  required: boolean;
  schema: ValueSchema;
  description: string;
  /** `form`: the platform's SDK sends it in a form body (any parameter may come there; SERVICE.md). */
  sentIn?: 'form';
  /**
   * What the 400 says of a value its pattern refuses, after `invalid parameter: NAME`;
   * `{value}` (or `{value:N}`, cut at N characters) stands for the value as sent.
   */
  refusal?: string;
  /** A larger value counts as this one (the platform's page caps); what it says is the schema's maximum. */
  clampedTo?: number;
}

export { FILTERS, LIMITS, ORDERS };

/** Patterns as JSON Schema writes them (no flags: letter case spelled out). */
export const PATTERNS = {
  hex32: '^[0-9A-Fa-f]{32}$',
  /** Game or website id: letters, digits, '-', '_', '.'. */
  parentId: GAME_ID_PATTERN,
  /** Digits only (an integer as sent). */
  integer: '^[0-9]{1,12}$',
  parentType: '^(?:[Gg][Aa][Mm][Ee]|[Ww][Ee][Bb][Ss][Ii][Tt][Ee])$',
  flag: '^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|1|0)$',
  /** reset=1 (or true) */
  reset: '^(?:1|[Tt][Rr][Uu][Ee])$',
  progress: '^(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)$',
  sort: '^(?:[Aa][Ss][Cc]|[Dd][Ee][Ss][Cc])$',
  percentMatch: '^\\s*(>=|<=|=|>|<)?\\s*(\\d{1,3}(?:\\.\\d+)?)\\s*%?\\s*$',
} as const;

const integer = (minimum: number, maximum: number = LIMITS.maxCount): ValueSchema => ({
  type: 'integer',
  minimum,
  maximum,
});
const text: ValueSchema = { type: 'string', minLength: 1, maxLength: LIMITS.idLength };
const matching = (pattern: string): ValueSchema => ({ type: 'string', pattern });

const q = <const N extends string>(name: N, schema: ValueSchema, description: string, required = false) =>
  ({ name, in: 'query', required, schema, description }) satisfies ParamSpec;

/** The platform's words for a value its pattern refuses (docs/SERVICE.md: Errors). */
const REFUSALS = {
  hex32: 'expected 32 hex digits, got "{value:40}"',
  parentId: 'not a game or website id: "{value}"',
  parentType: 'expected Game or Website, got "{value}"',
  flag: 'expected true or 1, got "{value:20}"',
  progress: 'expected a number from 0.0 to 1.0',
  reset: 'expected 1',
  sort: 'expected asc or desc',
  saveKey: `1 to ${SAVE_LIMITS.keyMaxLength} of A-Z a-z 0-9 _ . -, got "{value:40}"`,
} as const;

/** A page's size: its default, and the cap a larger one counts as. */
const pageLimit = (limits: { defaultLimit: number; maxLimit: number }, what: string) => ({
  ...q(
    PARAMS.limit,
    { ...integer(1), default: limits.defaultLimit },
    `${what} a page; more than ${limits.maxLimit} counts as ${limits.maxLimit}.`,
  ),
  clampedTo: limits.maxLimit,
});

/** A parameter refused in the platform's words. */
const refused = <const S extends ParamSpec>(spec: S, refusal: string) => ({ ...spec, refusal });

/** The path element before `.json`/`.xml`. */
export const PATH = {
  uid: {
    name: 'uid',
    in: 'path',
    required: true,
    schema: matching(PATTERNS.hex32),
    description: 'The user: 32 hex digits.',
    refusal: REFUSALS.hex32,
  },
  userOrName: {
    name: 'uid',
    in: 'path',
    required: true,
    schema: { type: 'string', minLength: 1, maxLength: LIMITS.idLength },
    description: 'The user: a uid (32 hex digits), or a username with `username=true`.',
  },
  parentId: {
    name: PARAMS.parentId,
    in: 'path',
    required: true,
    schema: matching(PATTERNS.parentId),
    description: 'The game (or website) id.',
    refusal: REFUSALS.parentId,
  },
  user: {
    name: 'user',
    in: 'path',
    required: true,
    schema: { type: 'string', enum: ['user'] },
    description: 'The fixed name `user`.',
  },
} as const satisfies Record<string, ParamSpec>;

export const QUERY = {
  apiKey: q(
    PARAMS.apiKey,
    {
      type: 'string',
      pattern: '^(?:[0-9A-Fa-f]{32}|[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})$',
    },
    "The game's api key (32 hex digits, or the UUID form).",
    true,
  ),
  apiKeyOptional: q(
    PARAMS.apiKey,
    { type: 'string' },
    'A valid key shows the full user; without one (or with an unknown one) only uid, username and avatar.',
  ),
  usernameFlag: refused(
    q(PARAMS.username, matching(PATTERNS.flag), '`true` or `1`: the path element is a username, not a uid.'),
    REFUSALS.flag,
  ),
  userId: refused(q(PARAMS.userId, matching(PATTERNS.hex32), 'The uid the token was issued to.', true), REFUSALS.hex32),
  authToken: refused(
    q(PARAMS.authToken, matching(PATTERNS.hex32), 'The token from the token generator.', true),
    REFUSALS.hex32,
  ),
  friendsLimit: pageLimit(LIMITS.friends, 'Friends'),
  achievementsLimit: pageLimit(LIMITS.userAchievements, 'Rows'),
  page: q(PARAMS.page, integer(1), 'A 1-based page of `limit` rows; wins over `offset`.'),
  offset: q(PARAMS.offset, { ...integer(0), default: 0 }, 'Rows to skip.'),
  aid: q(PARAMS.aid, integer(1), 'One achievement by its numeric id.'),
  developerId: q(PARAMS.developerId, text, "One achievement by the developer's id."),
  devId: q(PARAMS.devId, text, 'Alias of `developer_id`: give one of the two, not both (400).'),
  type: refused(
    q(
      PARAMS.type,
      { type: 'string', pattern: PATTERNS.parentType, default: 'Game' },
      '`Game` or `Website` (any letter case).',
    ),
    REFUSALS.parentType,
  ),
  pidRequired: refused(
    q(PARAMS.pid, matching(PATTERNS.parentId), 'The game (or website) id.', true),
    REFUSALS.parentId,
  ),
  pidOptional: refused(
    q(
      PARAMS.pid,
      matching(PATTERNS.parentId),
      "The game (or website) id; default: the api_key's own game (a website must be named).",
    ),
    REFUSALS.parentId,
  ),
  parentId: refused(
    q(PARAMS.parentId, matching(PATTERNS.parentId), 'The game (or website) id; `game_id` is accepted instead.'),
    REFUSALS.parentId,
  ),
  gameId: refused(
    q(
      PARAMS.gameId,
      matching(PATTERNS.parentId),
      'Alias of `parent_id`, as the platform SDK names it: give one of the two, not both (400).',
    ),
    REFUSALS.parentId,
  ),
  order: q(PARAMS.order, { type: 'string', enum: [...ORDERS], default: DEFAULT_ORDER }, 'Sort key.'),
  sort: refused(
    q(PARAMS.sort, { type: 'string', pattern: PATTERNS.sort, default: DEFAULT_SORT }, '`asc` or `desc`.'),
    REFUSALS.sort,
  ),
  filter: q(PARAMS.filter, { type: 'string', enum: [...FILTERS] }, 'Filter kind; needs `match`.'),
  match: q(
    PARAMS.match,
    { ...text, minLength: 0 },
    'What the filter matches; for percent_complete a percentage with an optional =, >, >=, < or <= prefix.',
  ),
  increment: q(PARAMS.increment, integer(1), 'Add this much to the current value (capped at the target).'),
  progress: refused(
    q(PARAMS.progress, matching(PATTERNS.progress), 'Set the progress to this fraction, 0.0 to 1.0.'),
    REFUSALS.progress,
  ),
  reset: refused(q(PARAMS.reset, matching(PATTERNS.reset), 'Back to the start value (`1`).'), REFUSALS.reset),
  skuFilter: q(
    PARAMS.sku,
    text,
    'Only this product: one entry; a consumable named by its base gives its smallest pack with the units held on the base.',
  ),
  sku: q(PARAMS.sku, text, 'The product: its sku, or a consumable by its base or `BASE:PACK`.', true),
  qty: q(PARAMS.qty, integer(1), 'Units; on a grant (POST) naming a pack `BASE:PACK`, packs.', true),
  incrementFlag: refused(
    q(PARAMS.increment, matching(PATTERNS.flag), '`true`: add `qty` units (give exactly one of increment, decrement).'),
    REFUSALS.flag,
  ),
  decrementFlag: refused(
    q(PARAMS.decrement, matching(PATTERNS.flag), '`true`: take `qty` units; more than held is a 409.'),
    REFUSALS.flag,
  ),
  saveKeyOptional: refused(
    q(
      PARAMS.key,
      matching(SAVE_LIMITS.keyPattern),
      'The save: 1–64 of `A-Z a-z 0-9 _ . -`. Without it, every save of the user and game (a sandbox extension).',
    ),
    REFUSALS.saveKey,
  ),
  saveKey: refused(
    q(PARAMS.key, matching(SAVE_LIMITS.keyPattern), 'The save: 1–64 of `A-Z a-z 0-9 _ . -`.', true),
    REFUSALS.saveKey,
  ),
  saveData: {
    ...q(
      PARAMS.data,
      { type: 'string', minLength: 1 },
      `The value to save, as text (the SDK sends JSON in the form body): at most ${SAVE_LIMITS.valueMaxBytes} bytes of UTF-8 (256 KiB), else 400.`,
      true,
    ),
    sentIn: 'form',
  },
} as const satisfies Record<string, ParamSpec>;
