/**
 * Issue 40, points 1 and 2, in real Chromium: the audit's attacks, each run again.
 *
 * - Game 1002 read game 1001's localStorage, and registered `/sw.js` with scope `/`, which then
 *   answered game 1001's pages (in the play page and in a new tab) and saw their `auth_token`s.
 *   Now each game has an origin of its own (`g1001.sandbox.localhost`, game-names.ts): 1002 reads
 *   nothing of 1001's, its worker controls its own pages only, and 1001's pages are 1001's.
 * - The proxy forwarded the browser's cookies (another local app's HttpOnly session) to a game's
 *   upstream, and the upstream's Set-Cookie replaced the sandbox's session cookie. Now the
 *   upstream gets only the cookies it set, and what it sets lives in the game's own names.
 * - A profile that already has the old shared origin's worker: its update check gets a worker
 *   that unregisters itself, and the old link ends on the game's own name.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from '../fixtures.js';
import { SESSION_COOKIE } from '../../src/sandbox/constants.js';
import { exactRequest, gameFolders, tempDir, type TestSandbox } from './helpers/sandbox.js';

const VICTIM = '1001';
const ATTACKER = '1002';

const VICTIM_PAGE =
  '<!doctype html><html><head><title>victim</title></head><body><p id="who">victim</p><pre id="results"></pre><script src="victim.js"></script></body></html>';
const VICTIM_JS = `
var before = localStorage.getItem('secret');
localStorage.setItem('secret', 'victim-secret');
document.getElementById('results').textContent = JSON.stringify({ before: before, controlled: !!navigator.serviceWorker.controller });
`;

const ATTACKER_PAGE =
  '<!doctype html><html><head><title>attacker</title><script src="/attack.js" defer></script></head><body><p id="who">attacker</p><pre id="results"></pre></body></html>';
/** The audit's attack: read the other game's storage and page, then put a worker over `/`. */
const ATTACK_JS = `
(async function () {
  var out = {};
  try { out.secret = localStorage.getItem('secret'); } catch (error) { out.secret = 'failed: ' + error.name; }
  try {
    var reply = await fetch('/play/${VICTIM}/game/index.html');
    out.victimPage = reply.status + ' ' + (await reply.text()).slice(0, 200);
  } catch (error) { out.victimPage = 'failed: ' + error.name; }
  try {
    var registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    out.worker = registration.scope;
  } catch (error) { out.worker = 'failed: ' + error.message; }
  document.getElementById('results').textContent = JSON.stringify(out);
})();
`;
/** Answers every page of its scope, as the audit's worker did. */
const EVIL_WORKER = `
self.addEventListener('install', function () { self.skipWaiting(); });
self.addEventListener('activate', function (event) { event.waitUntil(self.clients.claim()); });
self.addEventListener('fetch', function (event) {
  event.respondWith(new Response('<!doctype html><title>pwned</title><p id="who">pwned</p><pre id="results">{"pwned":true}</pre>', { headers: { 'content-type': 'text/html' } }));
});
`;

/** Where a browser sees the play page: sandbox.localhost, the site its games share. */
const playSite = (sb: TestSandbox): string => `http://sandbox.localhost:${new URL(sb.url).port}`;

/** Logs `username` in on the play page of `gameId` (the page stays on it). */
async function login(page: Page, sb: TestSandbox, gameId: string, username: string): Promise<void> {
  await page.goto(`${sb.url}/play/${gameId}?as=${username}`);
  await page.getByRole('button', { name: `Play as ${username}` }).click();
  await page.waitForURL(`${playSite(sb)}/play/${gameId}`);
}

/** What a game's page put in its #results, once it did. */
async function results(page: Page, inFrame: boolean): Promise<Record<string, unknown>> {
  const locator = inFrame ? page.frameLocator('#game').locator('#results') : page.locator('#results');
  await expect.poll(() => locator.textContent(), { timeout: 20_000 }).not.toBe('');
  return JSON.parse((await locator.textContent())!) as Record<string, unknown>;
}

