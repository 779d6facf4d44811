/**
 * What a recording shows of the platform's state, gathered from its replies: users, friends,
 * quests (definitions and each user's progress), products and holdings, saves; and which game
 * each recorded api key belongs to. `first` keeps what was seen first (a diff replays from the
 * state before the recording: only reads seed it, since a change's reply shows the state after);
 * `last` keeps the latest (an import brings the case home as it was last seen). Game ids, uids,
 * skus and quest ids are kept as recorded.
 */
import { LIMITS } from '../../domain/contract.js';
import { splitPack } from '../domain/products.js';
import { effectiveMethod, param, resourceOf, shownEnvelope, type PlatformExchange } from './exchange.js';
import * as recorded from './recorded-values.js';

export type Mode = 'first' | 'last';

export interface UserSeen {
  uid: string;
  username?: string;
  gender?: string;
  birthday?: string;
  premium?: boolean;
  created_on?: number | string;
  email?: string;
}

export interface DefinitionSeen {
  developer_id: string;
  name?: string;
  description?: string;
  admin_description?: string;
  icon?: string;
  start_value?: number;
  target_value?: number;
  score?: number;
  state?: 'Active' | 'Inactive';
  tags?: Record<string, string>;
  /** Only seen through users' records: their highest value, and whether one was complete there. */
  highest?: number;
  completedAt?: number;
}

export interface ProductSeen {
  sku: string;
  type: 'unlockable' | 'consumable';
  name?: string;
  description?: string;
  price?: string;
  display_order?: number;
  status?: string;
  image?: string;
}

export interface GameSeen {
  id: string;
  launchable: boolean;
  definitions: Map<string, DefinitionSeen>;
  products: Map<string, ProductSeen>;
  /** uid → developer_id → value (undefined: erased in the recording). */
  progress: Map<string, Map<string, number | undefined>>;
  /** uid → developer_id → the state and dates the quest's records showed (an import keeps them). */
  questDates: Map<string, Map<string, recorded.QuestDates>>;
  /** uid → item (an unlockable's sku, a consumable's base) → units. */
  holdings: Map<string, Map<string, number>>;
  /** uid → save key → text (undefined: erased). */
  saves: Map<string, Map<string, string | undefined>>;
  plays: Set<string>;
}

const asRecord = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
const num = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};
const UID = /^[0-9a-fA-F]{32}$/;
const GAME_ID = /^[A-Za-z0-9_.-]{1,64}$/;

function price(v: unknown): string | undefined {
  const n = num(v);
  return n === undefined || n < 0 || n >= 1e7 ? undefined : n.toFixed(2);
}

export class Observations {
  readonly users = new Map<string, UserSeen>();
  /** uid → friends' uids in the order seen. */
  readonly friends = new Map<string, string[]>();
  /** Recorded api key (a placeholder or real) → game id. */
  readonly keyGames = new Map<string, string>();
  /** Games by id, and buckets of keys whose game is not known yet (`key:VALUE`). */
  readonly #games = new Map<string, GameSeen>();
  readonly hosts = new Set<string>();

  constructor(readonly mode: Mode) {}

