/**
 * The whole state of a sandbox database as a data file (YAML or JSON), produced piece by piece
 * so that memory stays flat on 100,000 users. The order and the fields are those a load into an
 * empty database reproduces: export → load → export gives the same file. Fields at their default
 * are left out; dates a file does not carry (progress, friendships, sales, saves) are not exported,
 * but for a Revoked quest's completion date (its state and date cannot follow from its value).
 */
import { Document, visit } from 'yaml';
import { uidForUsername } from '../../domain/ids.js';
import type { SandboxDatabase } from '../database.js';
import { dataRepository, inOneRead } from '../repositories/data.js';
import { formatDateTime } from '../time.js';
import { jsonSafe, jsonText } from '../../printable.js';
import type { DataGame, DataUser } from './model.js';
import { SCHEMA_REFERENCE } from './schema.js';

export type DataFormat = 'yaml' | 'json';

function price(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

function parseTags(json: string): Record<string, string> {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** Sets `key` only when the value is not the default, so files stay short and stable. */
function put<T extends object, K extends keyof T>(
  target: T,
  key: K,
  value: T[K],
  unless: T[K] | ((v: T[K]) => boolean),
): void {
  const skip = typeof unless === 'function' ? (unless as (v: T[K]) => boolean)(value) : value === unless;
  if (!skip) target[key] = value;
}

function* gamesOf(sql: ReturnType<typeof dataRepository>): Generator<DataGame> {
  for (const g of sql.games.all()) {
    const game: DataGame = { id: g.id, name: g.name };
    put(game, 'type', g.type as DataGame['type'], 'Game');
    put(game, 'launchable', g.launchable === 1, false);
    put(game, 'content_uri', g.content_uri, null);
    put(game, 'signing', g.signing as DataGame['signing'], 'agi');
    const keys = sql.keysOf.all(g.id).map((k) => {
      const key: NonNullable<DataGame['keys']>[number] = { api_key: k.api_key };
      put(key, 'signing_secret', k.signing_secret, '');
      put(key, 'partner', k.partner === 1, false);
      put(key, 'label', k.label, '');
      return key;
    });
    if (keys.length) game.keys = keys;
    const achievements = sql.achievementsOf.all(g.id).map((a) => {
      const out = { developer_id: a.developer_id, name: a.name } as NonNullable<DataGame['achievements']>[number];
      put(out, 'description', a.description, '');
      put(out, 'admin_description', a.admin_description, '');
      put(out, 'icon', a.icon, '');
      put(out, 'start_value', a.start_value, 0);
      out.target_value = a.target_value;
      put(out, 'score', a.score, 0);
      put(out, 'state', a.state as 'Active' | 'Inactive', 'Active');
      put(out, 'tags', parseTags(a.tags), (t) => Object.keys(t ?? {}).length === 0);
      return out;
    });
    if (achievements.length) game.achievements = achievements;
    const products = sql.productsOf.all(g.id).map((p) => {
      const out = {
        sku: p.sku,
        type: p.type === 'consumable' ? 'consumable' : 'unlockable',
        name: p.name,
      } as NonNullable<DataGame['products']>[number];
      put(out, 'description', p.description, '');
      out.price = price(p.price_cents);
      out.display_order = p.display_order;
      put(out, 'status', p.status, 'active');
      put(out, 'image', p.image, '');
      return out;
    });
    if (products.length) game.products = products;
    yield game;
  }
}

function* usersOf(sql: ReturnType<typeof dataRepository>): Generator<DataUser> {
  for (const u of sql.users.iterate()) {
    const user: DataUser = { username: u.username };
    put(user, 'uid', u.uid, uidForUsername(u.username));
    user.gender = u.gender;
    user.created_on = formatDateTime(u.created_on);
    put(user, 'birthday', u.birthday, '0000-00-00');
    put(user, 'premium', u.premium === 1, false);
    put(user, 'email', u.email, '');
    // Each friendship once, under the user who comes first; nothing but the current user is kept in memory.
    const friends = sql.laterFriendsOf.all({ uid: u.uid, createdOn: u.created_on }).map((f) => f.username);
    if (friends.length) user.friends = friends;
    const plays = sql.playsOf.all(u.uid).map((p) => p.game_id);
    if (plays.length) user.plays = plays;
    const progress: NonNullable<DataUser['progress']> = {};
    // The bare value says all but a Revoked quest (its state follows from the value otherwise).
    for (const p of sql.progressOf.all(u.uid)) {
      (progress[p.parent_id] ??= {})[p.developer_id] =
        p.state === 'Revoked'
          ? {
              value: p.current_value,
              state: 'Revoked',
              ...(p.completed_on === null ? {} : { completed_date: formatDateTime(p.completed_on) }),
            }
          : p.current_value;
    }
    if (Object.keys(progress).length) user.progress = progress;
    const holdings: Record<string, Record<string, number>> = {};
    for (const h of sql.holdingsOf.all(u.uid)) (holdings[h.parent_id] ??= {})[h.item] = h.quantity;
    if (Object.keys(holdings).length) user.holdings = holdings;
    const saves: Record<string, Record<string, string>> = {};
    for (const s of sql.savesOf.all(u.uid)) (saves[s.game_id] ??= {})[s.key] = s.value;
    if (Object.keys(saves).length) user.saves = saves;
    yield user;
  }
}

/**
 * One list item of YAML. The file is printed too (`export -`), so the one rule applies: a string
 * holding a control or bidi character is written double-quoted, where the `\u` escapes jsonSafe
 * puts in its place read back as the same text (YAML would leave bidi and C1 raw).
 */
function yamlItem(value: unknown): string {
  const doc = new Document([value]);
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && jsonSafe(node.value) !== node.value) node.type = 'QUOTE_DOUBLE';
    },
  });
  return jsonSafe(doc.toString({ lineWidth: 0 }));
}

/** The file, in chunks (one game or one user each). */
export function* exportChunks(db: SandboxDatabase, format: DataFormat): Generator<string> {
  // One read transaction: a running sandbox may write meanwhile; the file is one moment's state.
  yield* inOneRead(db.sqlite, () => chunks(db, format));
}

function* chunks(db: SandboxDatabase, format: DataFormat): Generator<string> {
  const sql = dataRepository(db.sqlite);
  if (format === 'json') {
    yield `{\n  "$schema": ${JSON.stringify(SCHEMA_REFERENCE)},\n  "games": [`;
    let first = true;
    for (const game of gamesOf(sql)) {
      yield `${first ? '' : ','}\n    ${jsonText(game)}`;
      first = false;
    }
    yield '\n  ],\n  "users": [';
    first = true;
    for (const user of usersOf(sql)) {
      yield `${first ? '' : ','}\n    ${jsonText(user)}`;
      first = false;
    }
    yield '\n  ]\n}\n';
    return;
  }
  yield `# yaml-language-server: $schema=${SCHEMA_REFERENCE}\n# udcli sandbox data (udcli sandbox export; udcli sandbox schema > ${SCHEMA_REFERENCE.slice(2)})\ngames:\n`;
  let any = false;
  for (const game of gamesOf(sql)) {
    any = true;
    yield yamlItem(game);
  }
  if (!any) yield '  []\n';
  yield 'users:\n';
  any = false;
  for (const user of usersOf(sql)) {
    any = true;
    yield yamlItem(user);
  }
  if (!any) yield '  []\n';
}