async function who(page: Page, inFrame: boolean): Promise<string | null> {
  return (inFrame ? page.frameLocator('#game').locator('#who') : page.locator('#who')).textContent();
}

/**
 * The file's shared context (its cookies cleared for each test), whose pages the test opens are
 * closed when it ends: each test's origins carry its own sandbox's or server's ports, so no storage
 * or worker another test left is on them, but cookies ignore ports.
 */
function withOwnPages(context: BrowserContext, onTestFinished: (fn: () => Promise<void>) => void): BrowserContext {
  const before = new Set(context.pages());
  onTestFinished(async () => {
    await Promise.all(
      context
        .pages()
        .filter((page) => !before.has(page))
        .map((page) => page.close()),
    );
  });
  return context;
}

describe('one game cannot reach another in the browser', () => {
  let sb: TestSandbox;
  beforeAll(async ({ newSb }) => {
    const { victim, attacker } = gameFolders('udcli-isolation-', {
      victim: { 'index.html': VICTIM_PAGE, 'victim.js': VICTIM_JS },
      attacker: { 'index.html': ATTACKER_PAGE, 'attack.js': ATTACK_JS, 'sw.js': EVIL_WORKER },
    });
    sb = await newSb({
      gameSources: [
        [VICTIM, { kind: 'dir', root: victim, connect: true }],
        [ATTACKER, { kind: 'dir', root: attacker, connect: true }],
      ],
    });
  });

  it("game 1002 reads none of 1001's storage or pages, and its service worker controls its own pages only", async ({
    sharedContext,
    onTestFinished,
  }) => {
    const context = withOwnPages(sharedContext, onTestFinished);
    const page = await context.newPage();
    await login(page, sb, VICTIM, 'alice');
    const frameUrl = new URL(
      page
        .frames()
        .find((f) => f.url().includes('/play/1001/game/'))
        ?.url() ?? (await page.locator('#game').getAttribute('src'))!,
    );
    expect(frameUrl.hostname).toBe('g1001.sandbox.localhost');
    expect(await results(page, true)).toEqual({ before: null, controlled: false });

    // The attacker, in the same play page.
    await page.goto(`${playSite(sb)}/play/${ATTACKER}`);
    const attack = await results(page, true);
    expect(attack.secret).toBeNull();
    // 1001's path on 1002's name is sent to 1001's own origin, which this page cannot read.
    expect(attack.victimPage).toBe('failed: TypeError');
    // The worker was registered, over 1002's own origin alone, and does answer there (a tab of its own).
    expect(attack.worker).toBe(`${sb.gameOrigin(ATTACKER)}/`);
    const attackerFrame = page.frames().find((f) => f.url().includes(`/play/${ATTACKER}/game/`))!;
    // Once the worker is active (ready), it answers every load in its scope.
    await attackerFrame.evaluate('navigator.serviceWorker.ready.then(() => true)');
    const tab = await context.newPage();
    await tab.goto(`${sb.gameOrigin(ATTACKER)}/play/${ATTACKER}/game/index.html`);
    expect(await who(tab, false)).toBe('pwned');

    // Game 1001 again: its own storage, its own pages, in the play page, a new tab and an old link.
    await page.goto(`${playSite(sb)}/play/${VICTIM}`);
    expect(await results(page, true)).toEqual({ before: 'victim-secret', controlled: false });
    expect(await who(page, true)).toBe('victim');
    // The tab 1002's worker answered in: a worker matches a load by its URL, not by the tab it is in.
    for (const url of [
      `${sb.gameOrigin(VICTIM)}/play/${VICTIM}/game/index.html`,
      `${sb.gameUrl}/play/${VICTIM}/game/index.html`,
      `${sb.url}/play/${VICTIM}/game/index.html`,
    ]) {
      await tab.goto(url);
      expect(new URL(tab.url()).hostname, url).toBe('g1001.sandbox.localhost');
      expect(await results(tab, false), url).toEqual({ before: 'victim-secret', controlled: false });
      expect(await who(tab, false), url).toBe('victim');
    }
  }, 120_000);
});

