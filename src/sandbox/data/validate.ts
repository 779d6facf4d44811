/**
 * What the schema cannot say about a data file: names that must be unique (game ids, api keys,
 * developer_ids and skus within a game, usernames and uids), names that must exist (friends,
 * plays, progress, holdings, saves), target above start, secrets where hmac needs them, a save's
 * key and size (the API's bounds, from src/domain/contract.ts). A file is
 * self-contained: it names only what it defines. Every problem is reported (up to the caller's
 * limit): a Fail that collects throws ItemProblem, which ends the check of that item only.
 */
import { normalizeApiKey, uidForUsername } from '../../domain/ids.js';
import { splitPack } from '../domain/products.js';
import { isSaveKey, saveValueProblem, SAVE_LIMITS } from '../../domain/contract.js';
import { NOT_COMPLETED_DATE } from '../domain/achievements.js';
import type { DataFile, DataGame, DataProgress } from './model.js';

export type DataPath = Array<string | number>;
export type Fail = (path: DataPath, what: string) => never;

/** Thrown by a collecting Fail: the item's check stops there, the next item's goes on. */
export class ItemProblem extends Error {}

/** A forEach callback whose ItemProblem ends that item's check only. */
function each<T>(check: (item: T, i: number) => void): (item: T, i: number) => void {
  return (item, i) => {
    try {
      check(item, i);
    } catch (error) {
      if (!(error instanceof ItemProblem)) throw error;
    }
  };
}

/** Full skus of a product entry: `SKU:PACK` for each pack of a consumable, else the sku. */
export function expandedSkus(p: { sku: string; type: string; packs?: number[] }): string[] {
  return p.type === 'consumable' && p.packs ? p.packs.map((n) => `${p.sku}:${n}`) : [p.sku];
}

interface GameIndex {
  achievements: Map<string, { start: number; target: number }>;
  /** Names a holding may use → kind: unlockable skus, consumable bases and full skus. */
  holdable: Map<string, 'unlockable' | 'consumable'>;
}

function indexGame(game: DataGame, g: number, fail: Fail, keys: Map<string, string>): GameIndex {
  const at = (...rest: DataPath): DataPath => ['games', g, ...rest];
  (game.keys ?? []).forEach(
    each((k, i) => {
      const key = normalizeApiKey(k.api_key);
      if (key === null) fail(at('keys', i, 'api_key'), 'not an api key: expected 32 hex digits or the UUID form');
      const seen = keys.get(key!);
      if (seen) fail(at('keys', i, 'api_key'), `this api key is already given at ${seen}`);
      keys.set(key!, `games[${g}].keys[${i}]`);
      if ((game.signing ?? 'agi') === 'hmac-sha256-v1' && !k.signing_secret) {
        fail(at('keys', i), 'signing_secret is missing: the game accepts hmac-sha256-v1 signing only');
      }
    }),
  );
  const achievements = new Map<string, { start: number; target: number }>();
  (game.achievements ?? []).forEach(
    each((a, i) => {
      if (achievements.has(a.developer_id))
        fail(at('achievements', i, 'developer_id'), `duplicate developer_id "${a.developer_id}" in game ${game.id}`);
      const start = a.start_value ?? 0;
      if (a.target_value <= start)
        fail(at('achievements', i, 'target_value'), `must be an integer greater than start_value (${start})`);
      achievements.set(a.developer_id, { start, target: a.target_value });
    }),
  );
  const skus = new Set<string>();
  const holdable = new Map<string, 'unlockable' | 'consumable'>();
  (game.products ?? []).forEach(
    each((p, i) => {
      if (p.packs && p.type !== 'consumable') fail(at('products', i, 'packs'), 'packs are for consumables only');
      if (p.packs && splitPack(p.sku).pack !== 1)
        fail(at('products', i, 'sku'), 'with packs, give the base sku without :PACK');
      for (const sku of expandedSkus(p)) {
        if (skus.has(sku)) fail(at('products', i, 'sku'), `duplicate sku "${sku}" in game ${game.id}`);
        skus.add(sku);
        holdable.set(sku, p.type);
        if (p.type === 'consumable') holdable.set(splitPack(sku).base, 'consumable');
      }
    }),
  );
  return { achievements, holdable };
}

/** A date of a data file: `YYYY-MM-DD HH:MM:SS` that is a real date, or Unix seconds. */
function isDataDate(value: string | number): boolean {
  return typeof value === 'number' || !Number.isNaN(Date.parse(`${value.replace(' ', 'T')}Z`));
}

