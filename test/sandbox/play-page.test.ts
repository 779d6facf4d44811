/**
 * The play page (`GET /play/{game_id}`, spec 1.1) and `udcli sandbox game set-uri|show`:
 * plain HTTP checks of the page, then a real browser (Debian's headless chromium) loading it,
 * with a content server that records what the iframe asked for.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import type { BrowserContext, Page as BrowserPage } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from '../fixtures.js';
import { register } from '../../src/cli/commands/sandbox/index.js';
import { UdcliError, UsageError } from '../../src/errors.js';
import { openDatabase } from '../../src/sandbox/database.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { API_PREFIX } from '../../src/domain/types.js';
import { testFactory, type TestFactory } from './helpers/factory.js';
import { exactRequest } from './helpers/sandbox.js';

const ALICE = { username: 'alice', uid: uidForUsername('alice') };
/** A game and a user whose names try to break out of the HTML. */
const NASTY_GAME = { id: '7001', name: `<script>alert("game")</script> & 'Co'` };
const NASTY_USER = `<b>"eve"&'x'</b>`;

let root: string;
let dbPath: string;
let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'udcli-play-'));
  dbPath = join(root, 'sandbox.db');
  env = { UDCLI_DATA_DIR: join(root, 'data') };
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1', dbPath, seed: 'demo' });
  // A second connection, as another process would have: the running sandbox must see its writes.
  const db = openDatabase(dbPath);
  try {
    db.repos.games.insert({
      ...NASTY_GAME,
      type: 'Game',
      launchable: false,
      contentUri: null,
      signing: 'agi',
      createdOn: 1_700_000_000,
    });
    db.repos.users.insert({
      uid: uidForUsername(NASTY_USER),
      username: NASTY_USER,
      gender: 'unspecified',
      createdOn: 1_700_000_000,
    });
  } finally {
    db.close();
  }
});

afterAll(async () => {
  await sandbox?.close();
  rmSync(root, { recursive: true, force: true });
});

/** Runs `udcli sandbox ARGS` through commander with a test factory. */
async function udcli(args: string[]): Promise<TestFactory> {
  const factory = testFactory(env);
  const program = new Command('udcli').exitOverride();
  register(program, factory);
  await program.parseAsync(['sandbox', ...args], { from: 'user' });
  return factory;
}

const setUri = (gameId: string, url: string) => udcli(['game', 'set-uri', gameId, url, '--db', dbPath]);

interface Page {
  status: number;
  headers: Headers;
  html: string;
}

async function get(path: string, cookie?: string): Promise<Page> {
  const response = await fetch(`${sandbox.url}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

/** Logs in through the page's switcher form (a POST) and returns the session cookie. */
async function loginAs(username: string, gameId: string = DEMO.game.id): Promise<string> {
  const response = await fetch(`${sandbox.url}/play/${encodeURIComponent(gameId)}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: sandbox.url },
    body: new URLSearchParams({ username }).toString(),
  });
  expect(response.status).toBe(303);
  expect(response.headers.get('location')).toBe(`/play/${gameId}`);
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  expect(cookie).toMatch(/^__Host-udcli_sandbox_session=[0-9a-f]{32}$/);
  return cookie!;
}

/** A user's button in the switcher: a form POSTing username=NAME to the game's login. */
const switchForm = (gameId: string, username: string) =>
  `<form method="post" action="/play/${gameId}/login"><input type="hidden" name="username" value="${username}">`;

const unescapeHtml = (s: string) =>
  s
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');

/** The iframe's src (unescaped), or undefined when the page has no iframe. */
function iframeSrc(html: string): string | undefined {
  const m = /<iframe\b[^>]*\bsrc="([^"]*)"/.exec(html);
  return m?.[1] === undefined ? undefined : unescapeHtml(m[1]);
}

async function authenticate(userId: string, authToken: string, apiKey: string = DEMO.game.apiKey) {
  const qs = new URLSearchParams({ user_id: userId, auth_token: authToken, api_key: apiKey });
  const response = await fetch(`${sandbox.url}${API_PREFIX}/authenticate/user.json?${qs}`);
  return (await response.json()) as {
    code: number;
    message: string;
    payload: { uid: string; username: string } | null;
  };
}

