/**
 * What a recording shows (observe.ts) as a sandbox data file: the games (each with a key of the
 * sandbox's own: a recorded key is never copied), their quests and products, the users with
 * their friends, progress, holdings and saves, under the recorded ids. Checked like any data
 * file (data/read.ts) before anything is loaded.
 */
import { randomBytes } from 'node:crypto';
import { isSaveKey, saveValueProblem } from '../../domain/contract.js';
import type { DataAchievement, DataFile, DataGame, DataProduct, DataProgress, DataUser } from '../data/model.js';
import { parseDataText } from '../data/read.js';
import type { GameSeen, Observations } from './observe.js';
import type { QuestDates } from './recorded-values.js';

export interface SeedKey {
  api_key: string;
  signing_secret: string;
}

export interface SeedOptions {
  /** Signing schemes the games accept: `both` lets a diff replay agi and hmac recordings alike. */
  signing: 'agi' | 'both';
  /** Keep users' personal fields (birthday, email) beyond what the sandbox needs. */
  keepPersonal: boolean;
  /**
   * Quests' recorded states and dates (started, completed) in the data file, not only their
   * values: an import brings the case home as it was. A diff does not compare dates.
   */
  dates?: boolean;
  label: string;
  /**
   * A data file loaded before the seed (`sandbox diff --data`): its games' names and quest
   * definitions stand wherever the recording did not show them; the seed, loaded on top, would
   * otherwise replace them with guesses made from players' progress.
   */
  known?: DataFile;
}

export interface Seeded {
  data: DataFile;
  /** game id → the key made for it. */
  keys: Map<string, SeedKey>;
}

const newKey = (): SeedKey => ({
  api_key: randomBytes(16).toString('hex'),
  signing_secret: randomBytes(24).toString('hex'),
});

function achievementsOf(game: GameSeen, known: DataGame | undefined): DataAchievement[] {
  const out: DataAchievement[] = [];
  for (const def of game.definitions.values()) {
    const was = known?.achievements?.find((a) => a.developer_id === def.developer_id);
    const start = Math.round(def.start_value ?? was?.start_value ?? 0);
    let values = [...game.progress.values()]
      .map((p) => p.get(def.developer_id))
      .filter((v): v is number => v !== undefined);
    // A definition seen only through players' records: the data file's target, else where one
    // was complete, else above what anyone reached.
    let target = Math.round(
      def.target_value ??
        was?.target_value ??
        def.completedAt ??
        Math.max(start + 1, ...values.map((v) => v + 1), (def.highest ?? 0) + 1),
    );
    if (target <= start) target = start + 1;
    values = values.filter((v) => v > target);
    if (values.length > 0) target = Math.max(target, ...values.map(Math.ceil));
    out.push({
      ...was,
      developer_id: def.developer_id,
      name: (def.name ?? was?.name ?? def.developer_id).slice(0, 200) || def.developer_id,
      ...(def.description !== undefined ? { description: def.description } : {}),
      ...(def.admin_description !== undefined ? { admin_description: def.admin_description } : {}),
      ...(def.icon !== undefined ? { icon: def.icon } : {}),
      start_value: start,
      target_value: target,
      ...(def.score !== undefined ? { score: Math.max(0, Math.round(def.score)) } : {}),
      ...(def.state !== undefined ? { state: def.state } : {}),
      ...(def.tags !== undefined ? { tags: def.tags } : {}),
    });
  }
  return out;
}

function productsOf(game: GameSeen): DataProduct[] {
  return [...game.products.values()].map((p) => ({
    sku: p.sku,
    type: p.type,
    name: (p.name ?? p.sku).slice(0, 200) || p.sku,
    price: p.price ?? '0.00',
    ...(p.description !== undefined ? { description: p.description } : {}),
    ...(p.display_order !== undefined ? { display_order: p.display_order } : {}),
    ...(p.status !== undefined ? { status: p.status } : {}),
    ...(p.image !== undefined ? { image: p.image } : {}),
  }));
}

/**
 * A quest's progress with the state and dates recorded for it, as far as they agree with the
 * value and the target the seed holds (a target guessed from players' records may not be the
 * platform's): a state that does not is left to follow from the value, and so is its date.
 */
