/**
 * The dashboard's data, as `/_sandbox` JSON endpoints (behind the address check of
 * http/admin.ts): the games with their api keys redacted (never a signing secret), a user search,
 * and one user's achievements, holdings and game saves per game. Dates are `YYYY-MM-DD HH:MM:SS` UTC, as
 * everywhere in the sandbox.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { normalizeHex32 } from '../../domain/ids.js';
import { redact } from '../../redact.js';
import { PLAY_PATH } from '../constants.js';
import { registerAdminRoute } from '../http/admin.js';
import { fail, shown } from '../http/failure.js';
import { parseQuery, splitTarget } from '../http/query.js';
import type { GameRecord } from '../repositories/games.js';
import type { Repositories } from '../repositories/index.js';
import type { UserRecord } from '../repositories/users.js';
import { formatDateTime, formatNullableDateTime } from '../time.js';
import { printable } from '../../printable.js';

export const USER_SEARCH_DEFAULT_LIMIT = 20;
export const USER_SEARCH_MAX_LIMIT = 100;
/** Usernames are short; a longer query can match nothing useful. */
export const USER_QUERY_MAX_LENGTH = 64;
/** Achievements shown per game: a dashboard, not an export. */
const ACHIEVEMENTS_PER_GAME = 500;
/** The dashboard's word (not the API's) for a quest the user has no record of. */
const NOT_STARTED = 'Not Started';
/** Characters of a saved value the user view shows (a save may be 256 KiB). */
export const SAVE_PREVIEW_CHARS = 80;

/** The first characters of a value (whole code points), escaped; `…` when there is more. */
function preview(head: string): string {
  const chars = Array.from(head);
  const shortened = chars.length > SAVE_PREVIEW_CHARS;
  return printable(chars.slice(0, SAVE_PREVIEW_CHARS).join('')) + (shortened ? '…' : '');
}

const playPath = (gameId: string): string => `${PLAY_PATH}/${encodeURIComponent(gameId)}`;

function presentGame(repos: Repositories, game: GameRecord) {
  return {
    id: game.id,
    name: game.name,
    type: game.type,
    launchable: game.launchable,
    signing: game.signing,
    content_uri: game.contentUri,
    play_path: playPath(game.id),
    api_keys: repos.games
      .apiKeysOf(game.id)
      .map((key) => ({ api_key: redact(key.apiKey), partner: key.partner, label: key.label })),
  };
}

function presentUserSummary(user: UserRecord) {
  return { uid: user.uid, username: user.username, premium: user.premium, created_on: formatDateTime(user.createdOn) };
}

function searchLimit(text: string | undefined): number {
  if (text === undefined) return USER_SEARCH_DEFAULT_LIMIT;
  if (!/^\d{1,4}$/.test(text) || Number(text) < 1 || Number(text) > USER_SEARCH_MAX_LIMIT) {
    throw fail.invalidParameter('limit', `a whole number from 1 to ${USER_SEARCH_MAX_LIMIT}`);
  }
  return Number(text);
}

/** `?q=`: a username prefix, or a uid (32 hex digits, found whatever its case). */
function searchUsers(repos: Repositories, request: FastifyRequest) {
  const query = parseQuery(splitTarget(request.url).query);
  const q = query.require('q');
  if (q.length > USER_QUERY_MAX_LENGTH)
    throw fail.invalidParameter('q', `longer than ${USER_QUERY_MAX_LENGTH} characters`);
  const limit = searchLimit(query.get('limit'));
  const byUid = normalizeHex32(q);
  const exact = byUid === null ? undefined : repos.users.findByUid(byUid);
  // One more than asked, to tell whether there are more.
  const found = repos.users.searchByUsernamePrefix(q, limit + 1).filter((u) => u.uid !== exact?.uid);
  const users = [...(exact ? [exact] : []), ...found];
  return { query: q, users: users.slice(0, limit).map(presentUserSummary), more: users.length > limit };
}

function userDetail(repos: Repositories, request: FastifyRequest) {
  const given = (request.params as { uid: string }).uid;
  const uid = normalizeHex32(given);
  if (uid === null) throw fail.invalidParameter('uid', `32 hex digits, got ${shown(given, 40)}`);
  const user = repos.users.findByUid(uid);
  if (!user) throw fail.notFound(`user ${uid}`);
  const holdings = repos.products.holdingsOf(uid);
  // One more character than shown, to tell whether the value goes on.
  const saves = repos.saves.summariesOf(uid, SAVE_PREVIEW_CHARS + 1);
  const games = repos.games.list().flatMap((game) => {
    // The API lists started quests only (the platform's pages); the dashboard, like the CLI,
    // shows every quest of the game, in definition order, the untouched ones as Not Started.
    const started = new Map(
      repos.achievements
        .list({
          uid,
          parentType: game.type,
          parentId: game.id,
          order: 'name',
          sort: 'asc',
          limit: ACHIEVEMENTS_PER_GAME,
          offset: 0,
        })
        .map((a) => [a.achievementId, a]),
    );
    const achievements = repos.achievements.definitionsOf(game.type, game.id).map((def) => {
      const a = started.get(def.id);
      return {
        developer_id: def.developerId,
        name: def.name,
        state: a?.state ?? NOT_STARTED,
        start_value: def.startValue,
        current_value: a?.currentValue ?? def.startValue,
        target_value: def.targetValue,
        percent_complete: a?.percentComplete ?? 0,
        completed_on: formatNullableDateTime(a?.completedOn ?? null),
      };
    });
    const held = holdings
      .filter((h) => h.parentId === game.id)
      .map((h) => ({
        item: h.item,
        kind: h.products[0]?.kind ?? null,
        units: h.quantity,
        updated_on: formatDateTime(h.updatedOn),
        products: h.products.map((p) => ({ sku: p.sku, name: p.name })),
      }));
    const saved = saves
      .filter((save) => save.gameId === game.id)
      .map((save) => ({
        key: save.key,
        bytes: save.bytes,
        updated_on: formatDateTime(save.updatedOn),
        preview: preview(save.head),
      }));
    const played = repos.users.hasPlayed(uid, game.id);
    // A game the user never touched would show only Not Started rows: left out.
    if (!played && held.length === 0 && saved.length === 0 && achievements.every((a) => a.state === NOT_STARTED))
      return [];
    return [
      {
        id: game.id,
        name: game.name,
        play_path: playPath(game.id),
        played,
        achievements,
        holdings: held,
        saves: saved,
      },
    ];
  });
  return {
    user: {
      ...presentUserSummary(user),
      gender: user.gender,
      birthday: user.birthday,
      friends: repos.users.friendCount(uid),
      avatar_path: `/avatars/${uid}.svg`,
    },
    games,
  };
}

export function registerDashboardApi(app: FastifyInstance, repos: Repositories): void {
  registerAdminRoute(app, {
    method: 'GET',
    path: '/games',
    handler: () => ({ games: repos.games.list().map((g) => presentGame(repos, g)) }),
  });
  registerAdminRoute(app, { method: 'GET', path: '/users', handler: (request) => searchUsers(repos, request) });
  registerAdminRoute(app, { method: 'GET', path: '/users/:uid', handler: (request) => userDetail(repos, request) });
}
