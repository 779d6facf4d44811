/**
 * Generated load data on top of the demo games: many users, one "hub" user with many friends,
 * extra achievements and products on game 1001 (so the demo key reaches them). Deterministic
 * for a given seed: running it twice with the same seed adds no rows (and resets the hub's
 * generated progress and holdings to their generated values).
 * Everything is inserted in one transaction with prepared statements, so 100,000 users and
 * 100,000 friendships take seconds.
 */
import { DEMO } from '../../domain/demo.js';
import { uidForUsername } from '../../domain/ids.js';
import type { SandboxDatabase } from '../database.js';
import { utcSeconds } from '../time.js';
import { insertDemoGames } from './demo.js';
import { demoEmail } from './demo-data.js';
import { createRandom, GENDERS } from './prng.js';

export interface GenerateOptions {
  /** Users to generate (the hub comes on top). */
  users: number;
  /** Friends of the hub user, taken from the generated users; at most `users`. */
  friends: number;
  achievements: number;
  products: number;
  /** Same seed, same data. Letters, digits, '-' and '_' (it is part of usernames and SKUs). */
  seed: string | number;
}

export interface GenerateSummary {
  gameId: string;
  hub: { uid: string; username: string };
  users: number;
  friends: number;
  /** developer_ids of the generated achievements (first few if many). */
  developerIds: string[];
  skus: string[];
  /** A generated username pattern, e.g. "gen1_user_000001". */
  usernamePattern: string;
}

export const GENERATE_LIMITS = { users: 5_000_000, achievements: 10_000, products: 10_000 } as const;

const SEED_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

function check(name: string, value: number, max: number): void {
  if (!Number.isSafeInteger(value) || value < 0 || value > max) {
    throw new RangeError(`${name} must be an integer from 0 to ${max}, got ${value}`);
  }
}

export function seedGenerated(db: SandboxDatabase, options: GenerateOptions): GenerateSummary {
  const seed = String(options.seed);
  if (!SEED_PATTERN.test(seed))
    throw new RangeError(`seed must be 1-32 letters, digits, '-' or '_', got ${JSON.stringify(seed)}`);
  check('users', options.users, GENERATE_LIMITS.users);
  check('friends', options.friends, options.users);
  check('achievements', options.achievements, GENERATE_LIMITS.achievements);
  check('products', options.products, GENERATE_LIMITS.products);

  const { repos } = db;
  const random = createRandom(`udcli-generated-${seed}`);
  const prefix = `gen${seed}`;
  const width = Math.max(6, String(options.users).length);
  const username = (n: number) => `${prefix}_user_${String(n).padStart(width, '0')}`;
  const hub = { username: `${prefix}_hub`, uid: uidForUsername(`${prefix}_hub`) };
  const gameId = DEMO.game.id;
  const from = utcSeconds('2015-01-01 00:00:00');
  const to = utcSeconds('2025-06-30 00:00:00');
  const friendsFrom = utcSeconds('2021-01-01 00:00:00');
  const developerIds: string[] = [];
  const skus: string[] = [];

  db.transaction(() => {
    insertDemoGames(repos);
    repos.users.insert({
      uid: hub.uid,
      username: hub.username,
      gender: 'unspecified',
      createdOn: from,
      email: demoEmail(hub.username),
    });
    repos.users.recordPlay(hub.uid, gameId, from + 86_400);

    for (let n = 1; n <= options.users; n++) {
      const name = username(n);
      const uid = uidForUsername(name);
      const createdOn = random.int(from, to);
      repos.users.insert({ uid, username: name, gender: random.pick(GENDERS), createdOn, email: demoEmail(name) });
      if (random.chance(0.5)) repos.users.recordPlay(uid, gameId, createdOn + 3600);
      // The hub's friends are the first `friends` users, one friendship a minute.
      if (n <= options.friends) repos.users.addFriendship(hub.uid, uid, friendsFrom + n * 60);
    }

    for (let n = 1; n <= options.achievements; n++) {
      const developerId = `GEN${seed.toUpperCase()}_ACH_${String(n).padStart(4, '0')}`;
      const targetValue = random.pick([1, 5, 10, 50, 100, 1000]);
      const id = repos.achievements.insertDefinition({
        parentId: gameId,
        developerId,
        name: `Generated achievement ${seed}-${n}`,
        description: `Generated with seed ${seed}.`,
        adminDescription: '',
        icon: `${developerId.toLowerCase()}.png?v=1`,
        startValue: 0,
        targetValue,
        score: random.int(1, 100),
        state: 'Active',
        tags: { '100': 'generated' },
        createdOn: from,
        updatedOn: from,
      });
      developerIds.push(developerId);
      const value = random.int(0, targetValue);
      const startedOn = random.int(friendsFrom, to);
      repos.achievements.setProgress(hub.uid, id, {
        currentValue: value,
        state: value >= targetValue ? 'Completed' : 'In Progress',
        startedOn,
        completedOn: value >= targetValue ? startedOn + 600 : null,
        updatedOn: startedOn + 600,
      });
    }

    for (let n = 1; n <= options.products; n++) {
      const sku = `${prefix}-item-${String(n).padStart(4, '0')}`;
      const held = random.chance(0.5) ? random.int(1, 20) : 0;
      const id = repos.products.insert({
        parentId: gameId,
        sku,
        name: `Generated item ${seed}-${n}`,
        description: `Generated with seed ${seed}.`,
        type: random.pick(['consumable', 'unlockable']),
        priceCents: random.int(0, 9999),
        displayOrder: 100 + n,
        image: `products/${sku}.png?v=1`,
        status: 'active',
        sold: held,
        createdOn: from,
        updatedOn: from,
      });
      skus.push(sku);
      if (held > 0) repos.products.setQuantity(hub.uid, id, held, to);
    }
  });

  return {
    gameId,
    hub,
    users: options.users,
    friends: options.friends,
    developerIds,
    skus,
    usernamePattern: username(1),
  };
}
