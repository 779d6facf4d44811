import type { Column } from '../../../output/types.js';
import type { User } from '../../../domain/types.js';
import { cellText, isoFromSeconds } from '../../../ops/args.js';

/** `udcli user`: the profile fields; created_on (Unix seconds) shown as an ISO date. */
export const USER_COLUMNS: ReadonlyArray<Column<User>> = [
  { key: 'uid', header: 'UID', cell: (u) => cellText(u.uid) },
  { key: 'username', header: 'USERNAME', cell: (u) => cellText(u.username) },
  { key: 'gender', header: 'GENDER', cell: (u) => cellText(u.gender) },
  {
    key: 'birthday',
    header: 'BIRTHDAY',
    cell: (u) => (u.birthday === '0000-00-00' ? '(unknown)' : cellText(u.birthday)),
  },
  {
    key: 'premium',
    header: 'PREMIUM',
    cell: (u) =>
      u.premium === undefined ? '' : u.premium === true || u.premium === 1 || u.premium === '1' ? 'yes' : 'no',
  },
  { key: 'created_on', header: 'CREATED', cell: (u) => isoFromSeconds(u.created_on) },
  { key: 'plays_game', header: 'PLAYS GAME', cell: (u) => cellText(u.plays_game) },
  { key: 'avatar', header: 'AVATAR', cell: (u) => cellText(u.avatar) },
];

/** `udcli friends`: one row per friend. */
export const FRIEND_COLUMNS: ReadonlyArray<Column<User>> = [
  { key: 'uid', header: 'UID', cell: (u) => cellText(u.uid) },
  { key: 'username', header: 'USERNAME', cell: (u) => cellText(u.username) },
  { key: 'gender', header: 'GENDER', cell: (u) => cellText(u.gender) },
  { key: 'plays_game', header: 'PLAYS GAME', cell: (u) => cellText(u.plays_game) },
];