describe('the play page over plain HTTP', () => {
  it('asks a visitor who is not logged in to pick a user, and shows no game', async () => {
    const page = await get('/play/1001');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.html).toContain('Demo Quest');
    expect(page.html).toMatch(/Pick a user to play Demo Quest as/);
    expect(page.html).not.toMatch(/<iframe/i);
    for (const username of ['demo_player', 'alice', 'bob']) expect(page.html).toContain(switchForm('1001', username));
  });

  it('is self-contained: no inline script, only its own platform script, no external resources, a CSP that says so', async () => {
    await setUri('1001', 'https://game.example.com/play');
    const page = await get('/play/1001', await loginAs('demo_player'));
    expect(page.html).not.toMatch(/<link\b|@import|url\(/i);
    // Two script elements: the page's data (JSON, never run) and the platform script from the sandbox itself.
    expect([...page.html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])).toEqual([
      '<script type="application/json" id="platform-data">',
      '<script src="/_sandbox/platform.js">',
    ]);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(page.headers.get('content-security-policy')).not.toMatch(/unsafe-inline'[^;]*;?\s*$|script-src[^;]*unsafe/);
    const refs = [...page.html.matchAll(/\b(?:src|href|action)="([^"]*)"/g)].map((m) => unescapeHtml(m[1]!));
    const iframe = iframeSrc(page.html);
    expect(refs.filter((r) => r !== iframe && !r.startsWith('/') && r !== '?direct=1')).toEqual([]);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  it('serves the game from the game host by default: the iframe loads /play/ID/game/ there (the content URI proxied) with a fresh user_id and token', async () => {
    await setUri('1001', 'http://127.0.0.1:9/game/index.html?mode=demo');
    const page = await get('/play/1001', await loginAs(ALICE.username));
    const src = new URL(iframeSrc(page.html)!, sandbox.url);
    // An origin of its own: the game's own name (g1001.sandbox.localhost), the game host's port.
    expect(src.origin).toBe(`http://g1001.sandbox.localhost:${new URL(sandbox.gameUrl).port}`);
    expect(src.origin).not.toBe(sandbox.url);
    expect(src.pathname).toBe('/play/1001/game/index.html');
    expect([...src.searchParams.keys()]).toEqual(['mode', 'user_id', 'auth_token']);
    expect(src.searchParams.get('user_id')).toBe(ALICE.uid);
    expect((await authenticate(ALICE.uid, src.searchParams.get('auth_token')!)).payload).toMatchObject({
      uid: ALICE.uid,
    });
    // The platform's page around it: apiAuth for the same user and token, the game's own api key.
    const data = JSON.parse(
      /<script type="application\/json" id="platform-data">([^<]*)<\/script>/.exec(page.html)![1]!,
    );
    expect(data).toEqual({
      apiAuth: { user_id: ALICE.uid, auth_token: src.searchParams.get('auth_token'), game_id: '1001' },
      apiKey: DEMO.game.apiKey,
      gameName: DEMO.game.name,
    });
  });

  it("sends a browser to sandbox.localhost, the games' site (issue 40); a tool, ?direct=1 and that name itself stay", async () => {
    const port = new URL(sandbox.url).port;
    const browser = { 'sec-fetch-site': 'none' };
    for (const name of ['127.0.0.1', 'localhost']) {
      const moved = await exactRequest(sandbox.url, 'GET', '/play/1001?as=alice&lang=fr', {
        ...browser,
        host: `${name}:${port}`,
      });
      expect([moved.status, moved.headers.location], name).toEqual([
        307,
        `http://sandbox.localhost:${port}/play/1001?as=alice&lang=fr`,
      ]);
    }
    expect((await exactRequest(sandbox.url, 'GET', '/play/1001', {})).status).toBe(200);
    expect((await exactRequest(sandbox.url, 'GET', '/play/1001?direct=1', browser)).status).toBe(200);
    const there = await exactRequest(sandbox.url, 'GET', '/play/1001?as=alice', {
      ...browser,
      host: `sandbox.localhost:${port}`,
    });
    expect([there.status, there.text]).toEqual([200, expect.stringContaining('Play as alice')]);
  });

  it('?direct=1: the switcher form logs the user in, and each load iframes the content URI itself with a fresh token for that user and game', async () => {
    await setUri('1001', 'http://127.0.0.1:9/game/index.html?mode=demo&lang=en#start');
    const cookie = await loginAs(ALICE.username);
    const first = await get('/play/1001?direct=1', cookie);
    expect(first.status).toBe(200);
    expect(first.html).toMatch(/Playing as <strong id="username">alice<\/strong>/);
    const second = await get('/play/1001?direct=1', cookie);
    const urls = [iframeSrc(first.html), iframeSrc(second.html)].map((src) => new URL(src!));
    for (const url of urls) {
      // The URI's own query and fragment are kept; the two parameters are appended.
      expect(`${url.origin}${url.pathname}`).toBe('http://127.0.0.1:9/game/index.html');
      expect([...url.searchParams.keys()]).toEqual(['mode', 'lang', 'user_id', 'auth_token']);
      expect(url.searchParams.get('mode')).toBe('demo');
      expect(url.hash).toBe('#start');
      expect(url.searchParams.get('user_id')).toBe(ALICE.uid);
      expect(url.searchParams.get('auth_token')).toMatch(/^[0-9a-f]{32}$/);
    }
    const [t1, t2] = urls.map((u) => u.searchParams.get('auth_token')!);
    expect(t1).not.toBe(t2);
    for (const token of [t1!, t2!]) {
      expect((await authenticate(ALICE.uid, token)).payload).toEqual({ uid: ALICE.uid, username: 'alice' });
      // Bound to game 1001: the key of another game does not accept it.
      expect((await authenticate(ALICE.uid, token, DEMO.secondGame.apiKey)).payload).toBeNull();
    }
  });

  it("keeps the page's query flags (?direct=1 and any other) through a login, and drops ?as= once it is done", async () => {
    const pick = await get('/play/1001?direct=1&lang=fr');
    expect(pick.html).toContain(
      '<form method="post" action="/play/1001/login?direct=1&amp;lang=fr"><input type="hidden" name="username" value="alice">',
    );
    const confirm = await get('/play/1001?as=bob&direct=1');
    expect(confirm.html).toMatch(
      /<form method="post" action="\/play\/1001\/login\?direct=1"><input type="hidden" name="username" value="bob"><button type="submit" class="user">Play as bob<\/button>/,
    );
    const login = await fetch(`${sandbox.url}/play/1001/login?direct=1&lang=fr`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: sandbox.url },
      body: new URLSearchParams({ username: 'alice' }).toString(),
    });
    expect(login.status).toBe(303);
    expect(login.headers.get('location')).toBe('/play/1001?direct=1&lang=fr');
    // A flag's value goes back encoded, never as a header's raw bytes.
    const odd = await fetch(`${sandbox.url}/play/1001/login?x=%0D%0ASet-Cookie%3A%20a%3Db`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: sandbox.url },
      body: new URLSearchParams({ username: 'alice' }).toString(),
    });
    expect(odd.headers.get('location')).toBe('/play/1001?x=%0D%0ASet-Cookie%3A+a%3Db');
  });

  it('replaces a user_id or auth_token already written in the content URI instead of sending two', async () => {
    await setUri('1001', 'http://127.0.0.1:9/g?user_id=00000000000000000000000000000000&x=1&auth_token=stale');
    const url = new URL(iframeSrc((await get('/play/1001?direct=1', await loginAs('bob'))).html)!);
    expect(url.searchParams.getAll('user_id')).toEqual([uidForUsername('bob')]);
    expect(url.searchParams.getAll('auth_token')).toHaveLength(1);
    expect(url.searchParams.get('x')).toBe('1');
  });

  it('without a content URI, says how to set it and shows no iframe', async () => {
    // Its own: another test writes a content URI for 1002.
    const db = openDatabase(dbPath);
    try {
      db.repos.games.setContentUri('1002', null);
    } finally {
      db.close();
    }
    const page = await get('/play/1002', await loginAs('dave', '1002'));
    expect(page.status).toBe(200);
    expect(page.html).toContain('Puzzle Lab');
    expect(page.html).not.toMatch(/<iframe/i);
    expect(page.html).toMatch(/No content URI set/);
    expect(unescapeHtml(page.html)).toContain(`udcli sandbox game set-uri 1002 http://localhost:3000/ --db ${dbPath}`);
  });

  it('refuses to iframe a content URI that is not http(s), even one written into the database directly', async () => {
    const db = openDatabase(dbPath);
    try {
      db.repos.games.setContentUri('1002', 'javascript:alert(1)');
    } finally {
      db.close();
    }
    const page = await get('/play/1002', await loginAs('dave', '1002'));
    expect(page.html).not.toMatch(/<iframe/i);
    expect(page.html).toMatch(/cannot be shown/);
  });

  it('answers an unknown game with a 404 page that lists the games', async () => {
    const page = await get('/play/9999');
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.html).toMatch(/Game not found/);
    expect(page.html).toContain('href="/play/1001"');
  });

  it('answers an unknown ?as user with a 404 page to pick another, and logs nobody in', async () => {
    const page = await get('/play/1001?as=nobody_here');
    expect(page.status).toBe(404);
    expect(page.headers.get('set-cookie')).toBeNull();
    expect(page.html).toMatch(/no user named <strong>nobody_here<\/strong>/);
    expect(page.html).toContain(switchForm('1001', 'alice'));
  });

  it('escapes game names, usernames, content URIs and echoed input', async () => {
    await setUri(NASTY_GAME.id, 'http://127.0.0.1:9/x?q="><script>alert(1)</script>');
    const page = await get(`/play/${NASTY_GAME.id}?direct=1`, await loginAs(NASTY_USER, NASTY_GAME.id));
    expect(page.status).toBe(200);
    // No script but the page's own two; the data block holds the name with its '<' escaped.
    expect(page.html.match(/<script/g)).toHaveLength(2);
    expect(page.html).not.toContain('<script>');
    const data = /<script type="application\/json" id="platform-data">([^<]*)<\/script>/.exec(page.html)![1]!;
    expect(data).toContain('\\u003cscript>');
    expect(JSON.parse(data)).toMatchObject({
      gameName: NASTY_GAME.name,
      apiAuth: { user_id: uidForUsername(NASTY_USER), game_id: NASTY_GAME.id },
    });
    expect(page.html).not.toContain(NASTY_USER);
    expect(page.html).toContain('&lt;script&gt;alert(&quot;game&quot;)&lt;/script&gt; &amp; &#39;Co&#39;');
    expect(page.html).toContain('&lt;b&gt;&quot;eve&quot;&amp;&#39;x&#39;&lt;/b&gt;');
    const src = new URL(iframeSrc(page.html)!);
    expect(src.searchParams.get('q')).toBe('"><script>alert(1)</script>');
    expect(src.searchParams.get('user_id')).toBe(uidForUsername(NASTY_USER));

    const echoed = await get(`/play/${encodeURIComponent('<img src=x>')}?as=${encodeURIComponent('<i>')}`);
    expect(echoed.status).toBe(404);
    expect(echoed.html).not.toMatch(/<img src=x>|<i>/);
    expect(echoed.html).toContain('&lt;img src=x&gt;');
  });
});

