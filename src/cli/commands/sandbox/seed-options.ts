/** `udcli sandbox seed`'s options: how much to generate, checked before anything is written. */
import { UsageError } from '../../../errors.js';
import { parseInteger } from '../../../ops/args.js';
import { parseDbPath } from './options.js';

export interface SeedOptions {
  db: string | undefined;
  users: number;
  friends: number;
  achievements: number;
  products: number;
  seed: string;
  json: boolean;
}

export interface RawSeedOptions {
  db?: string;
  users?: string;
  friends?: string;
  achievements?: string;
  products?: string;
  seed?: string;
  json?: boolean;
}

export const SEED_DEFAULTS = { users: 1000, friends: 500, achievements: 10, products: 5, seed: '1' } as const;

export function parseSeedOptions(raw: RawSeedOptions): SeedOptions {
  const users =
    raw.users === undefined ? SEED_DEFAULTS.users : parseInteger(raw.users, '--users', { min: 0, max: 5_000_000 });
  const friendsDefault = Math.min(SEED_DEFAULTS.friends, users);
  const friends =
    raw.friends === undefined ? friendsDefault : parseInteger(raw.friends, '--friends', { min: 0, max: 5_000_000 });
  if (friends > users)
    throw new UsageError(
      `--friends (${friends}) cannot be more than --users (${users}): the friends are generated users`,
    );
  const seed = raw.seed ?? SEED_DEFAULTS.seed;
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(seed))
    throw new UsageError(`--seed must be 1-32 letters, digits, - or _, got "${seed}"`);
  const db = parseDbPath(raw.db);
  if (db === ':memory:') throw new UsageError('--db :memory: would be thrown away at once; give a file');
  return {
    db,
    users,
    friends,
    achievements:
      raw.achievements === undefined
        ? SEED_DEFAULTS.achievements
        : parseInteger(raw.achievements, '--achievements', { min: 0, max: 10_000 }),
    products:
      raw.products === undefined
        ? SEED_DEFAULTS.products
        : parseInteger(raw.products, '--products', { min: 0, max: 10_000 }),
    seed,
    json: raw.json === true,
  };
}
