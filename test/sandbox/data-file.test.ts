/**
 * Sandbox data files (issue 10): the checks a studio's file meets, each with one clear line
 * naming the file, the path and the line; and load → export → load → export giving the same file.
 */
import { describe, expect, it } from 'vitest';
import { loadData } from '../../src/sandbox/data/load.js';
import { exportChunks } from '../../src/sandbox/data/export.js';
import { parseDataText } from '../../src/sandbox/data/read.js';
import { STARTER_FILE } from '../../src/sandbox/data/starter.js';
import { openDatabase } from '../../src/sandbox/database.js';
import { seedDemo } from '../../src/sandbox/seed/demo.js';
import { dataFileErrorOf } from './helpers/data-file.js';

const GAME = `games:
  - id: "4711"
    name: Orbit Miner
    keys:
      - api_key: 5f0e3b7c9a1d4e2f8b6c0a9d7e5f3b1c
    achievements:
      - developer_id: BOSS_1
        name: Boss Slayer
        target_value: 1
      - developer_id: ORE_100
        name: Prospector
        target_value: 100
    products:
      - sku: golden-armor
        type: unlockable
        name: Golden Armor
        price: "2.99"
      - sku: gem-pack
        type: consumable
        packs: [10, 50]
        name: Gems
        price: "0.99"
`;

/** Every case here names its file qa.yaml, JSON too: the name is not what says the format. */
const errorOf = (text: string, json = false) => dataFileErrorOf(text, json, 'qa.yaml');

