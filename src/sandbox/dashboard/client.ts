/**
 * The dashboard's script, served from the sandbox itself (`/dashboard/dashboard.js`) so the page's
 * CSP can forbid inline script. Plain browser JavaScript, kept as a string so `tsc` ships it
 * without a copy step. Every value from the sandbox reaches the page as text (textContent and
 * attributes), never as HTML: usernames and game names may hold markup.
 */
export const DASHBOARD_JS = String.raw`'use strict';
(() => {
  /** Polls of the request log, and how many rows it keeps on the page. */
  const LOG_POLL_MS = 1000;
  const LOG_RETRY_MS = 3000;
  const LOG_ROWS = 200;
  /** Asked for per poll: modest, so a log with a lower cap on ?limit still answers. */
  const LOG_BATCH = 100;

  const $ = (id) => document.getElementById(id);

  /** An element with attributes and children (strings become text nodes). */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      node.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined) continue;
      node.append(typeof child === 'string' || typeof child === 'number' ? String(child) : child);
    }
    return node;
  }

  function replaceChildren(node, ...children) {
    node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined));
  }

  /** GET a /_sandbox endpoint: { status, body } (body null when it is not JSON). */
  async function getJson(path) {
    const response = await fetch(path, { headers: { accept: 'application/json' }, cache: 'no-store' });
    let body = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    return { status: response.status, body };
  }

  /** getJson, or null once the target says (in a tag element) that the sandbox did not answer. */
  async function getJsonOrSay(target, tag, path) {
    try {
      return await getJson(path);
    } catch {
      replaceChildren(target, el(tag, { class: 'error' }, 'The sandbox is not reachable.'));
      return null;
    }
  }

  function failure(what, reply) {
    const message = reply.body && typeof reply.body.message === 'string' ? reply.body.message : 'HTTP ' + reply.status;
    return el('p', { class: 'error' }, what + ': ' + message);
  }

  function table(head, rows, numeric) {
    return el(
      'table',
      {},
      el('thead', {}, el('tr', {}, head.map((h, i) => el('th', { class: numeric && numeric.includes(i) ? 'num' : null }, h)))),
      el('tbody', {}, rows),
    );
  }

  // --- games -------------------------------------------------------------------------------

  /** The folder or URL the play page serves the game from, and which setting chose it. */
  function servedCell(g, served) {
    if (!served.has(g.id)) return g.content_uri ? [el('code', {}, g.content_uri), el('div', { class: 'kind muted' }, 'content URI')] : el('span', { class: 'empty' }, 'not set');
    const source = served.get(g.id);
    if (!source) return el('span', { class: 'empty' }, 'nothing yet (set a content URI, or start with --game-dir / --game-url)');
    if (source.kind === 'dir') return [el('code', {}, source.dir), el('div', { class: 'kind muted' }, 'folder (--game-dir)')];
    return [el('code', {}, source.url), el('div', { class: 'kind muted' }, source.from_content_uri ? 'content URI' : 'dev server (--game-url)')];
  }

  async function loadGames() {
    const target = $('games-body');
    const reply = await getJsonOrSay(target, 'p', '/_sandbox/games');
    if (reply === null) return;
    if (reply.status !== 200) {
      replaceChildren(target, failure('Cannot list the games', reply));
      return;
    }
    const games = reply.body.games;
    // What really serves each game's play page (a folder, a dev server, the content URI): asked, not assumed.
    const served = new Map();
    try {
      const sources = await getJson('/_sandbox/game-sources');
      if (sources.status === 200 && sources.body && Array.isArray(sources.body.games)) {
        for (const s of sources.body.games) served.set(s.game_id, s.source);
      }
    } catch {
      // Unknown: the content URI is shown as before.
    }
    if (games.length === 0) {
      replaceChildren(target, el('p', { class: 'empty' }, 'No games (the sandbox was started with --seed none).'));
      return;
    }
    const rows = games.map((g) =>
      el(
        'tr',
        { 'data-game': g.id },
        el('td', {}, el('strong', {}, g.name), el('div', { class: 'muted' }, g.type + (g.launchable ? ', launchable' : ''))),
        el('td', {}, el('code', {}, g.id)),
        el('td', {}, g.signing),
        el(
          'td',
          { class: 'keys' },
          g.api_keys.length === 0
            ? el('span', { class: 'empty' }, 'none')
            : g.api_keys.map((k) => el('div', {}, el('code', { class: 'api-key' }, k.api_key), k.partner ? el('span', { class: 'badge' }, 'partner') : null)),
        ),
        el('td', { class: 'uri' }, servedCell(g, served)),
        el('td', {}, el('a', { href: g.play_path, class: 'play' }, 'Play')),
      ),
    );
    replaceChildren(target, table(['Game', 'Id', 'Signing', 'Api keys', 'Play page serves', ''], rows));
  }

  /* What the sandbox holds (the demo data, a data file and its hash) and its first users. */
  async function loadHolds() {
    let reply;
    try {
      reply = await getJson('/_sandbox/contents');
    } catch {
      return;
    }
    if (reply.status !== 200) return;
    const c = reply.body;
    const names = c.users.map((u) => u.username).join(', ') || 'none';
    const more = c.user_count > c.users.length ? ' … (' + c.user_count + ' in all)' : '';
    replaceChildren($('holds'), 'Holds ', el('strong', {}, c.origin.text), '. Users: ' + names + more + '.');
  }

  // --- users -------------------------------------------------------------------------------

  let shownUid = null;

  async function searchUsers(q) {
    const target = $('user-results');
    if (q === '') {
      replaceChildren(target, el('li', { class: 'empty' }, 'Type the start of a username, or a uid.'));
      return;
    }
    const reply = await getJsonOrSay(target, 'li', '/_sandbox/users?q=' + encodeURIComponent(q));
    if (reply === null) return;
    if (reply.status !== 200) {
      replaceChildren(target, el('li', {}, failure('Search failed', reply)));
      return;
    }
    const users = reply.body.users;
    if (users.length === 0) {
      replaceChildren(target, el('li', { class: 'empty' }, 'No user whose username starts with "' + q + '".'));
      return;
    }
    const items = users.map((u) =>
      el(
        'li',
        {},
        el(
          'button',
          { type: 'button', class: 'user', 'data-uid': u.uid, 'aria-pressed': u.uid === shownUid ? 'true' : 'false' },
          el('span', { class: 'username' }, u.username),
          el('code', {}, u.uid),
        ),
      ),
    );
    if (reply.body.more) items.push(el('li', { class: 'muted' }, 'More match: type more of the name.'));
    replaceChildren(target, items);
  }

  function stateClass(state) {
    return 'state-' + state.toLowerCase().replace(/\s+/g, '-');
  }

  /** One row per item of the list (key: its data attribute, cells: its cells), or the none text when it is empty. */
  function listTable(list, none, head, key, cells) {
    if (list.length === 0) return el('p', { class: 'empty' }, none);
    return table(head, list.map((x) => el('tr', key(x), cells(x))), [1]);
  }

  function achievementsTable(list) {
    return listTable(list, 'No achievements defined.', ['Achievement', 'Progress', 'State', 'Completed'], (a) => ({ 'data-achievement': a.developer_id }), (a) => [
      el('td', {}, a.name, el('div', {}, el('code', {}, a.developer_id))),
      el('td', { class: 'num' }, a.current_value + '/' + a.target_value + ' ', el('progress', { max: 100, value: a.percent_complete, 'aria-label': a.percent_complete + '%' })),
      el('td', { class: 'state ' + stateClass(a.state) }, a.state),
      el('td', {}, a.completed_on || ''),
    ]);
  }

  function holdingsTable(list) {
    return listTable(list, 'Holds nothing.', ['Item', 'Units', 'Products'], (h) => ({ 'data-item': h.item }), (h) => [
      el('td', {}, el('code', {}, h.item), h.kind ? el('div', { class: 'muted kind' }, h.kind) : null),
      el('td', { class: 'num units' }, h.units),
      el('td', {}, h.products.map((p) => el('div', {}, p.name + ' ', el('code', {}, p.sku)))),
    ]);
  }

  function size(bytes) {
    return bytes < 1024 ? bytes + ' B' : (bytes / 1024).toFixed(1) + ' KiB';
  }

  function savesTable(list) {
    return listTable(list, 'No game saves.', ['Key', 'Size', 'Updated', 'Value'], (s) => ({ 'data-save': s.key }), (s) => [
      el('td', {}, el('code', {}, s.key)),
      el('td', { class: 'num size' }, size(s.bytes)),
      el('td', {}, s.updated_on),
      el('td', { class: 'preview' }, el('code', {}, s.preview)),
    ]);
  }

  async function showUser(uid) {
    shownUid = uid;
    for (const button of document.querySelectorAll('#user-results button.user')) {
      button.setAttribute('aria-pressed', button.dataset.uid === uid ? 'true' : 'false');
    }
    const target = $('user-detail');
    replaceChildren(target, el('p', { class: 'muted' }, 'Loading…'));
    const reply = await getJsonOrSay(target, 'p', '/_sandbox/users/' + encodeURIComponent(uid));
    if (reply === null) return;
    if (shownUid !== uid) return;
    if (reply.status !== 200) {
      replaceChildren(target, failure('Cannot show user ' + uid, reply));
      return;
    }
    const { user, games } = reply.body;
    const head = el(
      'div',
      { class: 'user-head' },
      el('img', { src: user.avatar_path + '?size=48', width: 48, height: 48, alt: '' }),
      el(
        'div',
        {},
        el('div', {}, el('span', { class: 'name', id: 'detail-username' }, user.username), user.premium ? el('span', { class: 'badge premium' }, 'premium') : null),
        el('div', { class: 'muted' }, el('code', { id: 'detail-uid' }, user.uid), ' · ' + Number(user.friends).toLocaleString('en') + ' friends · ' + user.gender + ' · joined ' + user.created_on),
      ),
    );
    const perGame = games.map((g) =>
      el(
        'div',
        { class: 'game', 'data-game': g.id },
        el('h3', {}, g.name, el('code', {}, g.id), g.played ? null : el('span', { class: 'badge' }, 'never played'), el('a', { href: g.play_path, class: 'play' }, 'Play')),
        el(
          'div',
          { class: 'game-body' },
          el('div', { class: 'achievements' }, el('h4', {}, 'Achievements'), achievementsTable(g.achievements)),
          el('div', { class: 'holdings' }, el('h4', {}, 'Holdings'), holdingsTable(g.holdings)),
          el('div', { class: 'saves' }, el('h4', {}, 'Game saves'), savesTable(g.saves)),
        ),
      ),
    );
    replaceChildren(target, head, perGame.length === 0 ? el('p', { class: 'empty' }, 'No game played, no progress, holds nothing, saved nothing.') : perGame);
  }

  // --- the live request log ------------------------------------------------------------------

  let lastId = 0;
  let logTimer = null;

  function logStatus(text, isError) {
    const status = $('log-status');
    status.textContent = text;
    status.classList.toggle('error', Boolean(isError));
  }

  /**
   * The dashboard's own files (this page, its script, stylesheet and icon, the avatars it shows):
   * kept in the log but hidden unless asked for, so the requests of one's game and tools stand out.
   */
  function isDashboardOwn(path) {
    return path === '/' || path.startsWith('/dashboard/') || path.startsWith('/avatars/') || path === '/favicon.ico';
  }

  function ownHiddenCount() {
    const hidden = $('log').classList.contains('hide-own') ? $('log-body').querySelectorAll('tr.own').length : 0;
    $('log-own-count').textContent = hidden > 0 ? '(' + hidden + ' hidden)' : '';
  }

  function logRow(r) {
    const status = Number(r.status);
    const target = r.path + (r.query ? '?' + r.query : '') + (r.body ? ' body:' + r.body : '');
    return el(
      'tr',
      { class: 's' + String(status).charAt(0) + (isDashboardOwn(String(r.path)) ? ' own' : ''), 'data-id': r.id },
      el('td', { title: r.time }, String(r.time).slice(11, 23)),
      el('td', {}, r.method),
      // One line, cut with an ellipsis where it is too long; the whole of it on hover.
      el('td', { class: 'path', title: target }, target),
      el('td', { class: 'status num' }, status),
      el('td', { class: 'num' }, typeof r.ms === 'number' ? r.ms.toFixed(1) : ''),
      el(
        'td',
        { class: 'reason' },
        r.handshake === 'retry' ? el('span', { class: 'handshake' }, 'after signature challenge' + (r.reason ? ': ' : '')) : null,
        r.reason || '',
      ),
    );
  }

  function scheduleLog(ms) {
    clearTimeout(logTimer);
    logTimer = setTimeout(pollLog, ms);
  }

  async function pollLog() {
    if ($('log-pause').checked) return;
    let reply;
    try {
      reply = await getJson('/_sandbox/requests?limit=' + LOG_BATCH + (lastId > 0 ? '&since=' + lastId : ''));
    } catch {
      logStatus('The sandbox is not reachable; trying again.', true);
      scheduleLog(LOG_RETRY_MS);
      return;
    }
    if (reply.status === 404) {
      // A sandbox without the request log: say so once and stop asking.
      logStatus('request log not available', true);
      $('log').hidden = true;
      return;
    }
    if (reply.status !== 200 || !reply.body || !Array.isArray(reply.body.requests)) {
      logStatus('The request log answered HTTP ' + reply.status + (reply.body && reply.body.message ? ': ' + reply.body.message : '') + '; trying again.', true);
      scheduleLog(LOG_RETRY_MS);
      return;
    }
    const body = $('log-body');
    for (const r of reply.body.requests) {
      if (r.id > lastId) lastId = r.id;
      // The dashboard's own polling would drown everything else.
      if (String(r.path).startsWith('/_sandbox/requests')) continue;
      // The agi handshake is one request: a challenge answered by its signed retry is shown in the
      // retry's row (the server's log and udcli sandbox logs do the same).
      if (r.handshake === 'challenge') continue;
      if (typeof r.challengeId === 'number') {
        const shown = body.querySelector('tr[data-id="' + r.challengeId + '"]');
        if (shown) shown.remove();
      }
      body.prepend(logRow(r));
    }
    while (body.rows.length > LOG_ROWS) body.deleteRow(-1);
    ownHiddenCount();
    logStatus(body.rows.length === 0 ? 'Live: no requests yet.' : 'Live: newest first, the last ' + LOG_ROWS + ' at most.', false);
    // A full batch means more are waiting: ask again at once.
    scheduleLog(reply.body.requests.length >= LOG_BATCH ? 0 : LOG_POLL_MS);
  }

  // --- wiring --------------------------------------------------------------------------------

  function uidInHash() {
    const m = /^#user=([0-9a-fA-F]{32})$/.exec(location.hash);
    return m ? m[1].toLowerCase() : null;
  }

  document.addEventListener('DOMContentLoaded', () => {
    $('user-search').addEventListener('submit', (event) => {
      event.preventDefault();
      void searchUsers($('user-q').value.trim());
    });
    $('user-results').addEventListener('click', (event) => {
      const button = event.target.closest('button.user');
      if (!button) return;
      history.replaceState(null, '', '#user=' + button.dataset.uid);
      void showUser(button.dataset.uid);
    });
    $('log-pause').addEventListener('change', () => {
      if (!$('log-pause').checked) scheduleLog(0);
    });
    $('log-clear').addEventListener('click', () => {
      replaceChildren($('log-body'));
      ownHiddenCount();
    });
    $('log-own').addEventListener('change', () => {
      $('log').classList.toggle('hide-own', !$('log-own').checked);
      ownHiddenCount();
    });
    void loadGames();
    void loadHolds();
    const uid = uidInHash();
    if (uid) void showUser(uid);
    void pollLog();
  });
})();
`;