function withDates(value: number, target: number, dates: QuestDates | undefined): number | DataProgress {
  if (!dates) return value;
  let state = dates.state;
  if ((state === 'Completed' && value !== target) || (state === 'In Progress' && value >= target)) state = undefined;
  const completed = state === 'Completed' || (state === undefined && value >= target);
  const progress: DataProgress = {
    value,
    ...(state !== undefined ? { state } : {}),
    ...(dates.started_date !== undefined ? { started_date: dates.started_date } : {}),
    ...(dates.completed_date !== undefined && (completed || state === 'Revoked')
      ? { completed_date: dates.completed_date }
      : {}),
  };
  return Object.keys(progress).length === 1 ? value : progress;
}

export function seedData(seen: Observations, options: SeedOptions): Seeded {
  const games = seen.games();
  const known = new Map((options.known?.games ?? []).map((g) => [String(g.id), g]));
  const keys = new Map<string, SeedKey>();
  const dataGames: DataGame[] = [];
  for (const game of games.values()) {
    const key = newKey();
    keys.set(game.id, key);
    dataGames.push({
      id: game.id,
      name: known.get(game.id)?.name ?? `Game ${game.id} (recorded)`,
      ...(game.launchable ? { launchable: true } : {}),
      signing: options.signing,
      keys: [{ ...key, label: options.label }],
      achievements: achievementsOf(game, known.get(game.id)),
      products: productsOf(game),
    });
  }

  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const user of seen.users.values()) {
    let name = (user.username ?? `player_${user.uid.slice(0, 8)}`).slice(0, 128);
    if (name === '' || taken.has(name)) name = `${name.slice(0, 100)}_${user.uid.slice(0, 8)}`;
    taken.add(name);
    names.set(user.uid, name);
  }
  const users: DataUser[] = [];
  for (const user of seen.users.values()) {
    const out: DataUser = { username: names.get(user.uid)!, uid: user.uid };
    if (user.gender !== undefined) out.gender = user.gender.slice(0, 64);
    if (user.created_on !== undefined) out.created_on = user.created_on;
    if (user.premium !== undefined) out.premium = user.premium;
    if (options.keepPersonal && user.birthday !== undefined) out.birthday = user.birthday;
    if (options.keepPersonal && user.email !== undefined) out.email = user.email;
    const friends = (seen.friends.get(user.uid) ?? [])
      .map((uid) => names.get(uid))
      .filter((n): n is string => n !== undefined);
    if (friends.length > 0) out.friends = friends;
    const plays = [...games.values()].filter((g) => g.plays.has(user.uid)).map((g) => g.id);
    if (plays.length > 0) out.plays = plays;
    for (const game of games.values()) {
      const defs = new Map(dataGames.find((g) => g.id === game.id)!.achievements!.map((a) => [a.developer_id, a]));
      const progress = [...(game.progress.get(user.uid) ?? [])].filter(([id, v]) => v !== undefined && defs.has(id));
      if (progress.length > 0) {
        out.progress ??= {};
        const dates = options.dates ? game.questDates.get(user.uid) : undefined;
        out.progress[game.id] = Object.fromEntries(
          progress.map(([id, v]) => {
            const def = defs.get(id)!;
            const value = Math.min(Math.max(Math.round(v!), def.start_value ?? 0), def.target_value);
            return [id, withDates(value, def.target_value, dates?.get(id))];
          }),
        );
      }
      const products = dataGames.find((g) => g.id === game.id)!.products!;
      const holdings = [...(game.holdings.get(user.uid) ?? [])].filter(
        ([item, units]) =>
          units > 0 &&
          products.some((p) => p.sku === item || (p.type === 'consumable' && p.sku.split(':')[0] === item)),
      );
      if (holdings.length > 0) {
        out.holdings ??= {};
        out.holdings[game.id] = Object.fromEntries(holdings);
      }
      const saves = [...(game.saves.get(user.uid) ?? [])]
        .filter(([key, value]) => value !== undefined && isSaveKey(key) && saveValueProblem(value) === null)
        .slice(0, 100);
      if (saves.length > 0) {
        out.saves ??= {};
        out.saves[game.id] = Object.fromEntries(saves) as Record<string, string>;
      }
    }
    users.push(out);
  }
  const data: DataFile = { games: dataGames, users };
  // The same checks as any data file: what a recording cannot express is said here, before anything is started.
  return { data: parseDataText(options.label, JSON.stringify(data), true), keys };
}