describe('a data file', () => {
  it('the starter file is valid as it stands', () => {
    const data = parseDataText('starter.yaml', STARTER_FILE, false);
    expect(data.games?.[0]?.id).toBe('4711');
    expect(data.users?.map((u) => u.username)).toEqual(['qa_alice', 'qa_bob']);
  });

  it.each([
    [
      'a target not above the start, with its line',
      GAME.replace('target_value: 100', 'start_value: 5\n        target_value: 5'),
      'qa.yaml: games[0].achievements[1].target_value: must be an integer greater than start_value (5) (line 13)',
    ],
    [
      'a wrong type',
      GAME.replace('target_value: 100', 'target_value: lots'),
      'qa.yaml: games[0].achievements[1].target_value: must be integer (line 12)',
    ],
    [
      'a missing field',
      GAME.replace('        name: Prospector\n', ''),
      'qa.yaml: games[0].achievements[1]: name is missing (line 10)',
    ],
    [
      'an unknown field',
      GAME.replace('    name: Orbit Miner', '    name: Orbit Miner\n    colour: red'),
      'qa.yaml: games[0].colour: is not a field of the data file (see `udcli sandbox schema`) (line 4)',
    ],
    [
      'an unknown signing value',
      GAME.replace('    name: Orbit Miner', '    name: Orbit Miner\n    signing: md5'),
      'qa.yaml: games[0].signing: must be one of "agi", "hmac-sha256-v1", "both" (line 4)',
    ],
    [
      'a non-hex api key',
      GAME.replace('5f0e3b7c9a1d4e2f8b6c0a9d7e5f3b1c', 'not-a-key'),
      'qa.yaml: games[0].keys[0].api_key: not an api key: expected 32 hex digits or the UUID form (line 5)',
    ],
    [
      'a duplicate developer_id',
      GAME.replace('ORE_100', 'BOSS_1'),
      'qa.yaml: games[0].achievements[1].developer_id: duplicate developer_id "BOSS_1" in game 4711 (line 10)',
    ],
    [
      'a duplicate sku',
      GAME.replace('sku: golden-armor', 'sku: gem-pack:10'),
      'qa.yaml: games[0].products[1].sku: duplicate sku "gem-pack:10" in game 4711 (line 18)',
    ],
    [
      'packs on an unlockable',
      GAME.replace('        name: Golden Armor', '        packs: [2]\n        name: Golden Armor'),
      'qa.yaml: games[0].products[0].packs: packs are for consumables only (line 16)',
    ],
    [
      'a duplicate username',
      `${GAME}users:\n  - username: qa\n  - username: qa\n`,
      'qa.yaml: users[1].username: duplicate username "qa" (also users[0]) (line 25)',
    ],
    [
      'a friend that names nothing',
      `${GAME}users:\n  - username: qa\n    friends: [nobody]\n`,
      'qa.yaml: users[0].friends[0]: no user named "nobody" in the file (line 25)',
    ],
    [
      'a holding that names nothing',
      `${GAME}users:\n  - username: qa\n    holdings: { "4711": { silver: 1 } }\n`,
      'qa.yaml: users[0].holdings.4711.silver: no product "silver" in game 4711 (line 25)',
    ],
    [
      'an unlockable held twice',
      `${GAME}users:\n  - username: qa\n    holdings: { "4711": { golden-armor: 2 } }\n`,
      'qa.yaml: users[0].holdings.4711.golden-armor: an unlockable is held once: 0 or 1 (line 25)',
    ],
    [
      'progress past the target',
      `${GAME}users:\n  - username: qa\n    progress:\n      "4711":\n        ORE_100: 101\n`,
      'qa.yaml: users[0].progress.4711.ORE_100: must be from start_value (0) to target_value (100) (line 27)',
    ],
    [
      'a game played that does not exist',
      `${GAME}users:\n  - username: qa\n    plays: ["9"]\n`,
      'qa.yaml: users[0].plays[0]: no game "9" in the file (line 25)',
    ],
    [
      'a save for a game not in the file',
      `${GAME}users:\n  - username: qa\n    saves: { "9": { slot1: "{}" } }\n`,
      'qa.yaml: users[0].saves.9: no game "9" in the file (line 25)',
    ],
    [
      'a save key with a space',
      `${GAME}users:\n  - username: qa\n    saves: { "4711": { "slot 1": "{}" } }\n`,
      'qa.yaml: users[0].saves.4711.slot 1: is not a valid name here (must match ^[A-Za-z0-9_.-]{1,64}$) (line 25)',
    ],
    [
      'a save that is not text',
      `${GAME}users:\n  - username: qa\n    saves: { "4711": { slot1: 3 } }\n`,
      'qa.yaml: users[0].saves.4711.slot1: must be string (line 25)',
    ],
    [
      'a save over 256 KiB of UTF-8',
      `${GAME}users:\n  - username: qa\n    saves: { "4711": { slot1: "${'é'.repeat(131_073)}" } }\n`,
      'qa.yaml: users[0].saves.4711.slot1: the value is 262146 bytes of UTF-8; at most 262144 (256 KiB) (line 25)',
    ],
    [
      'a 101st save key',
      `${GAME}users:\n  - username: qa\n    saves:\n      "4711":\n${Array.from({ length: 101 }, (_, i) => `        k${i}: "1"\n`).join('')}`,
      'qa.yaml: users[0].saves.4711: must NOT have more than 100 properties (line 27)',
    ],
    ['a YAML syntax error', 'games: [\n  {id: "1"\n', 'qa.yaml: not valid YAML'],
  ])('%s', (_name, text, message) => {
    expect(errorOf(text)).toContain(message);
  });

  it('every problem is listed, each with its path and line, up to 20 (issue 22)', () => {
    const text = [
      'games:',
      '  - id: "4711"',
      '    name: Orbit',
      '    achievements:',
      '      - { developer_id: A, name: A, start_value: 5, target_value: 3 }',
      '      - { developer_id: B, name: B, target_value: 5 }',
      '      - { developer_id: B, name: C, target_value: 5 }',
      'users:',
      '  - username: ann',
      '    friends: [nobody]',
      '  - username: ann',
      '',
    ].join('\n');
    expect(errorOf(text)).toBe(
      [
        'qa.yaml: 4 problems:',
        '  games[0].achievements[0].target_value: must be an integer greater than start_value (5) (line 5)',
        '  games[0].achievements[2].developer_id: duplicate developer_id "B" in game 4711 (line 7)',
        '  users[1].username: duplicate username "ann" (also users[0]) (line 11)',
        '  users[0].friends[0]: no user named "nobody" in the file (line 10)',
      ].join('\n'),
    );
    const many = [
      'users:',
      ...Array.from({ length: 25 }, (_, i) => `  - { username: u${i}, friends: [ghost${i}] }`),
      '',
    ].join('\n');
    const listed = errorOf(many).split('\n');
    expect(listed[0]).toBe('qa.yaml: 25 problems:');
    expect(listed).toHaveLength(1 + 20 + 1);
    expect(listed.at(-1)).toBe('  … and 5 more');
  });

  it('a JSON file: the same checks, with the line', () => {
    const json = JSON.stringify(
      { games: [{ id: '1', name: 'x', achievements: [{ developer_id: 'A', name: 'a', target_value: -1 }] }] },
      null,
      2,
    );
    expect(errorOf(json, true)).toBe('qa.yaml: games[0].achievements[0].target_value: must be >= 1 (line 10)');
    expect(errorOf('{"games": [', true)).toMatch(/^qa\.yaml: not valid JSON: /);
  });

  it('a failed load changes nothing: one transaction', () => {
    const db = openDatabase(':memory:');
    try {
      const data = parseDataText('qa.yaml', `${GAME}users:\n  - username: qa_one\n  - username: qa_two\n`, false);
      db.repos.users.insert({ uid: '0'.repeat(32), username: 'qa_two', gender: 'x', createdOn: 0 });
      expect(() => loadData(db, data, 1_800_000_000, 'qa.yaml')).toThrow(
        /users\[1\]\.username: "qa_two" is already another user's name/,
      );
      expect(db.repos.games.find('4711')).toBeUndefined();
      expect(db.repos.users.findByUsername('qa_one')).toBeUndefined();
    } finally {
      db.close();
    }
  });
});