/** A quest's progress: its value within the goal, and a state and dates that agree with it. */
function checkProgress(p: DataProgress, valueAt: DataPath, def: { start: number; target: number }, fail: Fail): void {
  const at = valueAt.at(-1) === 'value' ? valueAt.slice(0, -1) : valueAt;
  if (p.value < def.start || p.value > def.target)
    fail(valueAt, `must be from start_value (${def.start}) to target_value (${def.target})`);
  const completedDate = p.completed_date === NOT_COMPLETED_DATE ? undefined : p.completed_date;
  if (p.state === 'Completed' && p.value !== def.target)
    fail([...at, 'state'], `Completed needs the value at target_value (${def.target})`);
  if (p.state === 'In Progress' && p.value >= def.target)
    fail([...at, 'state'], `at target_value (${def.target}) a quest is Completed`);
  const completed = p.state === 'Completed' || (p.state === undefined && p.value >= def.target);
  if (completed && p.completed_date === NOT_COMPLETED_DATE)
    fail([...at, 'completed_date'], 'a Completed quest has a date: give it, or leave it out (the load time)');
  if (completedDate !== undefined && !completed && p.state !== 'Revoked') {
    fail([...at, 'completed_date'], `a quest not completed has ${NOT_COMPLETED_DATE} (or none)`);
  }
  if (completedDate !== undefined && !isDataDate(completedDate)) fail([...at, 'completed_date'], 'not a real date');
  if (p.started_date !== undefined && !isDataDate(p.started_date)) fail([...at, 'started_date'], 'not a real date');
}

export function validateData(data: DataFile, fail: Fail): void {
  const games = new Map<string, GameIndex>();
  const keys = new Map<string, string>();
  (data.games ?? []).forEach(
    each((game, g) => {
      if (games.has(game.id)) fail(['games', g, 'id'], `duplicate game id "${game.id}"`);
      games.set(game.id, indexGame(game, g, fail, keys));
    }),
  );

  const usernames = new Map<string, number>();
  const uids = new Map<string, number>();
  (data.users ?? []).forEach(
    each((u, i) => {
      if (usernames.has(u.username))
        fail(['users', i, 'username'], `duplicate username "${u.username}" (also users[${usernames.get(u.username)}])`);
      usernames.set(u.username, i);
      const uid = (u.uid ?? uidForUsername(u.username)).toLowerCase();
      if (uids.has(uid))
        fail(['users', i, u.uid ? 'uid' : 'username'], `uid ${uid} is already users[${uids.get(uid)}]'s`);
      uids.set(uid, i);
    }),
  );

  (data.users ?? []).forEach(
    each((u, i) => {
      (u.friends ?? []).forEach(
        each((name, f) => {
          if (!usernames.has(name)) fail(['users', i, 'friends', f], `no user named "${name}" in the file`);
          if (name === u.username) fail(['users', i, 'friends', f], 'a user cannot be their own friend');
        }),
      );
      (u.plays ?? []).forEach(
        each((gameId, p) => {
          if (!games.has(gameId)) fail(['users', i, 'plays', p], `no game "${gameId}" in the file`);
        }),
      );
      for (const [gameId, values] of Object.entries(u.progress ?? {})) {
        const game = games.get(gameId);
        if (!game) fail(['users', i, 'progress', gameId], `no game "${gameId}" in the file`);
        for (const [developerId, entry] of Object.entries(values)) {
          const at: DataPath = ['users', i, 'progress', gameId, developerId];
          const def = game!.achievements.get(developerId);
          if (!def) fail(at, `no achievement "${developerId}" in game ${gameId}`);
          checkProgress(
            typeof entry === 'number' ? { value: entry } : entry,
            typeof entry === 'number' ? at : [...at, 'value'],
            def!,
            fail,
          );
        }
      }
      for (const [gameId, held] of Object.entries(u.holdings ?? {})) {
        const game = games.get(gameId);
        if (!game) fail(['users', i, 'holdings', gameId], `no game "${gameId}" in the file`);
        for (const [sku, units] of Object.entries(held)) {
          const kind =
            game!.holdable.get(sku) ??
            (game!.holdable.get(splitPack(sku).base) === 'consumable' ? 'consumable' : undefined);
          if (!kind) fail(['users', i, 'holdings', gameId, sku], `no product "${sku}" in game ${gameId}`);
          if (kind === 'unlockable' && units > 1)
            fail(['users', i, 'holdings', gameId, sku], 'an unlockable is held once: 0 or 1');
        }
      }
      for (const [gameId, saves] of Object.entries(u.saves ?? {})) {
        if (!games.has(gameId)) fail(['users', i, 'saves', gameId], `no game "${gameId}" in the file`);
        const keys = Object.keys(saves);
        if (keys.length > SAVE_LIMITS.keysPerGame)
          fail(['users', i, 'saves', gameId], `at most ${SAVE_LIMITS.keysPerGame} keys per user and game`);
        for (const key of keys) {
          if (!isSaveKey(key))
            fail(
              ['users', i, 'saves', gameId, key],
              `not a save key: 1 to ${SAVE_LIMITS.keyMaxLength} of A-Z a-z 0-9 _ . -`,
            );
          const problem = saveValueProblem(saves[key]!);
          if (problem) fail(['users', i, 'saves', gameId, key], `the value is ${problem}`);
        }
      }
    }),
  );
}
