/**
 * The play page of a logged-in user: the game in its iframe, a fresh `user_id` and `auth_token`
 * appended on every load, and the page's data for the platform script (a JSON element: no inline
 * script). The content URI is read from the database on each request, so `udcli sandbox game
 * set-uri` takes effect on the next load.
 */
import type { FastifyRequest } from 'fastify';
import { API_PREFIX } from '../../domain/types.js';
import { TOKEN_GENERATOR_PATH } from '../constants.js';
import { contentUriProblem, iframeUrl } from '../content-uri.js';
import { PLATFORM_SCRIPT_PATH } from '../game-page/routes.js';
import { escapeHtml } from '../http/html.js';
import type { GameRecord } from '../repositories/games.js';
import type { UserRecord } from '../repositories/users.js';
import { issueToken } from '../routes/site.js';
import type { PlayDeps } from './deps.js';
import { headerHtml, shellWord } from './template.js';
import { switcherHtml } from './user-switch.js';

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

export async function gamePage(
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
