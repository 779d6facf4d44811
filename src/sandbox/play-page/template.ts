/**
 * The play page's HTML around its content: the document, its header and the error pages. No
 * inline script (the CSP says so), and every value from the database or the request is escaped.
 */
import type { FastifyReply } from 'fastify';
import { PLAY_PATH } from '../constants.js';
import { escapeHtml, sendHtml } from '../http/html.js';
import type { GameRecord } from '../repositories/games.js';
import type { UserRecord } from '../repositories/users.js';
import type { PlayDeps } from './deps.js';
import { PLAY_STYLE } from './style.js';

/** A shell word for the commands shown on the page (POSIX single quotes when needed). */
export function shellWord(value: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "connect-src 'self'",
  "style-src 'unsafe-inline'",
  "img-src 'self'",
  "frame-src 'self' http: https:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
].join('; ');

function page(title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${PLAY_STYLE}</style>${head}
</head>
<body>
${body}
</body>
</html>
`;
}

export function sendPage(reply: FastifyReply, status: number, title: string, body: string, head = ''): FastifyReply {
  return sendHtml(reply, status, CSP, page(title, body, head));
}

export const playHref = (gameId: string): string => `${PLAY_PATH}/${encodeURIComponent(gameId)}`;
/** `path` with the page's query flags (already encoded), if any. */
export const withFlags = (path: string, flags: string): string => (flags === '' ? path : `${path}?${flags}`);
export const loginHref = (gameId: string, flags: string): string => withFlags(`${playHref(gameId)}/login`, flags);

export function headerHtml(game: GameRecord, user: UserRecord | undefined): string {
  const who = user
    ? `<div class="who"><img src="/avatars/${escapeHtml(user.uid)}.svg?size=28" width="28" height="28" alt="">` +
      `<span>Playing as <strong id="username">${escapeHtml(user.username)}</strong> <code id="uid">${escapeHtml(user.uid)}</code></span></div>`
    : '<div class="who">Not logged in</div>';
  return `<header><h1 id="game-name">${escapeHtml(game.name)}</h1><span class="tag">game ${escapeHtml(game.id)} · udcli sandbox</span>${who}</header>`;
}

export function gamesListHtml(deps: PlayDeps): string {
  const games = deps.repos.games.list();
  if (games.length === 0) return '<p>This sandbox has no games (it was started with <code>--seed none</code>).</p>';
  const items = games.map(
    (g) =>
      `<li><a href="${escapeHtml(playHref(g.id))}">${escapeHtml(g.name)}</a> <code>${escapeHtml(g.id)}</code>` +
      `${g.contentUri ? '' : ' <span class="muted">(no content URI yet)</span>'}</li>`,
  );
  return `<ul>${items.join('')}</ul>`;
}

export function errorBody(heading: string, detail: string, deps: PlayDeps): string {
  return `<main><div class="box warn" id="error"><h1>${escapeHtml(heading)}</h1><p>${escapeHtml(detail)}</p><h2>Games</h2>${gamesListHtml(deps)}</div></main>`;
}
