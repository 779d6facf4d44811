/** Demo and generated seed data, and where the sandbox keeps its files. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/sandbox/app.js';
import { openDatabase } from '../../src/sandbox/database.js';
import { dataDir, defaultDatabasePath, logFilePath, pidFilePath } from '../../src/sandbox/paths.js';
import { DEMO_FACTS, seedDemo } from '../../src/sandbox/seed/demo.js';
import { seedGenerated } from '../../src/sandbox/seed/generated.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import type { Friend } from '../../src/domain/types.js';

describe('demo seed', () => {
  it('matches the published demo facts: users, keys, games, achievements, products', () => {
    const db = openDatabase(':memory:');
    seedDemo(db);
    const { repos } = db;
    expect(repos.users.count()).toBe(1500);
    expect(repos.users.friendCount(DEMO.user.uid)).toBe(1200);
    for (const u of DEMO_FACTS.users) expect(repos.users.findByUsername(u.username)?.uid).toBe(u.uid);
    expect(repos.users.findByUid(DEMO.user.uid)?.username).toBe(DEMO.user.username);
    const demoGame = repos.games.find('1001')!;
    expect(demoGame).toMatchObject({ name: 'Demo Quest', launchable: true, contentUri: null });
    expect(repos.games.find('1002')?.launchable).toBe(false);
    expect(repos.games.findApiKey(DEMO.game.apiKey)).toMatchObject({
      gameId: '1001',
      signingSecret: DEMO.game.signingSecret,
      partner: false,
    });
    expect(repos.games.findApiKey(DEMO.partner.apiKey)).toMatchObject({
      gameId: '1001',
      signingSecret: DEMO.partner.signingSecret,
      partner: true,
    });
    expect(repos.games.findApiKey(DEMO.secondGame.apiKey)).toMatchObject({ gameId: '1002', partner: false });
    for (const a of DEMO_FACTS.achievements) {
      expect(repos.achievements.definitionByDeveloperId('Game', a.gameId, a.developerId)).toMatchObject({
        targetValue: a.targetValue,
        state: a.state,
      });
    }
    for (const p of DEMO_FACTS.products) expect(repos.products.findBySku('Game', p.gameId, p.sku)?.name).toBe(p.name);
    expect(repos.users.hasPlayed(DEMO.user.uid, '1001')).toBe(true);
    // Genders and creation dates vary.
    const sample = repos.users.friends(DEMO.user.uid, null, 500, 0);
    expect(new Set(sample.map((u) => u.gender)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(sample.map((u) => u.createdOn)).size).toBeGreaterThan(400);
    db.close();
  });

  it('is deterministic: two databases seeded apart hold the same rows', () => {
    const dump = () => {
      const db = openDatabase(':memory:');
      seedDemo(db);
      const rows = ['users', 'friendships', 'plays', 'achievements', 'user_achievements', 'products', 'holdings'].map(
        (t) => db.sqlite.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all(),
      );
      db.close();
      return rows;
    };
    expect(dump()).toEqual(dump());
  });
});

describe('generated seed', () => {
  // 20,000 rather than the 100,000 studios seed: the same paging, padding and last page, at a fifth of the
  // suite's time; seeding 100,000 users is the bench's set-up (bench/run.js seedDatabase) and its data rows.
  it('seeds 20,000 users and a hub with 20,000 friends, and the friends page through in order', async () => {
    const N = 20_000;
    const db = openDatabase(':memory:');
    const summary = seedGenerated(db, {
      users: N,
      friends: N,
      achievements: 20,
      products: 10,
      seed: 'load',
    });
    expect(summary.hub.uid).toBe(uidForUsername(summary.hub.username));
    expect(db.repos.users.count()).toBe(N + 1);
    expect(db.repos.users.friendCount(summary.hub.uid)).toBe(N);
    expect(summary.developerIds).toHaveLength(20);
    expect(summary.skus).toHaveLength(10);

    const app = buildApp({ db });
    try {
      // Over real HTTP: the sandbox answers only requests addressed to it (Host), which inject's have no port for.
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      const page = async (n: number) => {
        const r = await fetch(
          `${url}/services/rest/v1/friends/${summary.hub.uid}.json?api_key=${DEMO.game.apiKey}&page=${n}`,
        );
        return ((await r.json()) as { payload: Friend[] }).payload;
      };
      const first = await page(1);
      expect(first).toHaveLength(500);
      expect(first[0]?.username).toBe(summary.usernamePattern);
      const last = await page(N / 500);
      expect(last).toHaveLength(500);
      expect(last.at(-1)?.username).toBe(
        summary.usernamePattern.replace(/\d+$/, (d) => String(N).padStart(d.length, '0')),
      );
      expect(await page(N / 500 + 1)).toEqual([]);
      const defs = await fetch(`${url}/services/rest/v1/achievements/1001.json?api_key=${DEMO.game.apiKey}`);
      expect(((await defs.json()) as { payload: unknown[] }).payload).toHaveLength(20);
    } finally {
      await app.close();
      db.close();
    }
  }, 120_000);

  it('is deterministic per seed and adds nothing when run twice; it gives a demo game even on an empty database', () => {
    const db = openDatabase(':memory:');
    const a = seedGenerated(db, { users: 50, friends: 20, achievements: 3, products: 2, seed: 7 });
    const count = db.repos.users.count();
    const b = seedGenerated(db, { users: 50, friends: 20, achievements: 3, products: 2, seed: 7 });
    expect(b).toEqual(a);
    expect(db.repos.users.count()).toBe(count);
    expect(db.repos.games.findApiKey(DEMO.game.apiKey)?.gameId).toBe('1001');
    const other = seedGenerated(db, { users: 10, friends: 0, achievements: 0, products: 0, seed: 8 });
    expect(other.hub.username).not.toBe(a.hub.username);
    db.close();
  });

  it('rejects impossible options', () => {
    const db = openDatabase(':memory:');
    expect(() => seedGenerated(db, { users: 5, friends: 6, achievements: 0, products: 0, seed: 1 })).toThrow(
      RangeError,
    );
    expect(() => seedGenerated(db, { users: 5, friends: 1, achievements: 0, products: 0, seed: 'no spaces' })).toThrow(
      RangeError,
    );
    expect(() => seedGenerated(db, { users: -1, friends: 0, achievements: 0, products: 0, seed: 1 })).toThrow(
      RangeError,
    );
    db.close();
  });
});

describe('paths', () => {
  const linux = { platform: 'linux' as const, home: '/home/u' };
  it('UDCLI_DATA_DIR wins, then XDG_DATA_HOME, then the platform default', () => {
    expect(dataDir({ UDCLI_DATA_DIR: '/d', XDG_DATA_HOME: '/x' }, linux)).toBe('/d');
    expect(dataDir({ XDG_DATA_HOME: '/x' }, linux)).toBe(join('/x', 'udcli'));
    expect(dataDir({}, linux)).toBe(join('/home/u', '.local', 'share', 'udcli'));
    expect(dataDir({}, { platform: 'darwin', home: '/Users/u' })).toBe(
      join('/Users/u', 'Library', 'Application Support', 'udcli'),
    );
    expect(dataDir({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, { platform: 'win32', home: 'C:\\Users\\u' })).toBe(
      join('C:\\Users\\u\\AppData\\Local', 'udcli'),
    );
  });

  it('puts the database, pid file and log in the data dir', () => {
    const env = { UDCLI_DATA_DIR: '/d' };
    expect(defaultDatabasePath(env)).toBe(join('/d', 'sandbox.db'));
    expect(pidFilePath(env)).toBe(join('/d', 'sandbox.pid'));
    expect(logFilePath(env)).toBe(join('/d', 'sandbox.log'));
  });
});
