/**
 * Seeds the demo data set (seed/demo-data.ts) in one transaction. Deterministic: the same
 * rows on every machine. Meant for an empty database (startSandbox seeds only then); existing
 * games, users and definitions are kept, progress and holdings are set to the demo values.
 */
import { uidForUsername } from '../../domain/ids.js';
import type { SandboxDatabase } from '../database.js';
import type { Repositories } from '../repositories/index.js';
import { utcSeconds } from '../time.js';
import {
  DEMO_FACTS,
  DEMO_FRIEND_COUNT,
  DEMO_HOLDINGS,
  DEMO_PROGRESS,
  DEMO_USER_COUNT,
  demoEmail,
  GENERATED_USER_PREFIX,
} from './demo-data.js';
import { createRandom, GENDERS } from './prng.js';

export { DEMO_FACTS } from './demo-data.js';

const GAMES_CREATED = utcSeconds('2014-01-01 00:00:00');
const CATALOG_CREATED = utcSeconds('2014-02-01 00:00:00');
const USERS_FROM = utcSeconds('2015-01-01 00:00:00');
const USERS_TO = utcSeconds('2024-12-31 23:59:59');
const FRIENDS_FROM = utcSeconds('2020-05-01 00:00:00');

/** The demo games and their keys (also used by seedGenerated so its data has a game and a key). */
export function insertDemoGames(repos: Repositories): void {
  for (const game of DEMO_FACTS.games) {
    repos.games.insert({
      id: game.id,
      type: 'Game',
      name: game.name,
      launchable: game.launchable,
      contentUri: null,
      signing: game.signing,
      createdOn: GAMES_CREATED,
    });
    repos.games.insertApiKey({
      apiKey: game.apiKey,
      gameId: game.id,
      signingSecret: game.signingSecret,
      partner: false,
      label: `${game.name} (demo)`,
      createdOn: GAMES_CREATED,
    });
  }
  const partner = DEMO_FACTS.partner;
  repos.games.insertApiKey({
    apiKey: partner.apiKey,
    gameId: partner.gameId,
    signingSecret: partner.signingSecret,
    partner: true,
    label: 'partner (demo)',
    createdOn: GAMES_CREATED,
  });
}

export function generatedUsername(n: number): string {
  return `${GENERATED_USER_PREFIX}${String(n).padStart(4, '0')}`;
}

export function seedDemo(db: SandboxDatabase): void {
  const { repos } = db;
  const random = createRandom('udcli-demo');
  db.transaction(() => {
    insertDemoGames(repos);

    for (const user of DEMO_FACTS.users) {
      repos.users.insert({
        uid: user.uid,
        username: user.username,
        gender: user.gender,
        createdOn: utcSeconds(user.createdOn),
        ...(user.birthday === undefined ? {} : { birthday: user.birthday }),
        ...(user.premium === undefined ? {} : { premium: user.premium }),
        email: user.email,
      });
      for (const gameId of user.plays) repos.users.recordPlay(user.uid, gameId, utcSeconds(user.createdOn) + 86_400);
    }
    const generated: string[] = [];
    for (let n = 1; n <= DEMO_USER_COUNT - DEMO_FACTS.users.length; n++) {
      const username = generatedUsername(n);
      const uid = uidForUsername(username);
      const createdOn = random.int(USERS_FROM, USERS_TO);
      repos.users.insert({ uid, username, gender: random.pick(GENDERS), createdOn, email: demoEmail(username) });
      if (random.chance(0.4))
        repos.users.recordPlay(uid, DEMO_FACTS.games[0]!.id, createdOn + random.int(0, 30) * 86_400);
      if (random.chance(0.2))
        repos.users.recordPlay(uid, DEMO_FACTS.games[1]!.id, createdOn + random.int(0, 30) * 86_400);
      generated.push(uid);
    }

    // demo_player's 1,200 friends: alice and bob (same moment, so uid breaks the tie), carol,
    // then generated users two per timestamp, so the stable order is exercised on every page.
    const [player, alice, bob, carol, dave] = DEMO_FACTS.users.map((u) => u.uid) as [
      string,
      string,
      string,
      string,
      string,
    ];
    repos.users.addFriendship(player, alice, utcSeconds('2020-03-20 10:00:00'));
    repos.users.addFriendship(player, bob, utcSeconds('2020-03-20 10:00:00'));
    repos.users.addFriendship(player, carol, utcSeconds('2020-04-01 10:00:00'));
    const generatedFriends = DEMO_FRIEND_COUNT - 3;
    for (let i = 0; i < generatedFriends; i++) {
      repos.users.addFriendship(player, generated[i]!, FRIENDS_FROM + Math.floor(i / 2) * 6 * 3600);
    }
    repos.users.addFriendship(alice, bob, utcSeconds('2019-12-01 12:00:00'));
    repos.users.addFriendship(bob, dave, utcSeconds('2022-08-01 12:00:00'));
    for (let i = 0; i + 1 < 300; i++) {
      repos.users.addFriendship(generated[i]!, generated[i + 1]!, FRIENDS_FROM + i * 3600);
    }

    const achievementIds = new Map<string, number>();
    for (const a of DEMO_FACTS.achievements) {
      const id = repos.achievements.insertDefinition({
        parentId: a.gameId,
        developerId: a.developerId,
        name: a.name,
        description: a.description,
        adminDescription: a.adminDescription ?? '',
        icon: `${a.developerId.toLowerCase().replace(/[^a-z0-9]+/g, '_')}.png?v=1`,
        startValue: a.startValue,
        targetValue: a.targetValue,
        score: a.score,
        state: a.state,
        tags: a.tags,
        createdOn: CATALOG_CREATED,
        updatedOn: CATALOG_CREATED,
      });
      achievementIds.set(`${a.gameId}/${a.developerId}`, id);
    }
    for (const p of DEMO_PROGRESS) {
      const completedOn = p.completedOn === undefined ? null : utcSeconds(p.completedOn);
      repos.achievements.setProgress(uidForUsername(p.username), achievementIds.get(`${p.gameId}/${p.developerId}`)!, {
        currentValue: p.value,
        state: completedOn === null ? 'In Progress' : 'Completed',
        startedOn: utcSeconds(p.startedOn),
        completedOn,
        updatedOn: completedOn ?? utcSeconds(p.startedOn) + 3600,
      });
    }

    const productIds = new Map<string, number>();
    DEMO_FACTS.products.forEach((p, i) => {
      const sold = DEMO_HOLDINGS.filter((h) => h.gameId === p.gameId && h.sku === p.sku).reduce(
        (n, h) => n + h.quantity,
        0,
      );
      const id = repos.products.insert({
        parentId: p.gameId,
        sku: p.sku,
        name: p.name,
        description: p.description,
        type: p.type,
        priceCents: Math.round(Number(p.price) * 100),
        displayOrder: i + 1,
        image: `products/${encodeURIComponent(p.sku)}.png?v=1`,
        status: 'active',
        sold,
        createdOn: CATALOG_CREATED,
        updatedOn: CATALOG_CREATED,
      });
      productIds.set(`${p.gameId}/${p.sku}`, id);
    });
    for (const h of DEMO_HOLDINGS) {
      repos.products.setQuantity(
        uidForUsername(h.username),
        productIds.get(`${h.gameId}/${h.sku}`)!,
        h.quantity,
        utcSeconds('2024-05-05 12:00:00'),
      );
    }
  });
}
