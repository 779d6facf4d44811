/**
 * The play page of the sandbox site, `GET /play/{game_id}`: the platform's game page (spec 1.1,
 * docs/PLATFORM.md "The game page around the game"). It shows the game's name, who is logged in and a
 * user switcher, and iframes the game with a fresh `user_id` and `auth_token` appended on every
 * load, exactly as the platform does. Around the game it gives what the platform's page gives:
 * `parent.apiAuth` and `parent.agi` (`/_sandbox/platform.js`: the store, quest notices, the
 * purchase handler), which a game reaches through the connect script's stand-in `parent`
 * (postMessage). The game is served by the game host, an origin of its own, when it can be
 * (`frameSrc`: a game directory, a proxied dev server or content URI); `?direct=1` iframes the
 * content URI itself, as the platform does, for a game that includes `/_sandbox/connect.js` on
 * its own server.
 *
 * Switching users is a form POST to `/play/{game_id}/login` (the sandbox login: a session cookie),
 * never a GET, so a link or an image on another site cannot log anyone in; `?as=USERNAME` shows
 * that form. The page's query flags (`?direct=1` and any other) ride along in the form's action
 * and come back in the redirect, so a login keeps the page the visitor asked for. No inline script (the CSP says so):
 * the page's data travels in a JSON element read by
 * the platform script, and every value from the database or the request is escaped. The content
 * URI is read from the database on each request, so `udcli sandbox game set-uri` takes effect on
 * the next load.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { usersOfGame } from '../loaded.js';
import { PLAY_PATH, TOKEN_GENERATOR_PATH } from '../constants.js';
import { contentUriProblem, iframeUrl } from '../content-uri.js';
import { ApiFailure, shown } from '../http/failure.js';
import { parseQuery, splitTarget } from '../http/query.js';
import type { GameRecord } from '../repositories/games.js';
import type { UserRecord } from '../repositories/users.js';
import { API_PREFIX } from '../../domain/types.js';
import { refuseCrossSite } from '../http/cross-site.js';
import { escapeHtml, sendHtml } from '../http/html.js';
import { PLATFORM_SCRIPT_PATH } from '../game-page/routes.js';
import { sessionCookieHeader } from './session-cookie.js';
import { issueToken, sessionUser, startSession, type SiteDeps } from './site.js';

export interface PlayDeps extends SiteDeps {
  /** The database file (or ':memory:'), for the "how to set the content URI" hint. */
  dbPath: string;
  /** The database `udcli sandbox game set-uri` uses without --db; null when unknown. */
  defaultDbPath: string | null;
  /**
   * Where the iframe loads the game from when the sandbox's game host serves it (a game directory
   * or a proxied URL, on the game host's origin, user_id and auth_token appended); null: it does
   * not, and the page iframes the content URI itself.
   */
  frameSrc?: (request: FastifyRequest, game: GameRecord, userId: string, authToken: string) => string | null;
  /**
   * The origin a browser is sent to for the play page (`http://sandbox.localhost:PORT`, the site
   * the games served by the game host share: game-host/game-names.ts), or null: it stays.
   */
  playOrigin?: (request: FastifyRequest) => string | null;
}