  #put<K, V>(map: Map<K, V>, key: K, value: V | undefined): void {
    if (this.mode === 'first' && map.has(key)) return;
    map.set(key, value as V);
  }

  /** Users and games whose whole quest list (or every save) a read showed: what it did not show was absent then. */
  readonly #listed = new Set<string>();

  #bucket(ref: string): GameSeen {
    let game = this.#games.get(ref);
    if (!game) {
      game = {
        id: ref,
        launchable: false,
        definitions: new Map(),
        products: new Map(),
        progress: new Map(),
        questDates: new Map(),
        holdings: new Map(),
        saves: new Map(),
        plays: new Set(),
      };
      this.#games.set(ref, game);
    }
    return game;
  }

  /** Sets a field an exchange shows: the first sighting stands or the last, as the mode says. */
  #setter<T extends object>(target: T): <K extends keyof T>(key: K, value: T[K] | undefined) => void {
    return (key, value) => {
      if (value === undefined) return;
      if (this.mode === 'first' && target[key] !== undefined) return;
      target[key] = value;
    };
  }

  #user(raw: unknown): string | undefined {
    const u = asRecord(raw);
    const uid = str(u.uid)?.toLowerCase();
    if (!uid || !UID.test(uid)) return undefined;
    const seen = this.users.get(uid) ?? { uid };
    const set = this.#setter(seen);
    set('username', str(u.username));
    set('gender', str(u.gender));
    set('birthday', recorded.birthday(u.birthday));
    set('premium', recorded.premium(u.premium));
    set('created_on', recorded.createdOn(u.created_on));
    set('email', typeof u.email === 'string' && u.email !== '' ? u.email : undefined);
    this.users.set(uid, seen);
    return uid;
  }

  /** The game an exchange names, or the bucket of its key. */
  #gameRef(exchange: PlatformExchange, named: string | undefined): string | undefined {
    const key = param(exchange, 'api_key')?.toLowerCase().replaceAll('-', '');
    const game = named ?? param(exchange, 'parent_id') ?? param(exchange, 'game_id') ?? param(exchange, 'pid');
    if (game !== undefined && GAME_ID.test(game)) {
      if (key && !this.keyGames.has(key)) this.keyGames.set(key, game);
      return game;
    }
    return key ? `key:${key}` : undefined;
  }

  #definition(game: GameSeen, raw: Record<string, unknown>, full: boolean): DefinitionSeen | undefined {
    const developerId = str(raw.developer_id);
    if (!developerId || developerId.length > LIMITS.idLength) return undefined;
    const def = game.definitions.get(developerId) ?? { developer_id: developerId };
    const set = this.#setter(def);
    set('name', str(raw.name));
    set('target_value', num(raw.target_value));
    if (full) {
      set('description', str(raw.description));
      set('admin_description', str(raw.admin_description));
      set('icon', str(raw.icon));
      set('start_value', num(raw.start_value));
      set('score', num(raw.score));
      set('state', raw.state === 'Inactive' ? 'Inactive' : raw.state === 'Active' ? 'Active' : undefined);
      if (raw.tags && typeof raw.tags === 'object' && !Array.isArray(raw.tags)) {
        const tags: Record<string, string> = {};
        for (const [k, v] of Object.entries(raw.tags as Record<string, unknown>))
          if (typeof v === 'string') tags[k] = v.slice(0, 200);
        set('tags', tags);
      }
    }
    game.definitions.set(developerId, def);
    return def;
  }

  /** A user's quest record (listed, updated or deleted): the definition it shows and, when asked, the progress. */
  #quest(game: GameSeen, uid: string, raw: Record<string, unknown>, seedProgress: boolean): void {
    const def = this.#definition(game, raw, false);
    if (!def) return;
    const { value, completed } = recorded.questFromRecorded(raw);
    if (value !== undefined) {
      def.highest = Math.max(def.highest ?? value, value);
      if (completed) def.completedAt = value;
    }
    if (seedProgress && value !== undefined) {
      const progress = game.progress.get(uid) ?? new Map<string, number | undefined>();
      // Not in a whole list read before: not started when the recording began.
      if (
        this.mode === 'first' &&
        !progress.has(def.developer_id) &&
        this.#listed.has(`quests\u0000${uid}\u0000${game.id}`)
      )
        progress.set(def.developer_id, undefined);
      this.#put(progress, def.developer_id, value);
      game.progress.set(uid, progress);
      const dates = game.questDates.get(uid) ?? new Map<string, recorded.QuestDates>();
      const fresh = recorded.questDatesFromRecorded(raw);
      // A submit's reply has no started_date: the one an earlier record showed stands.
      const started = fresh.started_date ?? dates.get(def.developer_id)?.started_date;
      this.#put(dates, def.developer_id, { ...fresh, ...(started !== undefined ? { started_date: started } : {}) });
      game.questDates.set(uid, dates);
    }
  }

  #product(game: GameSeen, uid: string | undefined, raw: Record<string, unknown>, seedHolding: boolean): void {
    const product = asRecord(raw.product);
    const sku = str(product.sku);
    if (!sku || sku.length > LIMITS.idLength) return;
    const consumable = product.type === 'consumable' || asRecord(product.data).consumable_qty !== undefined;
    if (!game.products.has(sku) || this.mode === 'last') {
      game.products.set(sku, {
        sku,
        type: consumable ? 'consumable' : 'unlockable',
        ...(str(product.name) !== undefined ? { name: str(product.name)! } : {}),
        ...(str(product.description) !== undefined ? { description: str(product.description)! } : {}),
        ...(price(product.price) !== undefined ? { price: price(product.price)! } : {}),
        ...(Number.isInteger(product.display_order) ? { display_order: product.display_order as number } : {}),
        ...(str(product.status) !== undefined ? { status: str(product.status)!.slice(0, 32) } : {}),
        ...(str(asRecord(product.media).image) !== undefined ? { image: str(asRecord(product.media).image)! } : {}),
      });
    }
    if (uid && seedHolding) {
      const held = game.holdings.get(uid) ?? new Map<string, number>();
      this.#put(held, consumable ? splitPack(sku).base : sku, recorded.heldUnits(asRecord(raw.purchase), consumable));
      game.holdings.set(uid, held);
    }
  }

  #save(game: GameSeen, uid: string, key: string, value: string | undefined): void {
    const saves = game.saves.get(uid) ?? new Map<string, string | undefined>();
    if (
      this.mode === 'first' &&
      !saves.has(key) &&
      value !== undefined &&
      this.#listed.has(`saves\u0000${uid}\u0000${game.id}`)
    )
      saves.set(key, undefined);
    this.#put(saves, key, value);
    game.saves.set(uid, saves);
  }

  /** Takes in one exchange's request and reply. */
  observe(exchange: PlatformExchange): void {
    this.hosts.add(exchange.host);
    const { resource, id } = resourceOf(exchange);
    const method = effectiveMethod(exchange);
    const read = method === 'GET';
    // A change's reply shows the state after it: it seeds only an import (the state last seen).
    const seedState = read || this.mode === 'last';
    const ref = this.#gameRef(exchange, resource === 'achievements' ? id : undefined);
    if (ref !== undefined) this.#bucket(ref);
    const envelope = shownEnvelope(exchange.reply.text);
    const payload = envelope?.payload;
    const ok =
      exchange.reply.status === 200 &&
      envelope !== undefined &&
      (envelope.code === undefined || Number(envelope.code) === 200) &&
      payload !== null &&
      payload !== undefined;
    const uid = UID.test(id) ? id.toLowerCase() : undefined;
    if (!ok) return;
    // A user the platform answered for (an error reply says nothing of one).
    if (uid && !this.users.has(uid) && resource !== 'achievements') this.users.set(uid, { uid });
    const game = ref === undefined ? undefined : this.#bucket(ref);
    switch (resource) {
      case 'users': {
        const seenUid = this.#user(payload);
        const plays = asRecord(payload).plays_game;
        if (game && seenUid && plays !== undefined) {
          game.launchable = true;
          if (String(plays) === '1') game.plays.add(seenUid);
        }
        return;
      }
      case 'authenticate':
        this.#user(payload);
        return;
      case 'friends': {
        if (!uid || !Array.isArray(payload)) return;
        const list = this.friends.get(uid) ?? [];
        for (const friend of payload) {
          const friendUid = this.#user(friend);
          if (friendUid && friendUid !== uid && !list.includes(friendUid)) list.push(friendUid);
          const plays = asRecord(friend).plays_game;
          if (game && friendUid && plays !== undefined) {
            game.launchable = true;
            if (String(plays) === '1') game.plays.add(friendUid);
          }
        }
        if (this.mode === 'last' || !this.friends.has(uid)) this.friends.set(uid, list);
        return;
      }
      case 'achievements': {
        if (!game) return;
        for (const def of Array.isArray(payload) ? payload : [payload]) this.#definition(game, asRecord(def), true);
        return;
      }
      case 'achievements/user': {
        if (!uid) return;
        const records = Array.isArray(payload) ? payload : [payload];
        for (const raw of records) {
          const record = asRecord(raw);
          const parent = str(record.parent_id);
          const target = parent && GAME_ID.test(parent) ? this.#bucket(parent) : game;
          if (!target) continue;
          if (method === 'DELETE') {
            if (this.mode === 'last')
              target.progress
                .get(uid)
                ?.set(str(record.developer_id) ?? param(exchange, 'developer_id') ?? '', undefined);
            continue;
          }
          // An update's reply names its quest by developer_id too (SERVICE.md: Achievements).
          const named =
            record.developer_id === undefined
              ? { ...record, developer_id: param(exchange, 'developer_id') ?? param(exchange, 'dev_id') }
              : record;
          this.#quest(target, uid, named, seedState);
        }
        if (
          read &&
          game &&
          param(exchange, 'developer_id') === undefined &&
          param(exchange, 'filter') === undefined &&
          param(exchange, 'offset') === undefined
        ) {
          this.#listed.add(`quests\u0000${uid}\u0000${game.id}`);
        }
        return;
      }
      case 'products/user': {
        if (!game) return;
        for (const entry of Array.isArray(payload) ? payload : [payload])
          this.#product(game, uid, asRecord(entry), seedState);
        return;
      }
      case 'gamesave': {
        if (!game || !uid) return;
        if (read) {
          const key = param(exchange, 'key');
          const saves = Object.entries(asRecord(payload));
          // A read of one key that shows nothing: absent then.
          if (key !== undefined && !saves.some(([k]) => k === key)) this.#save(game, uid, key, undefined);
          for (const [k, value] of saves) if (typeof value === 'string') this.#save(game, uid, k, value);
          if (key === undefined) this.#listed.add(`saves\u0000${uid}\u0000${game.id}`);
        } else if (this.mode === 'last') {
          const key = param(exchange, 'key');
          if (key !== undefined) this.#save(game, uid, key, method === 'DELETE' ? undefined : param(exchange, 'data'));
        }
        return;
      }
      default:
    }
  }

  /** The games, each key's bucket folded into its game (by what the recording showed, else the only game). */
  games(): Map<string, GameSeen> {
    const named = [...this.#games.keys()].filter((ref) => !ref.startsWith('key:'));
    const out = new Map<string, GameSeen>();
    for (const ref of named) out.set(ref, this.#games.get(ref)!);
    for (const [ref, bucket] of this.#games) {
      if (!ref.startsWith('key:')) continue;
      const key = ref.slice(4);
      const gameId = this.keyGames.get(key) ?? (named.length === 1 ? named[0] : undefined);
      if (gameId === undefined) continue;
      if (!this.keyGames.has(key)) this.keyGames.set(key, gameId);
      const into = out.get(gameId)!;
      mergeInto(into, bucket, this.mode);
    }
    return out;
  }
}

function mergeMap<K, V>(into: Map<K, V>, from: Map<K, V>, mode: Mode): void {
  for (const [k, v] of from) if (mode === 'last' || !into.has(k)) into.set(k, v);
}

function mergeInto(into: GameSeen, from: GameSeen, mode: Mode): void {
  into.launchable ||= from.launchable;
  mergeMap(into.definitions, from.definitions, mode);
  mergeMap(into.products, from.products, mode);
  for (const [uid, values] of from.progress)
    mergeMap(into.progress.get(uid) ?? into.progress.set(uid, new Map()).get(uid)!, values, mode);
  for (const [uid, values] of from.questDates)
    mergeMap(into.questDates.get(uid) ?? into.questDates.set(uid, new Map()).get(uid)!, values, mode);
  for (const [uid, values] of from.holdings)
    mergeMap(into.holdings.get(uid) ?? into.holdings.set(uid, new Map()).get(uid)!, values, mode);
  for (const [uid, values] of from.saves)
    mergeMap(into.saves.get(uid) ?? into.saves.set(uid, new Map()).get(uid)!, values, mode);
  for (const uid of from.plays) into.plays.add(uid);
}