describe('udcli sandbox game set-uri | show', () => {
  it('refuses a URL that is not http(s), and an unknown game, naming the games there are', async () => {
    for (const bad of ['ftp://example.com/', 'javascript:alert(1)', 'localhost:3000', 'not a url']) {
      const error = await setUri('1001', bad).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(/invalid content URI/);
    }
    const unknown = await setUri('4242', 'http://localhost:3000/').catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(UsageError);
    expect((unknown as UsageError).message).toMatch(/no game "4242"/);
    expect((unknown as UsageError).hint).toMatch(/1001, 1002/);
  });

  it('prints what it set; show reports it; the running sandbox serves it on the next load', async () => {
    const set = await setUri('1002', 'https://puzzles.example.org/lab?v=2');
    expect(set.stdout()).toBe('set the content URI of game 1002 (Puzzle Lab) to https://puzzles.example.org/lab?v=2\n');
    const shown = JSON.parse((await udcli(['game', 'show', '1002', '--db', dbPath, '--json'])).stdout()) as Record<
      string,
      unknown
    >;
    expect(shown).toMatchObject({
      id: '1002',
      name: 'Puzzle Lab',
      content_uri: 'https://puzzles.example.org/lab?v=2',
      database: dbPath,
    });
    const src = iframeSrc((await get('/play/1002?direct=1', await loginAs('dave', '1002'))).html);
    expect(src).toMatch(/^https:\/\/puzzles\.example\.org\/lab\?v=2&user_id=[0-9a-f]{32}&auth_token=[0-9a-f]{32}$/);
  });

  it('show fails clearly when there is no database yet', async () => {
    const error = await udcli(['game', 'show', '1001', '--db', join(root, 'missing.db')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UdcliError);
    expect((error as Error).message).toMatch(/no sandbox database at/);
  });
});

// ---------------------------------------------------------------------------------------------
// A real browser.

describe('in a real browser (headless chromium)', () => {
  let content: Server;
  let contentUrl: string;
  /** The query of every request the content server got for the game page. */
  const received: URLSearchParams[] = [];
  /**
   * A page of the file's shared context: each test starts logged out (its cookies cleared); only
   * the resize test keeps a frame size in storage, and it puts it back.
   */
  async function freshPage(
    context: BrowserContext,
    viewport?: { width: number; height: number },
  ): Promise<BrowserPage> {
    const page = await context.newPage();
    if (viewport !== undefined) await page.setViewportSize(viewport);
    return page;
  }

  beforeAll(async () => {
    content = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://content.invalid');
      if (url.pathname === '/game') received.push(url.searchParams);
      response
        .writeHead(url.pathname === '/game' ? 200 : 404, { 'content-type': 'text/html' })
        .end('<!doctype html><h1>the game</h1>');
    });
    await new Promise<void>((resolve) => content.listen(0, '127.0.0.1', resolve));
    contentUrl = `http://127.0.0.1:${(content.address() as AddressInfo).port}/game?level=3`;
  });

  afterAll(async () => {
    // The browser's keep-alive connections stay until the shared context closes, after this hook.
    content?.closeAllConnections();
    await new Promise((resolve) => content?.close(resolve));
  });

  /** Where a browser sees the play page (issue 40): sandbox.localhost, the site its games share. */
  const playSite = () => `http://sandbox.localhost:${new URL(sandbox.url).port}`;

  it('the switcher is a form: clicking a user logs them in, and the iframe gets that user and a token that authenticates', async ({
    sharedContext,
  }) => {
    await setUri(DEMO.game.id, contentUrl);
    const page = await freshPage(sharedContext);
    try {
      await page.goto(`${sandbox.url}/play/${DEMO.game.id}`);
      expect(await page.locator('#pick-user').count()).toBe(1);
      expect(await page.locator('iframe').count()).toBe(0);
      // Logging in is a POST: the user's button in the switcher.
      await Promise.all([
        page.waitForURL(`${playSite()}/play/${DEMO.game.id}`),
        page.getByRole('button', { name: DEMO.user.username, exact: true }).first().click(),
      ]);
      expect(await page.locator('#username').textContent()).toBe(DEMO.user.username);
      await page.frameLocator('#game').locator('h1').waitFor();
      const first = received.find((q) => q.get('user_id') === DEMO.user.uid);
      expect(first, `content server requests: ${received.map(String).join(' ; ')}`).toBeDefined();
      expect(first!.get('level')).toBe('3');
      expect(await authenticate(first!.get('user_id')!, first!.get('auth_token')!)).toMatchObject({
        code: 200,
        payload: { uid: DEMO.user.uid, username: DEMO.user.username },
      });

      await page.getByRole('button', { name: 'alice', exact: true }).click();
      await page.locator('#username', { hasText: 'alice' }).waitFor();
      await page.frameLocator('#game').locator('h1').waitFor();
      const second = received.find((q) => q.get('user_id') === ALICE.uid);
      expect(second, `content server requests: ${received.map(String).join(' ; ')}`).toBeDefined();
      expect(second!.get('auth_token')).not.toBe(first!.get('auth_token'));
      expect((await authenticate(ALICE.uid, second!.get('auth_token')!)).payload).toEqual({
        uid: ALICE.uid,
        username: 'alice',
      });
      // A token is the user's own: alice's token does not authenticate demo_player.
      expect((await authenticate(DEMO.user.uid, second!.get('auth_token')!)).payload).toBeNull();
      // A link (GET ?as=) logs nobody in: it shows the form.
      await page.goto(`${sandbox.url}/play/${DEMO.game.id}?as=bob`);
      expect(await page.locator('#username').textContent()).toBe('alice');
      expect(await page.locator('#confirm-user button').textContent()).toBe('Play as bob');
    } finally {
      await page.close();
    }
  }, 150_000);

  it('?direct=1 survives picking a user: after the login the page still iframes the content URI itself', async ({
    sharedContext,
  }) => {
    await setUri(DEMO.game.id, contentUrl);
    const page = await freshPage(sharedContext);
    try {
      await page.goto(`${sandbox.url}/play/${DEMO.game.id}?direct=1`);
      await Promise.all([
        page.waitForURL(`${sandbox.url}/play/${DEMO.game.id}?direct=1`),
        page.getByRole('button', { name: 'bob', exact: true }).first().click(),
      ]);
      expect(await page.locator('#username').textContent()).toBe('bob');
      const src = new URL((await page.locator('#game').getAttribute('src'))!);
      expect(`${src.origin}${src.pathname}`).toBe(contentUrl.replace(/\?.*$/, ''));
      expect(src.searchParams.get('user_id')).toBe(uidForUsername('bob'));
      // Switching user from there keeps it too.
      await Promise.all([
        page.waitForURL(`${sandbox.url}/play/${DEMO.game.id}?direct=1`),
        page.getByRole('button', { name: 'alice', exact: true }).click(),
      ]);
      await page.locator('#username', { hasText: 'alice' }).waitFor();
      expect(new URL((await page.locator('#game').getAttribute('src'))!).origin).toBe(new URL(contentUrl).origin);
    } finally {
      await page.close();
    }
  }, 150_000);

  it('the game frame is resizable by its corner, keeps its size on reload, and "Default size" puts it back', async ({
    sharedContext,
  }) => {
    await setUri(DEMO.game.id, contentUrl);
    const page = await freshPage(sharedContext, { width: 1200, height: 900 });
    try {
      await page.goto(`${sandbox.url}/play/${DEMO.game.id}?as=alice`);
      await Promise.all([
        page.waitForURL(`${playSite()}/play/${DEMO.game.id}`),
        page.getByRole('button', { name: 'Play as alice' }).click(),
      ]);
      const box = page.locator('#frame-box');
      const frame = page.locator('#game');
      const before = (await box.boundingBox())!;
      expect(before.height).toBeGreaterThan(300);
      // The player drags the lower right corner: 300 px narrower, 150 px taller.
      await page.mouse.move(before.x + before.width - 4, before.y + before.height - 4);
      await page.mouse.down();
      await page.mouse.move(before.x + before.width - 154, before.y + before.height + 71, { steps: 5 });
      await page.mouse.move(before.x + before.width - 304, before.y + before.height + 146, { steps: 5 });
      await page.mouse.up();
      const after = (await box.boundingBox())!;
      expect(Math.abs(after.width - (before.width - 300))).toBeLessThanOrEqual(4);
      expect(Math.abs(after.height - (before.height + 150))).toBeLessThanOrEqual(4);
      // The game's frame fills the box (its border aside).
      const inner = (await frame.boundingBox())!;
      expect(Math.abs(inner.width - after.width)).toBeLessThanOrEqual(4);
      expect(Math.abs(inner.height - after.height)).toBeLessThanOrEqual(4);
      await page.reload();
      await expect.poll(async () => Math.round((await box.boundingBox())!.height)).toBe(Math.round(after.height));
      expect(Math.round((await box.boundingBox())!.width)).toBe(Math.round(after.width));
      await page.getByRole('button', { name: 'Default size' }).click();
      await expect.poll(async () => Math.round((await box.boundingBox())!.width)).toBe(Math.round(before.width));
      await page.reload();
      expect(Math.round((await box.boundingBox())!.height)).toBe(Math.round(before.height));
    } finally {
      await page.close();
    }
  }, 150_000);
});
