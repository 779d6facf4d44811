/**
 * Switching users on the play page: the switcher, the user list and the `?as=USERNAME` confirmation.
 * A switch is a form POST to `/play/{game_id}/login` (the sandbox login: a session cookie), never
 * a GET, so a link or an image on another site cannot log anyone in; `?as=USERNAME` shows that
 * form. The page's query flags (`?direct=1` and any other) ride along in the form's action and come
 * back in the redirect, so a login keeps the page the visitor asked for.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { shown } from '../http/failure.js';
import { escapeHtml } from '../http/html.js';
import { parseQuery } from '../http/query.js';
import { usersOfGame } from '../loaded.js';
import type { GameRecord } from '../repositories/games.js';
import type { UserRecord } from '../repositories/users.js';
import { sessionUser } from '../routes/site.js';
import type { PlayDeps } from './deps.js';
import { headerHtml, loginHref, sendPage } from './template.js';

/**
 * The query flags a login carries back to the page: every pair of the page's query but `as` (the
 * login it asks for is the one being made), encoded again. Throws the query's 400 when it is bad.
 */
export function pageFlags(rawQuery: string): string {
  return new URLSearchParams(
    parseQuery(rawQuery)
      .pairs.filter(([name]) => name !== 'as')
      .map(([n, v]): [string, string] => [n, v]),
  ).toString();
}

/** A one-button form that logs `username` in and comes back to the game's page (with its flags). */
export function loginForm(gameId: string, flags: string, username: string, label: string, attrs = ''): string {
  return (
    `<form method="post" action="${escapeHtml(loginHref(gameId, flags))}"><input type="hidden" name="username" value="${escapeHtml(username)}">` +
    `<button type="submit" class="user"${attrs}>${escapeHtml(label)}</button></form>`
  );
}

/** Users offered on a game's play page: the demo's named users who play it, then its other players. */
const OFFERED_USERS = 6;

/** The users of the game this page plays (see usersOfGame), and the current user if not among them. */
function switchableUsers(deps: PlayDeps, game: GameRecord, current: UserRecord | undefined): UserRecord[] {
  const users = usersOfGame(deps.repos, game.id, OFFERED_USERS);
  if (current && !users.some((u) => u.uid === current.uid)) users.push(current);
  return users;
}

export function switcherHtml(deps: PlayDeps, game: GameRecord, current: UserRecord | undefined, flags: string): string {
  const forms = switchableUsers(deps, game, current).map((u) =>
    loginForm(game.id, flags, u.username, u.username, u.uid === current?.uid ? ' aria-current="true"' : ''),
  );
  return (
    `<nav class="switch" aria-label="switch user"><span class="muted">${current ? 'Switch user:' : 'Play as:'}</span>${forms.join('')}` +
    `<form class="any" method="post" action="${escapeHtml(loginHref(game.id, flags))}"><input name="username" placeholder="any username" aria-label="username" required>` +
    `<button type="submit">Play as</button></form></nav>`
  );
}

function userListHtml(deps: PlayDeps, game: GameRecord, flags: string): string {
  const users = switchableUsers(deps, game, undefined);
  if (users.length === 0)
    return '<p>This sandbox has no users (it was started with <code>--seed none</code>, or its data file has none).</p>';
  const items = users.map(
    (u) => `<li>${loginForm(game.id, flags, u.username, u.username)} <code>${escapeHtml(u.uid)}</code></li>`,
  );
  return `<ul class="users">${items.join('')}</ul>`;
}

export function pickUserPage(deps: PlayDeps, game: GameRecord, flags: string, notice = ''): string {
  return (
    `${headerHtml(game, undefined)}${switcherHtml(deps, game, undefined, flags)}<main><div class="box" id="pick-user">` +
    `${notice}<h2>Pick a user to play ${escapeHtml(game.name)} as</h2>` +
    `<p>The play page shows the game only to a logged-in user. The sandbox needs no password: pick one.</p>` +
    `${userListHtml(deps, game, flags)}</div></main>`
  );
}

export function currentUser(request: FastifyRequest, deps: PlayDeps): UserRecord | undefined {
  const uid = sessionUser(deps, request);
  return uid === undefined ? undefined : deps.repos.users.findByUid(uid);
}

/** `?as=NAME`: who would be logged in, and the form that does it (a GET itself changes nothing). */
export function confirmPage(
  deps: PlayDeps,
  game: GameRecord,
  user: UserRecord,
  current: UserRecord | undefined,
  flags: string,
): string {
  return (
    `${headerHtml(game, current)}${switcherHtml(deps, game, current, flags)}<main><div class="box" id="confirm-user">` +
    `<h2>Play ${escapeHtml(game.name)} as ${escapeHtml(user.username)}?</h2>` +
    `${loginForm(game.id, flags, user.username, `Play as ${user.username}`)}</div></main>`
  );
}

export function unknownUser(
  reply: FastifyReply,
  deps: PlayDeps,
  game: GameRecord,
  username: string,
  flags: string,
): FastifyReply {
  const notice = `<p class="muted" id="unknown-user">There is no user named <strong>${escapeHtml(shown(username))}</strong> in this sandbox.</p>`;
  return sendPage(reply, 404, `${game.name} · udcli sandbox`, pickUserPage(deps, game, flags, notice));
}