interface Upstream {
  url: string;
  /** The Cookie header of each request the upstream saw (null: none). */
  cookies: Array<string | null>;
  close(): Promise<void>;
}

/** A game's dev server that logs the cookies it gets and tries to set the sandbox's and another app's. */
async function startCookieUpstream(): Promise<Upstream> {
  const cookies: Array<string | null> = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    cookies.push(req.headers.cookie ?? null);
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/index.html') return void res.writeHead(404).end();
    res
      .writeHead(200, {
        'content-type': 'text/html',
        'set-cookie': [
          'sid=upstream-session; HttpOnly; Path=/',
          `${SESSION_COOKIE}=forged; Domain=localhost; Path=/`,
          'other_app=forged; Path=/',
          'visible=1',
        ],
      })
      .end(
        '<!doctype html><html><head><title>cookies</title></head><body><pre id="results"></pre><script>document.getElementById("results").textContent = JSON.stringify({ cookie: document.cookie })</script></body></html>',
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cookies,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("the game host's proxy and cookies", () => {
  let sb: TestSandbox;
  let upstream: Upstream;
  beforeAll(async ({ newSb }) => {
    upstream = await startCookieUpstream();
    sb = await newSb({
      gameSources: [[VICTIM, { kind: 'url', base: `${upstream.url}/index.html`, connect: true }]],
    });
  });
  afterAll(async () => {
    await upstream?.close();
  });

  it("sends the upstream only the cookies it set, and its Set-Cookie never reaches the sandbox's or another app's", async ({
    sharedContext,
    onTestFinished,
  }) => {
    const context = withOwnPages(sharedContext, onTestFinished);
    const main = playSite(sb);
    // Another local app's HttpOnly session, on the loopback names and the play page's (cookies ignore ports).
    const otherApp = ['localhost', '127.0.0.1', 'sandbox.localhost'].map((domain) => ({
      name: 'other_app',
      value: 'other-secret',
      domain,
      path: '/',
      httpOnly: true,
      sameSite: 'Lax' as const,
    }));
    await context.addCookies(otherApp);
    const page = await context.newPage();
    await page.goto(`http://localhost:${new URL(sb.url).port}/play/${VICTIM}?as=alice`);
    await page.getByRole('button', { name: 'Play as alice' }).click();
    await page.waitForURL(`${main}/play/${VICTIM}`);
    const session = (await context.cookies(main)).find((c) => c.name === SESSION_COOKIE);
    expect(session).toMatchObject({ httpOnly: true });
    await results(page, true);
    // Played again: the upstream's own cookie comes back to it under its own name, and nothing else.
    await page.reload();
    const seen = await results(page, true);
    await expect.poll(() => upstream.cookies.length).toBeGreaterThanOrEqual(2);
    expect(upstream.cookies[0]).toBeNull();
    expect(upstream.cookies.slice(1)).toContain(
      `sid=upstream-session; ${SESSION_COOKIE}=forged; other_app=forged; visible=1`,
    );
    for (const header of upstream.cookies) {
      expect(header ?? '').not.toContain('other-secret');
      expect(header ?? '').not.toContain(session!.value);
    }
    // The game's script sees its non-HttpOnly cookies in its own names; never the HttpOnly one.
    expect(String(seen.cookie)).toContain('__Host-udcli-g1001.visible=1');
    expect(String(seen.cookie)).not.toContain('upstream-session');

    // The sandbox's session and the other app's cookie are as they were: same value, still HttpOnly.
    const all = await context.cookies();
    expect(all.filter((c) => c.name === SESSION_COOKIE)).toEqual([session]);
    for (const domain of ['localhost', '127.0.0.1', 'sandbox.localhost']) {
      expect(all.filter((c) => c.name === 'other_app' && c.domain === domain)).toEqual([
        expect.objectContaining({ value: 'other-secret', httpOnly: true }),
      ]);
    }
    // What the upstream set lives on the game's own name, in its own names, HttpOnly kept.
    const game = all.filter((c) => c.domain === 'g1001.sandbox.localhost');
    expect(game.map((c) => c.name).sort()).toEqual([
      `__Host-udcli-g1001.${SESSION_COOKIE}`,
      '__Host-udcli-g1001.other_app',
      '__Host-udcli-g1001.sid',
      '__Host-udcli-g1001.visible',
    ]);
    expect(game.find((c) => c.name === '__Host-udcli-g1001.sid')).toMatchObject({
      httpOnly: true,
      value: 'upstream-session',
    });
    // Still logged in as alice: the play page names her.
    await page.goto(`${main}/play/${VICTIM}`);
    expect(await page.locator('#username').textContent()).toBe('alice');
  }, 120_000);
});

describe('a profile with a worker of the old shared game origin', () => {
  it("the worker is replaced by one that unregisters itself, and the old link ends on the game's own name", async ({
    sharedContext,
    newSb,
    onTestFinished,
  }) => {
    // The game host's port as it was before issue 40: one origin for every game, a worker over `/`.
    const old = createServer((req, res) => {
      if (req.url === '/sw.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(EVIL_WORKER);
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>old</title><p id="who">old game</p>');
    });
    await new Promise<void>((resolve) => old.listen(0, '127.0.0.1', resolve));
    const port = (old.address() as AddressInfo).port;
    const context = withOwnPages(sharedContext, onTestFinished);
    try {
      const page = await context.newPage();
      await page.goto(`http://localhost:${port}/play/1002/game/index.html`);
      await page.evaluate(
        "navigator.serviceWorker.register('/sw.js', { scope: '/' }).then(() => navigator.serviceWorker.ready).then(() => true)",
      );
      await expect
        .poll(
          async () => {
            await page.reload();
            return who(page, false);
          },
          { timeout: 20_000 },
        )
        .toBe('pwned');
      old.closeAllConnections();
      await new Promise((resolve) => old.close(resolve));

      // The sandbox now, its game host on that very port.
      const dir = tempDir('udcli-oldworker-');
      writeFileSync(join(dir, 'index.html'), VICTIM_PAGE);
      writeFileSync(join(dir, 'victim.js'), VICTIM_JS);
      await newSb({
        gamePort: port,
        gameSources: [[VICTIM, { kind: 'dir', root: dir, connect: true }]],
      });
      const link = `http://localhost:${port}/play/${VICTIM}/game/index.html`;
      await page.goto(link);
      expect(await who(page, false)).toBe('pwned'); // the old worker still answers, until it is asked to update
      // The browser asks for the worker's script again (here: now; on its own, on a later visit).
      // The answer removes the registration, so the update itself may end as aborted.
      await page.evaluate(
        "navigator.serviceWorker.getRegistration().then((r) => r && r.update()).then(() => 'updated', (e) => e.name)",
      );
      // The new worker unregisters in its activation, then reloads the page (whose evaluate may meet that reload).
      await expect
        .poll(
          () =>
            page
              .evaluate('navigator.serviceWorker.getRegistrations().then((all) => all.length)')
              .catch(() => 'reloading'),
          { timeout: 20_000 },
        )
        .toBe(0);
      const back = await context.newPage();
      await back.goto(link);
      expect(new URL(back.url()).hostname).toBe('g1001.sandbox.localhost');
      expect(await results(back, false)).toEqual({ before: null, controlled: false });
      expect(await who(back, false)).toBe('victim');
      expect(await back.evaluate('navigator.serviceWorker.getRegistrations().then((all) => all.length)')).toBe(0);
      // Every browser reply on the bare name clears that origin's storage.
      const reply = await exactRequest(`http://127.0.0.1:${port}`, 'GET', `/play/${VICTIM}/game/index.html`, {
        'sec-fetch-site': 'none',
      });
      expect([reply.status, reply.headers['clear-site-data']]).toEqual([307, '"storage"']);
    } finally {
      if (old.listening) await new Promise((resolve) => old.close(resolve));
    }
  }, 120_000);
});
