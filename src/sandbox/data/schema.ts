/**
 * The JSON Schema of a sandbox data file (YAML or JSON, one shape): games with their keys,
 * achievements and products, then users with friends, plays, progress, holdings and game saves.
 * Checks the shape; what the shape cannot say (duplicates, names that must exist, target above
 * start, a save's size in bytes) is checked in validate.ts. `udcli sandbox schema` prints this; `sandbox init` points
 * editors at it.
 */
import {
  PARENT_TYPES,
  GAME_ID_PATTERN,
  GAME_SIGNINGS,
  LIMITS,
  QUEST_STATES,
  SAVE_LIMITS,
} from '../../domain/contract.js';
import { LEGACY_IN_PROGRESS } from '../domain/achievements.js';

export const DATA_SCHEMA_ID = 'https://udcli.dev/schemas/sandbox-data-1.json';
/** Where data files point editors: the schema file `sandbox init` writes beside them (works offline). */
export const SCHEMA_FILE_NAME = 'sandbox-data.schema.json';
export const SCHEMA_REFERENCE = `./${SCHEMA_FILE_NAME}`;

const id = { type: 'string', pattern: GAME_ID_PATTERN, description: 'letters, digits, - _ .' };
const text = (maxLength: number, description?: string) => ({
  type: 'string',
  maxLength,
  ...(description ? { description } : {}),
});
const count = (minimum: number) => ({ type: 'integer', minimum, maximum: LIMITS.maxCount });
const dateTime = {
  description: '`YYYY-MM-DD HH:MM:SS` (UTC) or Unix seconds',
  oneOf: [
    { type: 'string', pattern: '^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d$' },
    { type: 'integer', minimum: 0, maximum: 253402300799 },
  ],
};

/**
 * One quest's progress: a bare integer (the current value), or an object with its state and
 * dates. One schema of two types rather than a oneOf: each keyword applies to its own type, so
 * a wrong value gets one plain complaint. `state: Started` and `completed_date: null` (the words
 * of files written before the platform's pages were read) are accepted, loaded as `In Progress`
 * and the zero date, with a warning (legacy.ts).
 */
const progressEntry = {
  type: ['integer', 'object'],
  description: 'the current value, or {value, state, started_date, completed_date}',
  minimum: 0,
  maximum: LIMITS.maxCount,
  additionalProperties: false,
  required: ['value'],
  properties: {
    value: count(0),
    state: {
      enum: [...QUEST_STATES, LEGACY_IN_PROGRESS],
      description: 'default: Completed at target_value, else In Progress; Revoked takes no progress (409)',
    },
    started_date: dateTime,
    completed_date: {
      description: '`YYYY-MM-DD HH:MM:SS` (UTC) or Unix seconds; `0000-00-00 00:00:00` until completed (the default)',
      oneOf: [...dateTime.oneOf, { type: 'null' }],
    },
  },
};

export const DATA_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: DATA_SCHEMA_ID,
  title: 'udcli sandbox data',
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    games: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'name'],
        properties: {
          id,
          type: { enum: [...PARENT_TYPES], default: 'Game' },
          name: text(200),
          launchable: {
            type: 'boolean',
            default: false,
            description: 'plays_game is reported only for launchable games',
          },
          content_uri: {
            type: ['string', 'null'],
            pattern: '^https?://',
            maxLength: 2048,
            description: 'what the play page iframes',
          },
          signing: { enum: [...GAME_SIGNINGS], default: 'agi', description: 'signing schemes the game accepts' },
          keys: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['api_key'],
              properties: {
                api_key: { type: 'string', description: '32 hex digits or UUID form' },
                signing_secret: text(200, 'the secret of hmac-sha256-v1 signatures'),
                partner: {
                  type: 'boolean',
                  default: false,
                  description: 'may omit the signature on achievement changes',
                },
                label: text(200),
              },
            },
          },
          achievements: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['developer_id', 'name', 'target_value'],
              properties: {
                developer_id: { type: 'string', minLength: 1, maxLength: 128 },
                name: text(200),
                description: text(2000),
                admin_description: text(2000),
                icon: text(2048),
                start_value: { ...count(0), default: 0 },
                target_value: count(1),
                score: { ...count(0), default: 0 },
                state: { enum: ['Active', 'Inactive'], default: 'Active' },
                tags: { type: 'object', additionalProperties: { type: 'string', maxLength: 200 } },
              },
            },
          },
          products: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['sku', 'type', 'name', 'price'],
              properties: {
                sku: { type: 'string', minLength: 1, maxLength: 128 },
                type: { enum: ['unlockable', 'consumable'] },
                packs: {
                  type: 'array',
                  minItems: 1,
                  items: count(1),
                  description: 'consumable only: pack sizes, listed as SKU:PACK',
                },
                name: text(200),
                description: text(2000),
                price: { type: 'string', pattern: '^\\d{1,7}\\.\\d\\d$', description: 'e.g. "2.99"' },
                display_order: count(0),
                status: { type: 'string', maxLength: 32, default: 'active' },
                image: text(2048),
              },
            },
          },
        },
      },
    },
    users: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['username'],
        properties: {
          username: { type: 'string', minLength: 1, maxLength: 128 },
          uid: { type: 'string', pattern: '^[0-9a-fA-F]{32}$', description: 'default: md5(username)' },
          gender: text(64),
          created_on: dateTime,
          birthday: { type: 'string', pattern: '^\\d{4}-\\d\\d-\\d\\d$', description: '`0000-00-00` when unknown' },
          premium: { type: 'boolean' },
          email: { type: 'string', maxLength: 254, description: 'shown with a valid api_key only' },
          friends: { type: 'array', items: { type: 'string' }, description: 'usernames; friendship is mutual' },
          plays: { type: 'array', items: id, description: 'games played (plays_game)' },
          progress: {
            type: 'object',
            description: 'game id → developer_id → the current value, or {value, state, started_date, completed_date}',
            additionalProperties: { type: 'object', additionalProperties: progressEntry },
          },
          holdings: {
            type: 'object',
            description: 'game id → sku (a consumable by its base) → units',
            additionalProperties: { type: 'object', additionalProperties: count(0) },
          },
          saves: {
            type: 'object',
            description: `game id → key → the saved value as text (the SDK saves JSON text); at most ${SAVE_LIMITS.keysPerGame} keys a game, each value at most 256 KiB of UTF-8`,
            propertyNames: id,
            additionalProperties: {
              type: 'object',
              maxProperties: SAVE_LIMITS.keysPerGame,
              propertyNames: {
                type: 'string',
                pattern: SAVE_LIMITS.keyPattern,
                description: '1–64 of A-Z a-z 0-9 _ . -',
              },
              // Characters here; validate.ts counts the UTF-8 bytes.
              additionalProperties: { type: 'string', maxLength: SAVE_LIMITS.valueMaxBytes },
            },
          },
        },
      },
    },
  },
} as const;
