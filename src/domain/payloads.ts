/**
 * The shapes of what the service answers (spec section 2, docs/SERVICE.md), declared once as JSON
 * Schemas: the endpoint table (endpoints.ts) gives each operation its payload, the sandbox's
 * OpenAPI description and `sandbox diff`'s schema check are built from them, the tests check every
 * reply against them, and the TypeScript types of the replies follow from them (types.ts, through
 * schema-type.ts). Plain data: the CLI may import it without loading a schema compiler.
 */
import { PARENT_TYPES, PUBLIC_USER_FIELDS, QUEST_STATES } from './contract.js';

const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;
const num = { type: 'number' } as const;
const bool = { type: 'boolean' } as const;
const nullable = <const S extends object>(schema: S) => ({ anyOf: [schema, { type: 'null' }] }) as const;
const dateTime = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$',
  description: 'YYYY-MM-DD HH:MM:SS, UTC',
} as const;
/** A quest's `completed_date` (the platform's pages): a date-time, or the zero date until completed; never null. */
const completedDate = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$',
  description: 'YYYY-MM-DD HH:MM:SS, UTC; "0000-00-00 00:00:00" until completed (never null)',
} as const;
/** A user's quest states (the platform's pages); Revoked only from a data file. */
const questState = { type: 'string', enum: [...QUEST_STATES] } as const;
const parentType = { type: 'string', enum: [...PARENT_TYPES] } as const;
const percent = {
  type: 'integer',
  minimum: 0,
  maximum: 100,
  description: 'floor(100 * (current - start) / (target - start)); 100 only when Completed',
} as const;

type ObjectSchema<P, R> = { type: 'object'; properties: P; required: R; additionalProperties: false };
/** An object of exactly these properties; all required unless `required` names some. */
function object<const P extends Record<string, object>>(properties: P): ObjectSchema<P, Array<keyof P & string>>;
function object<const P extends Record<string, object>, const R extends ReadonlyArray<keyof P & string>>(
  properties: P,
  required: R,
): ObjectSchema<P, R>;
function object(properties: Record<string, object>, required: readonly string[] = Object.keys(properties)) {
  return { type: 'object', properties, required, additionalProperties: false };
}
const arrayOf = <const S extends object>(items: S) => ({ type: 'array', items }) as const;

/** A user (spec 2.4): the reduced form without a valid key; full with one. */
export const USER = object(
  {
    uid: str,
    username: str,
    avatar: str,
    avatar_med: str,
    avatar_lg: str,
    gender: str,
    birthday: nullable(str),
    premium: bool,
    email: { type: 'string', description: 'Only with a valid api_key; empty when the data has none' },
    created_on: { type: 'string', pattern: '^\\d+$', description: 'Unix seconds, as text' },
    plays_game: { type: 'string', enum: ['0', '1'], description: "Only for the key's launchable game" },
  },
  [...PUBLIC_USER_FIELDS],
);

export const AUTHENTICATED_USER = object({ uid: str, username: str });

export const ACHIEVEMENT_DEFINITION = object({
  id: int,
  developer_id: str,
  parent_id: str,
  type: parentType,
  name: str,
  description: str,
  admin_description: str,
  icon: str,
  start_value: num,
  target_value: num,
  score: num,
  state: str,
  completion_count: int,
  created_date: int,
  updated_date: int,
  tags: { type: 'object', additionalProperties: str },
});

/** A quest the user has started (lists hold no others: a game joins them with its definitions). */
export const USER_ACHIEVEMENT = object({
  id: int,
  uid: str,
  achievement_id: int,
  parent_id: str,
  current_value: num,
  percent_complete: percent,
  state: questState,
  started_date: dateTime,
  completed_date: completedDate,
  updated_date: dateTime,
  developer_id: str,
  type: parentType,
  name: str,
  target_value: num,
});

export const ACHIEVEMENT_UPDATE = object({
  // A reset answers In Progress (and starts a quest never started, like a submit).
  state: questState,
  current_value: num,
  percent_complete: percent,
  developer_id: str,
  score_awarded: num,
  already_completed: bool,
  completed_date: completedDate,
});

export const PRODUCT_ENTRY = object({
  purchase: object({
    success: bool,
    data: {
      anyOf: [{ type: 'integer', minimum: 1 }, { type: 'boolean' }],
      description: 'Units of a consumable, true for a held unlockable, false when not held',
    },
    message: str,
  }),
  product: object({
    id: int,
    sku: str,
    name: str,
    description: str,
    type: str,
    price: { type: 'string', pattern: '^\\d+\\.\\d{2}$' },
    display_order: int,
    data: { anyOf: [{ type: 'array', maxItems: 0 }, object({ consumable_qty: { type: 'integer', minimum: 1 } })] },
    media: object({ image: str }),
    status: str,
    parent_type: { type: 'string', enum: ['game', 'website'] },
    sold: int,
    created_on: dateTime,
    updated_on: dateTime,
  }),
});

/** Game saves (SERVICE.md: Game saves): key → the value as saved (text; the SDK parses it as JSON). */
export const SAVES = {
  type: 'object',
  additionalProperties: str,
  description: 'key → saved value; {} when nothing is saved',
} as const;
export const SAVE_RESULT = object({ key: str, success: { type: 'integer', enum: [1] } });
/** The erase's reply (the platform's storage page): the erased key with the string "deleted". */
export const ERASE_RESULT = {
  type: 'object',
  minProperties: 1,
  maxProperties: 1,
  additionalProperties: { type: 'string', enum: ['deleted'] },
  description: '{"<key>": "deleted"}',
} as const;

export const PAYLOADS = {
  user: USER,
  users: arrayOf(USER),
  authenticated: nullable(AUTHENTICATED_USER),
  definitions: arrayOf(ACHIEVEMENT_DEFINITION),
  userAchievements: arrayOf(USER_ACHIEVEMENT),
  userAchievement: USER_ACHIEVEMENT,
  update: ACHIEVEMENT_UPDATE,
  products: arrayOf(PRODUCT_ENTRY),
  product: PRODUCT_ENTRY,
  saves: SAVES,
  saveResult: SAVE_RESULT,
  eraseResult: ERASE_RESULT,
} as const;

/** The agi challenge (401): what to sign the retry with. */
export const CHALLENGE = object({ session: str, key: str });