describe('export', () => {
  const exported = (db: ReturnType<typeof openDatabase>, format: 'yaml' | 'json') =>
    [...exportChunks(db, format)].join('');

  it('carries game saves: the starter file → export → load into an empty sandbox → export gives the same file', () => {
    const a = openDatabase(':memory:');
    const b = openDatabase(':memory:');
    try {
      loadData(a, parseDataText('starter.yaml', STARTER_FILE, false), 1_800_000_000);
      // A value with quotes, newlines, markup and non-ASCII text, as a game may save it.
      const alice = a.repos.users.findByUsername('qa_alice')!.uid;
      const tricky = JSON.stringify({ note: 'line 1\nline "2" <b>Zoë</b> 🚀', n: [1, 2] });
      a.repos.saves.put(alice, '4711', 'notes', tricky, 1_800_000_100);
      for (const format of ['yaml', 'json'] as const) {
        const first = exported(a, format);
        expect(first).toContain('slot1');
        const c = openDatabase(':memory:');
        try {
          loadData(c, parseDataText(`saves.${format}`, first, format === 'json'), 1_800_000_000);
          expect(exported(c, format)).toBe(first);
          expect(c.repos.saves.listFor(alice, '4711').map((s) => [s.key, s.value])).toEqual([
            ['notes', tricky],
            ['slot1', '{"level":3,"ore":40}'],
          ]);
        } finally {
          c.close();
        }
      }
      expect(b.repos.saves.listFor(alice, '4711')).toEqual([]);
    } finally {
      a.close();
      b.close();
    }
  });

  it('refuses a load whose saves, with those already in the database, pass 100 keys a game: nothing changes', () => {
    const db = openDatabase(':memory:');
    try {
      loadData(db, parseDataText('starter.yaml', STARTER_FILE, false), 1_800_000_000);
      const alice = db.repos.users.findByUsername('qa_alice')!.uid;
      for (let i = 0; i < 99; i++) db.repos.saves.put(alice, '4711', `old${i}`, '1', 1_800_000_000);
      const more = parseDataText(
        'more.yaml',
        `${GAME}users:\n  - username: qa_alice\n    saves: { "4711": { new1: "1", new2: "2" } }\n`,
        false,
      );
      expect(() => loadData(db, more, 1_800_000_100, 'more.yaml')).toThrow(
        'more.yaml: users[0].saves.4711: with the saves already in this database, qa_alice would hold 102 keys in game 4711; at most 100',
      );
      expect(db.repos.saves.listFor(alice, '4711')).toHaveLength(100);
      expect(db.repos.saves.get(alice, '4711', 'new1')).toBeUndefined();
    } finally {
      db.close();
    }
  });

  for (const format of ['yaml', 'json'] as const) {
    it(`the demo data, as ${format}: export → load into an empty sandbox → export gives the same file`, () => {
      const a = openDatabase(':memory:');
      const b = openDatabase(':memory:');
      try {
        seedDemo(a);
        const first = exported(a, format);
        loadData(b, parseDataText(`demo.${format}`, first, format === 'json'), 1_800_000_000);
        expect(exported(b, format)).toBe(first);
        // What a game sees: the demo player, their progress and holdings, the keys and signing.
        expect(b.repos.users.findByUsername('demo_player')).toMatchObject({ birthday: '1990-04-12', premium: true });
        expect(b.repos.games.findApiKey('0123456789abcdef0123456789abcdef')?.game.signing).toBe('both');
        expect(b.repos.games.find('1002')?.signing).toBe('agi');
        const gems = b.repos.products.findBySku('Game', '1001', 'gems:500')!;
        expect(b.repos.products.quantity('01e528d59829836fd23b09085b56edab', gems)).toBe(250);
        expect(b.repos.users.friendCount('01e528d59829836fd23b09085b56edab')).toBe(1200);
      } finally {
        a.close();
        b.close();
      }
    });
  }
});
