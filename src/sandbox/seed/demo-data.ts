/**
 * The demo data set: what `udcli sandbox info`, the docs and the tests can name. Pure data
 * (no database code), so `sandbox info` shows it without loading SQLite.
 * Credentials come from DEMO (src/domain/demo.ts); dates are UTC.
 */
import { uidForUsername } from '../../domain/ids.js';
import { DEMO } from '../../domain/demo.js';
import type { DefinitionState, GameSigning } from '../../domain/contract.js';

export interface DemoGame {
  id: string;
  name: string;
  launchable: boolean;
  /** Signing schemes accepted (SERVICE.md: Signatures): 1001 both, 1002 agi only, like the platform. */
  signing: GameSigning;
  apiKey: string;
  signingSecret: string;
}

export interface DemoUser {
  username: string;
  uid: string;
  gender: string;
  createdOn: string;
  /** `YYYY-MM-DD`; unknown (`0000-00-00`) when absent. */
  birthday?: string;
  premium?: boolean;
  /** Under the reserved test domain (RFC 6761), so no mail can ever reach anyone. */
  email: string;
  /** Games played (plays_game). */
  plays: string[];
  note: string;
}

export interface DemoAchievement {
  gameId: string;
  developerId: string;
  name: string;
  description: string;
  adminDescription?: string;
  startValue: number;
  targetValue: number;
  score: number;
  state: DefinitionState;
  tags: Record<string, string>;
}

export interface DemoProduct {
  gameId: string;
  sku: string;
  name: string;
  description: string;
  type: string;
  price: string;
}

const named = (
  username: string,
  gender: string,
  createdOn: string,
  plays: string[],
  note: string,
  extras: Pick<DemoUser, 'birthday' | 'premium'> = {},
): DemoUser => ({
  username,
  uid: uidForUsername(username),
  gender,
  createdOn,
  ...extras,
  email: demoEmail(username),
  plays,
  note,
});

/** A demo user's email (SERVICE.md: Users): the reserved `example.test` domain. */
export function demoEmail(username: string): string {
  return `${username}@example.test`;
}

/** Friends of demo_player, by creation of the friendship. */
export const DEMO_FRIEND_COUNT = 1200;
export const DEMO_USER_COUNT = 1500;
/** Generated users are player_0001 … player_1495. */
export const GENERATED_USER_PREFIX = 'player_';

export interface DemoFacts {
  games: DemoGame[];
  partner: { gameId: string; apiKey: string; signingSecret: string };
  /** The named users; the others are generated (see generatedUsers). */
  users: DemoUser[];
  generatedUsers: string;
  userCount: number;
  achievements: DemoAchievement[];
  products: DemoProduct[];
}

