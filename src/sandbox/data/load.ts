/**
 * Loads a checked data file into a sandbox database in one transaction: all of it or nothing.
 * What the file defines is created or replaced (games by id, keys, achievements by developer_id,
 * products by sku, users by uid, progress, holdings and saves by key); what it does not name is kept. Dates a
 * file does not carry (progress, friendships) are stamped at load time; friendships in file order,
 * so the friends list keeps the order of the file.
 */
import { normalizeApiKey, uidForUsername } from '../../domain/ids.js';
import type { SandboxDatabase } from '../database.js';
import { holdingItem, splitPack } from '../domain/products.js';
import { SAVE_LIMITS } from '../../domain/contract.js';
import { dataRepository } from '../repositories/data.js';
import { utcSeconds } from '../time.js';
import { NOT_COMPLETED_DATE, type UserAchievementState } from '../domain/achievements.js';
import type { DataFile, DataProgress, DataUser } from './model.js';
import { DataFileError } from './data-file-error.js';
import { expandedSkus } from './validate.js';

export interface LoadSummary {
  games: number;
  users: number;
  friendships: number;
}

const seconds = (date: string | number): number => (typeof date === 'number' ? date : utcSeconds(date));

const createdOn = (u: DataUser, now: number): number => (u.created_on === undefined ? now : seconds(u.created_on));

/** A quest's record from its entry (validate.ts has checked that state, value and dates agree). */
function progressRecord(entry: number | DataProgress, target: number, now: number) {
  const p = typeof entry === 'number' ? { value: entry } : entry;
  const state: UserAchievementState = p.state ?? (p.value >= target ? 'Completed' : 'In Progress');
  const completedDate =
    p.completed_date === undefined || p.completed_date === NOT_COMPLETED_DATE ? undefined : seconds(p.completed_date);
  return {
    value: p.value,
    state,
    completedOn: state === 'Completed' ? (completedDate ?? now) : state === 'Revoked' ? (completedDate ?? null) : null,
    // A record the database holds keeps its start unless the file gives one.
    startedOn: p.started_date === undefined ? null : seconds(p.started_date),
  };
}

const priceCents = (price: string): number => Math.round(Number(price) * 100);

export function loadData(db: SandboxDatabase, data: DataFile, nowSeconds: number, file = 'the data file'): LoadSummary {
  const sql = dataRepository(db.sqlite);
  const now = nowSeconds;
  let friendships = 0;
  db.transaction(() => {
    for (const game of data.games ?? []) {
      sql.upsertGame.run({
        id: game.id,
        type: game.type ?? 'Game',
        name: game.name,
        launchable: game.launchable ? 1 : 0,
        contentUri: game.content_uri ?? null,
        signing: game.signing ?? 'agi',
        now,
      });
      for (const key of game.keys ?? []) {
        sql.upsertKey.run({
          apiKey: normalizeApiKey(key.api_key),
          gameId: game.id,
          signingSecret: key.signing_secret ?? '',
          partner: key.partner ? 1 : 0,
          label: key.label ?? '',
          now,
        });
      }
      for (const a of game.achievements ?? []) {
        sql.upsertAchievement.run({
          parentId: game.id,
          developerId: a.developer_id,
          name: a.name,
          description: a.description ?? '',
          adminDescription: a.admin_description ?? '',
          icon: a.icon ?? '',
          startValue: a.start_value ?? 0,
          targetValue: a.target_value,
          score: a.score ?? 0,
          state: a.state ?? 'Active',
          tags: JSON.stringify(a.tags ?? {}),
          now,
        });
      }
      let order = 0;
      for (const p of game.products ?? []) {
        for (const sku of expandedSkus(p)) {
          order++;
          sql.upsertProduct.run({
            parentId: game.id,
            sku,
            item: holdingItem(p.type, sku),
            name: p.name,
            description: p.description ?? '',
            type: p.type,
            priceCents: priceCents(p.price),
            displayOrder: p.display_order ?? order,
            data: JSON.stringify(p.type === 'consumable' ? { consumable_qty: splitPack(sku).pack } : []),
            image: p.image ?? '',
            status: p.status ?? 'active',
            now,
          });
        }
      }
    }

    const uidOf = new Map<string, string>();
    (data.users ?? []).forEach((u, i) => {
      const uid = (u.uid ?? uidForUsername(u.username)).toLowerCase();
      const taken = sql.uidOfUsername.get(u.username);
      if (taken && taken.uid !== uid) {
        throw new DataFileError(
          `${file}: users[${i}].username: "${u.username}" is already another user's name in this database (uid ${taken.uid})`,
        );
      }
      sql.upsertUser.run({
        uid,
        username: u.username,
        gender: u.gender ?? 'unspecified',
        createdOn: createdOn(u, now),
        birthday: u.birthday ?? '0000-00-00',
        premium: u.premium ? 1 : 0,
        email: u.email ?? '',
      });
      uidOf.set(u.username, uid);
    });
    for (const u of data.users ?? []) {
      const uid = uidOf.get(u.username)!;
      for (const gameId of u.plays ?? []) sql.addPlay.run(uid, gameId, now);
      for (const name of u.friends ?? []) {
        const friend = uidOf.get(name)!;
        const at = now + friendships++;
        sql.addFriendship.run(uid, friend, at);
        sql.addFriendship.run(friend, uid, at);
      }
      for (const [gameId, values] of Object.entries(u.progress ?? {})) {
        for (const [developerId, entry] of Object.entries(values)) {
          const def = sql.achievementId.get(gameId, developerId)!;
          sql.setProgress.run({ uid, achievementId: def.id, ...progressRecord(entry, def.target_value, now), now });
        }
      }
      for (const [gameId, held] of Object.entries(u.holdings ?? {})) {
        const game = (data.games ?? []).find((g) => g.id === gameId)!;
        for (const [sku, quantity] of Object.entries(held)) {
          const product = (game.products ?? []).find(
            (p) => expandedSkus(p).includes(sku) || p.sku === splitPack(sku).base,
          );
          const item = product?.type === 'unlockable' ? sku : splitPack(sku).base;
          sql.setHolding.run({ uid, parentId: gameId, item, quantity, now });
        }
      }
      for (const [gameId, saves] of Object.entries(u.saves ?? {})) {
        for (const [key, value] of Object.entries(saves)) sql.putSave.run({ uid, gameId, key, value, now });
        // The file's keys join those the database already holds: together they keep the API's bound.
        const held = sql.saveCount.get(uid, gameId)!.n;
        if (held > SAVE_LIMITS.keysPerGame) {
          throw new DataFileError(
            `${file}: users[${data.users!.indexOf(u)}].saves.${gameId}: with the saves already in this database, ${u.username} would hold ${held} keys in game ${gameId}; at most ${SAVE_LIMITS.keysPerGame}`,
          );
        }
      }
    }
  });
  return { games: data.games?.length ?? 0, users: data.users?.length ?? 0, friendships };
}