/** A shell word for the commands shown on the page (POSIX single quotes when needed). */
function shellWord(value: string): string {
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

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2330;background:#eef1f6}
header{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem;padding:.8rem 1.2rem;background:#1d2330;color:#fff}
header h1{margin:0;font-size:1.3rem}
header .tag{font-size:.75rem;padding:.1rem .5rem;border:1px solid #8a93a6;border-radius:1rem;color:#c9cfdb}
header .who{margin-left:auto;display:flex;align-items:center;gap:.5rem}
header .who img{border-radius:50%}
code{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#e3e7ef;padding:.05rem .3rem;border-radius:3px;word-break:break-all}
header code{background:#2f3748;color:#dfe4ee}
nav.switch{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem .8rem;padding:.5rem 1.2rem;background:#fff;border-bottom:1px solid #d5dae3}
nav.switch a,nav.switch button.user{color:#2251c5}
nav.switch [aria-current]{font-weight:700;color:#1d2330;text-decoration:none}
nav.switch form{display:inline}
nav.switch form.any{margin-left:auto;display:flex;gap:.3rem}
button.user{background:none;border:none;padding:0;text-decoration:underline;cursor:pointer}
input,button{font:inherit;padding:.2rem .5rem}
main{padding:1rem 1.2rem}
#frame-box{position:relative;width:100%;height:70vh;min-width:240px;min-height:240px;max-width:100%;resize:both;overflow:hidden;border:1px solid #c5ccd8;border-radius:6px;background:#fff}
iframe.game{display:block;width:100%;height:100%;border:0}
.frame-bar{display:flex;flex-wrap:wrap;align-items:center;gap:.3rem .8rem;margin-top:.3rem;font-size:.85rem}
.frame-bar button{font-size:.85rem;padding:.05rem .5rem}
.box{max-width:52rem;background:#fff;border:1px solid #d5dae3;border-radius:6px;padding:1rem 1.2rem}
.box.warn{border-color:#e0a800;background:#fff8e1}
ul.users{padding-left:1.2rem}
details{margin-top:.8rem;max-width:80rem}
.muted{color:#5b6476}
#stage{position:relative}
#store{position:fixed;inset:0;z-index:10;display:flex;align-items:center;justify-content:center;padding:1rem;background:rgba(20,24,34,.55)}
#store .store-box{display:flex;flex-direction:column;background:#fff;border-radius:8px;padding:1rem 1.2rem;min-width:min(22rem,100%);max-width:100%;max-height:100%;box-shadow:0 8px 30px rgba(0,0,0,.3)}
#store h2{margin:.1rem 0 .6rem;flex:none}
#store ul.products{list-style:none;padding:0;margin:0 0 .8rem;flex:1 1 auto;min-height:0;overflow:auto}
#store .store-actions{flex:none;display:flex;justify-content:flex-end;padding-top:.6rem;border-top:1px solid #e3e7ef}
#store li.product button.buy:disabled{cursor:default}
#store li.product{display:flex;align-items:center;gap:1rem;padding:.45rem 0;border-bottom:1px solid #e3e7ef}
#store li.product .info{flex:1;display:flex;flex-direction:column}
#store li.product .name{font-weight:600}
#store li.product .sku{color:#5b6476;font:12px ui-monospace,monospace}
#store li.product .meta{display:flex;flex-direction:column;align-items:flex-end;min-width:7rem;font-size:.85rem;color:#5b6476}
#store li.product .price{font-size:1rem;font-weight:600;color:#1d2330}
#store li.product .pack:empty{display:none}
#store .store-message:empty{display:none}
#store .store-message{color:#a33}
#quest-notice{position:absolute;z-index:2;right:1rem;top:1rem;background:#1d2330;color:#fff;padding:.6rem .9rem;border-radius:6px;box-shadow:0 4px 16px rgba(0,0,0,.3)}
#quest-notice .quest-state{color:#ffd35c}
`;

function page(title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>${head}
</head>
<body>
${body}
</body>
</html>
`;
}

function sendPage(reply: FastifyReply, status: number, title: string, body: string, head = ''): FastifyReply {
  return sendHtml(reply, status, CSP, page(title, body, head));
}

const playHref = (gameId: string): string => `${PLAY_PATH}/${encodeURIComponent(gameId)}`;
/** `path` with the page's query flags (already encoded), if any. */
const withFlags = (path: string, flags: string): string => (flags === '' ? path : `${path}?${flags}`);
const loginHref = (gameId: string, flags: string): string => withFlags(`${playHref(gameId)}/login`, flags);

/**
 * The query flags a login carries back to the page: every pair of the page's query but `as` (the
 * login it asks for is the one being made), encoded again. Throws the query's 400 when it is bad.
 */
function pageFlags(rawQuery: string): string {
  return new URLSearchParams(
    parseQuery(rawQuery)
      .pairs.filter(([name]) => name !== 'as')
      .map(([n, v]): [string, string] => [n, v]),
  ).toString();
}

/** A one-button form that logs `username` in and comes back to the game's page (with its flags). */
function loginForm(gameId: string, flags: string, username: string, label: string, attrs = ''): string {
  return (
    `<form method="post" action="${escapeHtml(loginHref(gameId, flags))}"><input type="hidden" name="username" value="${escapeHtml(username)}">` +
    `<button type="submit" class="user"${attrs}>${escapeHtml(label)}</button></form>`
  );
}

function headerHtml(game: GameRecord, user: UserRecord | undefined): string {
  const who = user
    ? `<div class="who"><img src="/avatars/${escapeHtml(user.uid)}.svg?size=28" width="28" height="28" alt="">` +
      `<span>Playing as <strong id="username">${escapeHtml(user.username)}</strong> <code id="uid">${escapeHtml(user.uid)}</code></span></div>`
    : '<div class="who">Not logged in</div>';
  return `<header><h1 id="game-name">${escapeHtml(game.name)}</h1><span class="tag">game ${escapeHtml(game.id)} · udcli sandbox</span>${who}</header>`;
}

/** Users offered on a game's play page: the demo's named users who play it, then its other players. */
const OFFERED_USERS = 6;

/** The users of the game this page plays (see usersOfGame), and the current user if not among them. */
function switchableUsers(deps: PlayDeps, game: GameRecord, current: UserRecord | undefined): UserRecord[] {
  const users = usersOfGame(deps.repos, game.id, OFFERED_USERS);
  if (current && !users.some((u) => u.uid === current.uid)) users.push(current);
  return users;
}

function switcherHtml(deps: PlayDeps, game: GameRecord, current: UserRecord | undefined, flags: string): string {
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

/** How to set the content URI of `game` on the database this sandbox uses. */
function setUriHelp(deps: PlayDeps, game: GameRecord): string {
  if (deps.dbPath === ':memory:' || deps.dbPath === '') {
    return (
      '<p>This sandbox keeps its data in memory, where <code>udcli sandbox game set-uri</code> cannot reach it. ' +
      'Start it with a database file (<code>udcli sandbox start --db FILE</code>), then set the URI with ' +
      `<code>udcli sandbox game set-uri ${escapeHtml(shellWord(game.id))} &lt;url&gt; --db FILE</code>.</p>`
    );
  }
  const db = deps.defaultDbPath !== null && deps.dbPath === deps.defaultDbPath ? '' : ` --db ${shellWord(deps.dbPath)}`;
  const command = `udcli sandbox game set-uri ${shellWord(game.id)} http://localhost:3000/${db}`;
  return (
    `<p>Set it (an http or https URL of your game server) with:</p><p><code id="set-uri">${escapeHtml(command)}</code></p>` +
    '<p class="muted">The running sandbox reads it on each load: reload this page afterwards.</p>'
  );
}

/** The key the page's store and quest notices call the API with: the game's own (not a partner's). */
function pageApiKey(deps: PlayDeps, game: GameRecord): string | null {
  const keys = deps.repos.games.apiKeysOf(game.id);
  return (keys.find((k) => !k.partner) ?? keys[0])?.apiKey ?? null;
}

/** The page's data for platform.js, as JSON text safe inside a <script> element. */
function platformData(deps: PlayDeps, game: GameRecord, user: UserRecord, token: string): string {
  const data = {
    apiAuth: { user_id: user.uid, auth_token: token, game_id: game.id },
    apiKey: pageApiKey(deps, game),
    gameName: game.name,
  };
  return JSON.stringify(data).replace(/</g, '\\u003c');
}

interface GameView {
  status: number;
  body: string;
  head?: string;
}

async function gamePage(
  deps: PlayDeps,
  request: FastifyRequest,
  game: GameRecord,
  user: UserRecord,
  direct: boolean,
  flags: string,
): Promise<GameView> {
  const top = headerHtml(game, user) + switcherHtml(deps, game, user, flags);
  const uri = game.contentUri;
  const token = await issueToken(deps, user.uid, game.id);
  const servedSrc = direct ? null : (deps.frameSrc?.(request, game, user.uid, token.token) ?? null);
  const served = servedSrc !== null;
  let src: string;
  if (servedSrc !== null) {
    src = servedSrc;
  } else {
    if (uri === null || uri === '') {
      return {
        status: 200,
        body:
          `${top}<main><div class="box warn" id="no-content-uri"><h2>No content URI set for ${escapeHtml(game.name)}</h2>` +
          `<p>The platform iframes the game's content URI here, with <code>user_id</code> and <code>auth_token</code> appended. ` +
          `Serve a game from a directory or a dev server with <code>udcli sandbox play ${escapeHtml(shellWord(game.id))} --game-dir DIR</code> ` +
          `(or <code>--game-url URL</code>), or set the content URI.</p>${setUriHelp(deps, game)}</div></main>`,
      };
    }
    const problem = contentUriProblem(uri);
    if (problem !== null) {
      return {
        status: 200,
        body:
          `${top}<main><div class="box warn" id="bad-content-uri"><h2>The content URI cannot be shown</h2>` +
          `<p><code>${escapeHtml(uri)}</code>: ${escapeHtml(problem)}.</p>${setUriHelp(deps, game)}</div></main>`,
      };
    }
    src = iframeUrl(uri, user.uid, token.token);
  }
  const expires = new Date(token.expires_on * 1000).toISOString().replace('.000Z', 'Z');
  const how = served
    ? `<p>The sandbox's game host serves the game from an origin of its own, as the platform serves games from a host of ` +
      `their own; the game reaches <code>parent.apiAuth</code> and <code>parent.agi</code> through the connect script (by ` +
      `<code>postMessage</code>) and the API cross-origin. It appended <code>user_id</code> and a new <code>auth_token</code> ` +
      `(valid until ${escapeHtml(expires)}) and loaded:</p><p><code id="iframe-src">${escapeHtml(src)}</code></p>` +
      `<p class="muted">The iframe from the content URI directly, as the platform does: <a href="?direct=1">?direct=1</a> ` +
      `(the game then needs <code>/_sandbox/connect.js</code> on its own pages).</p>`
    : `<p>It appended <code>user_id</code> and a new <code>auth_token</code> (valid until ${escapeHtml(expires)}) to the content URI ` +
      `<code>${escapeHtml(uri ?? '')}</code> and loaded:</p><p><code id="iframe-src">${escapeHtml(src)}</code></p>`;
  return {
    status: 200,
    head:
      `\n<script type="application/json" id="platform-data">${platformData(deps, game, user, token.token)}</script>` +
      `\n<script src="${PLATFORM_SCRIPT_PATH}"></script>`,
    body:
      `${top}<main><div id="stage"><div id="frame-box"><iframe class="game" id="game" src="${escapeHtml(src)}" title="${escapeHtml(game.name)}" ` +
      `allow="autoplay; fullscreen; gamepad"></iframe><div id="quest-notice" role="status" hidden></div></div>` +
      `<div class="frame-bar muted"><span>Drag the frame's lower right corner to resize it; this browser keeps the size for this game.</span>` +
      `<button type="button" id="frame-reset">Default size</button></div></div>` +
      `<details><summary>What the platform did</summary>${how}` +
      `<p>Your server checks them with <code>GET ${escapeHtml(API_PREFIX)}/authenticate/user.json?user_id=…&amp;auth_token=…&amp;api_key=…</code> ` +
      `using the api_key of game ${escapeHtml(game.id)}. A new token comes with each load of this page ` +
      `(or from <code>${escapeHtml(TOKEN_GENERATOR_PATH)}/${escapeHtml(game.id)}</code>).</p></details></main>`,
  };
}

function pickUserPage(deps: PlayDeps, game: GameRecord, flags: string, notice = ''): string {
  return (
    `${headerHtml(game, undefined)}${switcherHtml(deps, game, undefined, flags)}<main><div class="box" id="pick-user">` +
    `${notice}<h2>Pick a user to play ${escapeHtml(game.name)} as</h2>` +
    `<p>The play page shows the game only to a logged-in user. The sandbox needs no password: pick one.</p>` +
    `${userListHtml(deps, game, flags)}</div></main>`
  );
}

function gamesListHtml(deps: PlayDeps): string {
  const games = deps.repos.games.list();
  if (games.length === 0) return '<p>This sandbox has no games (it was started with <code>--seed none</code>).</p>';
  const items = games.map(
    (g) =>
      `<li><a href="${escapeHtml(playHref(g.id))}">${escapeHtml(g.name)}</a> <code>${escapeHtml(g.id)}</code>` +
      `${g.contentUri ? '' : ' <span class="muted">(no content URI yet)</span>'}</li>`,
  );
  return `<ul>${items.join('')}</ul>`;
}

function errorBody(heading: string, detail: string, deps: PlayDeps): string {
  return `<main><div class="box warn" id="error"><h1>${escapeHtml(heading)}</h1><p>${escapeHtml(detail)}</p><h2>Games</h2>${gamesListHtml(deps)}</div></main>`;
}

function methodCheck(request: FastifyRequest, reply: FastifyReply, deps: PlayDeps): FastifyReply | null {
  if (request.method === 'GET' || request.method === 'HEAD') return null;
  reply.header('allow', 'GET, HEAD');
  return sendPage(
    reply,
    405,
    'Method not allowed',
    errorBody('Method not allowed', `${shown(request.method, 16)}: the play page answers GET only.`, deps),
  );
}

function currentUser(request: FastifyRequest, deps: PlayDeps): UserRecord | undefined {
  const uid = sessionUser(deps, request);
  return uid === undefined ? undefined : deps.repos.users.findByUid(uid);
}

/** `?as=NAME`: who would be logged in, and the form that does it (a GET itself changes nothing). */
function confirmPage(
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

function gameNotFound(reply: FastifyReply, deps: PlayDeps, gameId: string): FastifyReply {
  return sendPage(
    reply,
    404,
    'Game not found',
    errorBody('Game not found', `There is no game ${shown(gameId)} in this sandbox.`, deps),
  );
}

function unknownUser(
  reply: FastifyReply,
  deps: PlayDeps,
  game: GameRecord,
  username: string,
  flags: string,
): FastifyReply {
  const notice = `<p class="muted" id="unknown-user">There is no user named <strong>${escapeHtml(shown(username))}</strong> in this sandbox.</p>`;
  return sendPage(reply, 404, `${game.name} · udcli sandbox`, pickUserPage(deps, game, flags, notice));
}

export function registerPlayRoutes(app: FastifyInstance, deps: PlayDeps): void {
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

  // The user switch: a form POST (username=NAME), then back to the page, so a reload keeps the user.
  app.route<{ Params: { gameId: string } }>({
    method: methods,
    url: `${PLAY_PATH}/:gameId/login`,
    handler: async (request, reply) => {
      if (request.method !== 'POST') {
        reply.header('allow', 'POST');
        return sendPage(
          reply,
          405,
          'Method not allowed',
          errorBody('Method not allowed', 'Switching users is a form POST.', deps),
        );
      }
      const gameId = (request.params as { gameId: string }).gameId;
      const game = deps.repos.games.find(gameId);
      if (!game) return gameNotFound(reply, deps, gameId);
      let username: string | undefined;
      let flags: string;
      try {
        refuseCrossSite(request, 'a login');
        username = parseQuery(typeof request.body === 'string' ? request.body : '').get('username');
        flags = pageFlags(splitTarget(request.url).query);
      } catch (error) {
        if (!(error instanceof ApiFailure)) throw error;
        return sendPage(
          reply,
          error.code,
          error.code === 403 ? 'Forbidden' : 'Bad request',
          errorBody(error.code === 403 ? 'Forbidden' : 'Bad request', error.message, deps),
        );
      }
      if (username === undefined)
        return sendPage(reply, 400, 'Bad request', errorBody('Bad request', 'missing parameter: username', deps));
      const user = deps.repos.users.findByUsername(username);
      if (!user) return unknownUser(reply, deps, game, username, flags);
      return reply
        .code(303)
        .header('set-cookie', sessionCookieHeader(request, deps, await startSession(deps, user.uid)))
        .header('cache-control', 'no-store')
        .header('location', withFlags(playHref(game.id), flags))
        .send();
    },
  });

  app.route({
    method: methods,
    url: PLAY_PATH,
    handler: (request, reply) =>
      methodCheck(request, reply, deps) ??
      sendPage(
        reply,
        200,
        'Play · udcli sandbox',
        `<main><div class="box"><h1>Play a game</h1>${gamesListHtml(deps)}</div></main>`,
      ),
  });

  app.route<{ Params: { gameId: string } }>({
    method: methods,
    url: `${PLAY_PATH}/:gameId`,
    handler: async (request, reply) => {
      const refused = methodCheck(request, reply, deps);
      if (refused) return refused;
      const gameId = (request.params as { gameId: string }).gameId;
      const game = deps.repos.games.find(gameId);
      if (!game) return gameNotFound(reply, deps, gameId);
      let as: string | undefined;
      let direct = false;
      let flags: string;
      try {
        const rawQuery = splitTarget(request.url).query;
        const query = parseQuery(rawQuery);
        as = query.get('as');
        direct = query.has('direct') && query.get('direct') !== '0';
        flags = pageFlags(rawQuery);
      } catch (error) {
        if (!(error instanceof ApiFailure)) throw error;
        return sendPage(reply, error.code, 'Bad request', errorBody('Bad request', error.message, deps));
      }
      // On the games' site, so that the game's frame is not a third-party one (?direct=1 frames
      // the content URI, another site anyway). The login is made there too.
      const moved = direct ? null : (deps.playOrigin?.(request) ?? null);
      if (moved !== null)
        return reply.code(307).header('location', `${moved}${request.url}`).header('cache-control', 'no-store').send();
      const user = currentUser(request, deps);
      if (as !== undefined) {
        const wanted = deps.repos.users.findByUsername(as);
        if (!wanted) return unknownUser(reply, deps, game, as, flags);
        return sendPage(reply, 200, `${game.name} · udcli sandbox`, confirmPage(deps, game, wanted, user, flags));
      }
      if (!user) return sendPage(reply, 200, `${game.name} · udcli sandbox`, pickUserPage(deps, game, flags));
      const { status, body, head } = await gamePage(deps, request, game, user, direct, flags);
      return sendPage(reply, status, `${game.name} · udcli sandbox`, body, head);
    },
  });
}