export const DEMO_FACTS: DemoFacts = {
  games: [
    {
      id: DEMO.game.id,
      name: DEMO.game.name,
      launchable: true,
      signing: 'both',
      apiKey: DEMO.game.apiKey,
      signingSecret: DEMO.game.signingSecret,
    },
    {
      id: DEMO.secondGame.id,
      name: DEMO.secondGame.name,
      launchable: false,
      signing: 'agi',
      apiKey: DEMO.secondGame.apiKey,
      signingSecret: DEMO.secondGame.signingSecret,
    },
  ],
  /** A partner key of game 1001: may omit the signature on achievement PUTs (never on products). */
  partner: { gameId: DEMO.partner.gameId, apiKey: DEMO.partner.apiKey, signingSecret: DEMO.partner.signingSecret },
  users: [
    named(
      DEMO.user.username,
      'male',
      '2020-03-14 12:00:00',
      [DEMO.game.id],
      '1,200 friends; FIRST_WIN completed, COLLECT_1000_GEMS 250/1000 and LEVEL_10 4/10 In Progress, the rest not started (not in the list); holds sword-of-dawn and 250 gems; premium',
      { birthday: '1990-04-12', premium: true },
    ),
    named(
      'alice',
      'female',
      '2018-06-01 09:30:00',
      [DEMO.game.id],
      'friend of demo_player; FIRST_WIN and SPEED RUN/100% completed; holds 2 xp-boost',
      { birthday: '1995-08-23' },
    ),
    named(
      'bob',
      'male',
      '2019-11-20 18:45:00',
      [DEMO.game.id, DEMO.secondGame.id],
      'friend of demo_player; COLLECT_1000_GEMS 999/1000; holds 30 gold-pack_10',
    ),
    named('carol', 'non-binary', '2021-02-02 08:00:00', [], 'friend of demo_player; never played'),
    named(
      'dave',
      'unspecified',
      '2022-07-07 07:07:07',
      [DEMO.secondGame.id],
      'not a friend of demo_player; plays Puzzle Lab only',
    ),
  ],
  generatedUsers: `${GENERATED_USER_PREFIX}0001 … ${GENERATED_USER_PREFIX}1495`,
  userCount: DEMO_USER_COUNT,
  achievements: [
    {
      gameId: '1001',
      developerId: 'FIRST_WIN',
      name: 'First Victory',
      description: 'Win your first battle.',
      startValue: 0,
      targetValue: 1,
      score: 10,
      state: 'Active',
      tags: { '1': 'combat', '2': 'starter' },
    },
    {
      gameId: '1001',
      developerId: 'COLLECT_1000_GEMS',
      name: 'Gem Hoarder',
      description: 'Collect 1,000 gems.',
      startValue: 0,
      targetValue: 1000,
      score: 50,
      state: 'Active',
      tags: { '3': 'collection' },
    },
    {
      gameId: '1001',
      developerId: 'LEVEL_10',
      name: 'Seasoned Adventurer',
      description: 'Reach level 10.',
      startValue: 1,
      targetValue: 10,
      score: 20,
      state: 'Active',
      tags: { '4': 'progression' },
    },
    {
      gameId: '1001',
      developerId: 'SPEED RUN/100%',
      name: 'Speed Runner',
      description: 'Clear the first dungeon at full speed.',
      startValue: 0,
      targetValue: 100,
      score: 40,
      state: 'Active',
      tags: { '5': 'challenge' },
    },
    {
      gameId: '1001',
      developerId: 'DAILY_STREAK_7',
      name: 'Faithful',
      description: 'Play seven days in a row.',
      startValue: 0,
      targetValue: 7,
      score: 15,
      state: 'Active',
      tags: { '6': 'daily' },
    },
    {
      gameId: '1001',
      developerId: 'SECRET_ROOM',
      name: 'Behind the Waterfall',
      description: 'Find the hidden room.',
      startValue: 0,
      targetValue: 1,
      score: 25,
      state: 'Active',
      tags: { '7': 'secret', '8': 'exploration' },
    },
    {
      gameId: '1001',
      developerId: 'BETA_TESTER',
      name: 'Beta Tester',
      description: 'Played during the beta.',
      adminDescription: 'Retired after the beta; hidden from players.',
      startValue: 0,
      targetValue: 1,
      score: 5,
      state: 'Inactive',
      tags: { '9': 'legacy' },
    },
    {
      gameId: '1002',
      developerId: 'FIRST_SOLVE',
      name: 'First Solve',
      description: 'Solve your first puzzle.',
      startValue: 0,
      targetValue: 1,
      score: 10,
      state: 'Active',
      tags: { '1': 'starter' },
    },
    {
      gameId: '1002',
      developerId: 'PUZZLE_MASTER',
      name: 'Puzzle Master',
      description: 'Solve 50 puzzles.',
      startValue: 0,
      targetValue: 50,
      score: 30,
      state: 'Active',
      tags: { '2': 'mastery' },
    },
  ],
  products: [
    {
      gameId: '1001',
      sku: 'gold-pack_10',
      name: 'Pack of 10 Gold',
      description: 'Ten gold coins.',
      type: 'consumable',
      price: '0.99',
    },
    {
      gameId: '1001',
      sku: 'sword-of-dawn',
      name: 'Sword of Dawn',
      description: 'A blade that shines at first light.',
      type: 'unlockable',
      price: '4.99',
    },
    {
      gameId: '1001',
      sku: 'xp-boost',
      name: 'XP Boost',
      description: 'Double experience for one hour.',
      type: 'consumable',
      price: '1.99',
    },
    {
      gameId: '1001',
      sku: 'héros+épée',
      name: 'Épée du héros',
      description: 'A hero’s sword (a SKU with non-ASCII characters).',
      type: 'unlockable',
      price: '2.49',
    },
    // One consumable in two pack sizes (the platform's BASE:PACK skus): units are counted on `gems`.
    {
      gameId: '1001',
      sku: 'gems:100',
      name: 'Pouch of 100 Gems',
      description: 'A hundred gems.',
      type: 'consumable',
      price: '0.99',
    },
    {
      gameId: '1001',
      sku: 'gems:500',
      name: 'Chest of 500 Gems',
      description: 'Five hundred gems.',
      type: 'consumable',
      price: '3.99',
    },
    {
      gameId: '1001',
      sku: 'dragon-mount',
      name: 'Dragon Mount',
      description: 'Fly over the map.',
      type: 'unlockable',
      price: '9.99',
    },
    {
      gameId: '1002',
      sku: 'hint-pack_5',
      name: 'Five Hints',
      description: 'Five puzzle hints.',
      type: 'consumable',
      price: '0.49',
    },
  ],
};

/** Users' progress seeded on top of the definitions. */
export const DEMO_PROGRESS: ReadonlyArray<{
  username: string;
  developerId: string;
  gameId: string;
  value: number;
  startedOn: string;
  completedOn?: string;
}> = [
  {
    username: DEMO.user.username,
    gameId: '1001',
    developerId: 'FIRST_WIN',
    value: 1,
    startedOn: '2024-05-01 10:00:00',
    completedOn: '2024-05-01 10:05:00',
  },
  {
    username: DEMO.user.username,
    gameId: '1001',
    developerId: 'COLLECT_1000_GEMS',
    value: 250,
    startedOn: '2024-05-02 11:00:00',
  },
  { username: DEMO.user.username, gameId: '1001', developerId: 'LEVEL_10', value: 4, startedOn: '2024-05-03 12:00:00' },
  {
    username: 'alice',
    gameId: '1001',
    developerId: 'FIRST_WIN',
    value: 1,
    startedOn: '2023-01-10 08:00:00',
    completedOn: '2023-01-10 08:01:00',
  },
  {
    username: 'alice',
    gameId: '1001',
    developerId: 'SPEED RUN/100%',
    value: 100,
    startedOn: '2023-02-01 09:00:00',
    completedOn: '2023-03-01 09:00:00',
  },
  { username: 'bob', gameId: '1001', developerId: 'COLLECT_1000_GEMS', value: 999, startedOn: '2023-06-01 20:00:00' },
];

export const DEMO_HOLDINGS: ReadonlyArray<{ username: string; gameId: string; sku: string; quantity: number }> = [
  { username: DEMO.user.username, gameId: '1001', sku: 'sword-of-dawn', quantity: 1 },
  { username: DEMO.user.username, gameId: '1001', sku: 'gems:100', quantity: 250 },
  { username: 'alice', gameId: '1001', sku: 'xp-boost', quantity: 2 },
  { username: 'bob', gameId: '1001', sku: 'gold-pack_10', quantity: 30 },
];
