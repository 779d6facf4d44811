/**
 * The sandbox dashboard (issue 11): its `/_sandbox` JSON endpoints over real HTTP (shape,
 * redaction, the address check, bad input), then the page at `/` in a real browser (Debian's
 * headless chromium): the games with redacted keys, a user search, a user's achievements and
 * holdings and game saves, play-page links, markup in a username or a save shown as text, no console error, no CSP
 * violation, nothing fetched from elsewhere; and a screenshot kept in test-artifacts/.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import type { BrowserContext, ConsoleMessage, Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { agiSignature } from '../../src/domain/agi-signing.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { API_PREFIX } from '../../src/domain/types.js';
import { until } from '../until.js';
import { api, call, exactRequest, signedApi, type Params, type TestSandbox } from './helpers/sandbox.js';
import type { BrowserOnlyName } from './helpers/chromium.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ARTIFACTS = join(ROOT, 'test-artifacts');
/** Written only when asked (UDCLI_UPDATE_SCREENSHOTS=1): the README's picture of the dashboard. */
const README_SCREENSHOT = join(ROOT, 'docs', 'images', 'dashboard.png');

/** A user and a game whose names try to break out of the HTML. */
const NASTY_USER = `<img src=x onerror="document.title='pwned'">"eve"&'x'`;
const NASTY_GAME = { id: '7001', name: `<script>document.title='pwned'</script> & 'Co'` };
/** A saved value that tries to break out too, with a newline and more than the preview shows. */
const NASTY_SAVE = `{"note":"<img src=x onerror=\\"document.title='pwned'\\">\nline 2","pad":"${'z'.repeat(100)}"}`;
const FULL_SECRETS = [
  DEMO.game.apiKey,
  DEMO.partner.apiKey,
  DEMO.secondGame.apiKey,
  DEMO.game.signingSecret,
  DEMO.partner.signingSecret,
  DEMO.secondGame.signingSecret,
];

let sb: TestSandbox;
let port: number;

beforeAll(async ({ sb: fileSb }) => {
  sb = fileSb;
  port = Number(new URL(sb.url).port);
  const now = Math.floor(sb.clock.ms / 1000);
  sb.db.repos.games.insert({
    ...NASTY_GAME,
    type: 'Game',
    launchable: false,
    contentUri: null,
    signing: 'agi',
    createdOn: now,
  });
  sb.db.repos.users.insert({
    uid: uidForUsername(NASTY_USER),
    username: NASTY_USER,
    gender: 'unspecified',
    createdOn: now,
  });
  sb.db.repos.users.recordPlay(uidForUsername(NASTY_USER), NASTY_GAME.id, now);
  sb.db.repos.saves.put(uidForUsername(NASTY_USER), NASTY_GAME.id, 'slot1', NASTY_SAVE, now);
});

async function getJson(path: string): Promise<{ status: number; text: string; body: Record<string, unknown> }> {
  const response = await fetch(`${sb.url}${path}`);
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as Record<string, unknown> };
}

interface GameJson {
  id: string;
  name: string;
  play_path: string;
  signing: string;
  api_keys: Array<{ api_key: string; partner: boolean; label: string }>;
}

interface UserDetailJson {
  user: { uid: string; username: string; premium: boolean; friends: number };
  games: Array<{
    id: string;
    name: string;
    play_path: string;
    played: boolean;
    achievements: Array<{ developer_id: string; state: string; current_value: number; target_value: number }>;
    holdings: Array<{
      item: string;
      kind: string | null;
      units: number;
      products: Array<{ sku: string; name: string }>;
    }>;
    saves: Array<{ key: string; bytes: number; updated_on: string; preview: string }>;
  }>;
}

describe('the dashboard JSON under /_sandbox', () => {
  it('GET /_sandbox/games lists the games with their api keys redacted and no signing secret', async () => {
    const reply = await getJson('/_sandbox/games');
    expect(reply.status).toBe(200);
    const games = reply.body.games as GameJson[];
    expect(games.map((g) => g.id)).toEqual(['1001', '1002', NASTY_GAME.id]);
    expect(games[0]).toMatchObject({ id: '1001', name: 'Demo Quest', play_path: '/play/1001', signing: 'both' });
    expect(games[0]!.api_keys).toEqual([
      { api_key: '0123…cdef', partner: false, label: expect.any(String) },
      { api_key: '7792…2a46', partner: true, label: expect.any(String) },
    ]);
    expect(games[1]!.api_keys.map((k) => k.api_key)).toEqual(['7c5f…37ba']);
    for (const secret of FULL_SECRETS) expect(reply.text).not.toContain(secret);
    expect(reply.text).not.toMatch(/secret/i);
  });

  it('GET /_sandbox/users?q= finds users by username prefix, and by uid in any case', async () => {
    const byPrefix = await getJson('/_sandbox/users?q=demo');
    expect(byPrefix.status).toBe(200);
    expect(byPrefix.body).toEqual({
      query: 'demo',
      users: [{ uid: DEMO.user.uid, username: DEMO.user.username, premium: true, created_on: '2020-03-14 12:00:00' }],
      more: false,
    });
    const byUid = await getJson(`/_sandbox/users?q=${DEMO.user.uid.toUpperCase()}`);
    expect((byUid.body.users as Array<{ uid: string }>).map((u) => u.uid)).toEqual([DEMO.user.uid]);
    // The prefix is exact (case-sensitive, no wildcards): `_` and `%` match only themselves.
    expect((await getJson('/_sandbox/users?q=Demo')).body.users).toEqual([]);
    expect((await getJson('/_sandbox/users?q=demo%25')).body.users).toEqual([]);
    expect((await getJson('/_sandbox/users?q=d_mo')).body.users).toEqual([]);
  });

  it('caps the matches at ?limit and says when there are more', async () => {
    const reply = await getJson('/_sandbox/users?q=player_&limit=3');
    expect((reply.body.users as Array<{ username: string }>).map((u) => u.username)).toEqual([
      'player_0001',
      'player_0002',
      'player_0003',
    ]);
    expect(reply.body.more).toBe(true);
    const few = await getJson('/_sandbox/users?q=player_149&limit=100');
    expect((few.body.users as unknown[]).length).toBe(6); // player_1490 … player_1495
    expect(few.body.more).toBe(false);
  });

  it("GET /_sandbox/users/:uid shows the user's achievements and holdings per game", async () => {
    const reply = await getJson(`/_sandbox/users/${DEMO.user.uid}`);
    expect(reply.status).toBe(200);
    const detail = reply.body as unknown as UserDetailJson;
    expect(detail.user).toMatchObject({
      uid: DEMO.user.uid,
      username: DEMO.user.username,
      premium: true,
      friends: 1200,
    });
    // Puzzle Lab: never played, no progress, nothing held, so not listed.
    expect(detail.games.map((g) => g.id)).toEqual(['1001']);
    const quest = detail.games[0]!;
    expect(quest).toMatchObject({ name: 'Demo Quest', play_path: '/play/1001', played: true });
    const state = Object.fromEntries(
      quest.achievements.map((a) => [a.developer_id, `${a.current_value}/${a.target_value} ${a.state}`]),
    );
    expect(state).toEqual({
      FIRST_WIN: '1/1 Completed',
      COLLECT_1000_GEMS: '250/1000 In Progress',
      LEVEL_10: '4/10 In Progress',
      'SPEED RUN/100%': '0/100 Not Started',
      DAILY_STREAK_7: '0/7 Not Started',
      SECRET_ROOM: '0/1 Not Started',
    });
    expect(quest.holdings).toEqual([
      {
        item: 'gems',
        kind: 'consumable',
        units: 250,
        updated_on: expect.any(String),
        products: [
          { sku: 'gems:100', name: 'Pouch of 100 Gems' },
          { sku: 'gems:500', name: 'Chest of 500 Gems' },
        ],
      },
      {
        item: 'sword-of-dawn',
        kind: 'unlockable',
        units: 1,
        updated_on: expect.any(String),
        products: [{ sku: 'sword-of-dawn', name: 'Sword of Dawn' }],
      },
    ]);
  });

  it("lists a user's game saves per game: key, size in bytes, updated, and a preview shortened and escaped", async () => {
    const reply = await getJson(`/_sandbox/users/${uidForUsername(NASTY_USER)}`);
    const game = (reply.body as unknown as UserDetailJson).games.find((g) => g.id === NASTY_GAME.id)!;
    expect(game.saves).toEqual([
      {
        key: 'slot1',
        bytes: Buffer.byteLength(NASTY_SAVE),
        updated_on: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        // 80 characters, the newline written as \n, then an ellipsis: never the whole 256 KiB.
        preview: `${NASTY_SAVE.slice(0, 80).replace('\n', '\\x0a')}…`,
      },
    ]);
    const demo = (await getJson(`/_sandbox/users/${DEMO.user.uid}`)).body as unknown as UserDetailJson;
    expect(demo.games[0]!.saves).toEqual([]);
  });

  it('answers an unknown uid with 404 and a malformed one with 400', async () => {
    const unknown = await getJson(`/_sandbox/users/${'0'.repeat(32)}`);
    expect(unknown).toMatchObject({
      status: 404,
      body: { status: false, code: 404, message: `not found: user ${'0'.repeat(32)}` },
    });
    const malformed = await getJson('/_sandbox/users/not-a-uid');
    expect(malformed).toMatchObject({ status: 400, body: { status: false, code: 400 } });
    expect(malformed.body.message).toMatch(/^invalid parameter: uid/);
  });

  it('answers a bad search with 400 naming the parameter', async () => {
    const cases: Array<[string, RegExp]> = [
      ['/_sandbox/users', /^missing parameter: q$/],
      ['/_sandbox/users?q=', /^missing parameter: q$/],
      [`/_sandbox/users?q=${'a'.repeat(65)}`, /^invalid parameter: q \(longer than 64/],
      ['/_sandbox/users?q=a&q=b', /^invalid parameter: q \(given more than once\)/],
      ['/_sandbox/users?q=a&limit=0', /^invalid parameter: limit/],
      ['/_sandbox/users?q=a&limit=101', /^invalid parameter: limit/],
      ['/_sandbox/users?q=a&limit=ten', /^invalid parameter: limit/],
      ['/_sandbox/users?q=%E0%A4%A', /^invalid parameter: q \(bad percent-encoding\)/],
    ];
    for (const [path, message] of cases) {
      const reply = await getJson(path);
      expect(reply.status, path).toBe(400);
      expect(reply.body.message, path).toMatch(message);
    }
  });

  it('refuses every dashboard endpoint to a request not addressed to the sandbox itself', async () => {
    for (const path of ['/_sandbox/games', '/_sandbox/users?q=demo', `/_sandbox/users/${DEMO.user.uid}`]) {
      const own = await exactRequest(sb.url, 'GET', path, { host: `localhost:${port}` });
      expect(own.status, path).toBe(200);
      const foreign = await exactRequest(sb.url, 'GET', path, { host: `evil.example:${port}` });
      expect(foreign.status, path).toBe(403);
      expect(JSON.parse(foreign.text)).toMatchObject({ status: false, code: 403 });
      expect(foreign.text).not.toContain(DEMO.user.username);
    }
  });

  it('returns a username holding markup as a JSON string, unchanged', async () => {
    const reply = await getJson(`/_sandbox/users?q=${encodeURIComponent('<img')}`);
    expect((reply.body.users as Array<{ username: string }>).map((u) => u.username)).toEqual([NASTY_USER]);
    expect(reply.status).toBe(200);
  });
});

describe('the dashboard page over plain HTTP', () => {
  it('is a fixed shell under a strict CSP: no inline script or style, nothing from elsewhere, no data in it', async () => {
    const response = await fetch(`${sb.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/unsafe-|\*|https?:|data:/);
    const html = await response.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // every script is a file
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    expect(html).not.toMatch(/(?:src|href)="(?!\/)/); // every reference is to this origin
    for (const secret of FULL_SECRETS) expect(html).not.toContain(secret);
    expect(html).not.toContain('0123…cdef'); // the data comes from /_sandbox, not the page
  });

  it('serves its script, stylesheet and icon from the sandbox', async () => {
    for (const [path, type] of [
      ['/dashboard/dashboard.js', 'text/javascript; charset=utf-8'],
      ['/dashboard/dashboard.css', 'text/css; charset=utf-8'],
      ['/dashboard/icon.svg', 'image/svg+xml'],
    ]) {
      const response = await fetch(`${sb.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toBe(type);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
    const script = await (await fetch(`${sb.url}/dashboard/dashboard.js`)).text();
    expect(() => new Script(script, { filename: 'dashboard.js' })).not.toThrow();
    // Values reach the page as text: the script never writes HTML.
    expect(script).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
  });

  it('answers a POST with 405', async () => {
    const response = await fetch(`${sb.url}/`, { method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });
});

// ---------------------------------------------------------------------------------------------
// A real browser.

/** What a page did that the dashboard must never do. */
interface Watch {
  consoleErrors: string[];
  cspViolations: string[];
  requests: string[];
}

/** A signed change under the wrong secret: a refused row (403) for the request log, changing nothing. */
async function refusedChange(target: TestSandbox, developerId: string): Promise<void> {
  await signedApi(
    target,
    'PUT',
    `/achievements/user/${DEMO.user.uid}.json`,
    [
      ['type', 'Game'],
      ['pid', '1001'],
      ['developer_id', developerId],
      ['increment', '5'],
    ],
    { secret: 'wrong' },
  );
}

async function openDashboard(page: Page, base: string, _logAvailable: boolean): Promise<Watch> {
  const watch: Watch = { consoleErrors: [], cspViolations: [], requests: [] };
  await page.exposeFunction('reportCspViolation', (text: string) => watch.cspViolations.push(text));
  // Runs before the page's own script (and, injected by the browser, is not subject to its CSP).
  await page.addInitScript({
    content:
      "document.addEventListener('securitypolicyviolation', (e) => window.reportCspViolation(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber));",
  });
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() !== 'error') return;
    watch.consoleErrors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => watch.consoleErrors.push(`page error: ${error.message}`));
  page.on('request', (request: Request) => watch.requests.push(request.url()));
  await page.goto(`${base}/`);
  await page.locator('#games-body table').waitFor();
  return watch;
}

async function searchAndOpen(page: Page, q: string, username: string): Promise<void> {
  await page.locator('#user-q').fill(q);
  await page.locator('#user-search button[type=submit]').click();
  const result = page.locator('#user-results button.user', { has: page.locator('.username', { hasText: username }) });
  await result.first().click();
  await page.locator('#detail-username', { hasText: username }).waitFor();
}

/** One period of the page's own poll of the request log (LOG_POLL_MS in src/sandbox/dashboard/client.ts). */
const LOG_POLL_MS = 1000;

/**
 * Waits for `shown` on a page whose timers run on Playwright's clock (installed before the page
 * opened): each look that does not find it runs the clock one poll period on, so the page's own
 * timer asks the log again at once rather than a second later. The rows still come from the
 * page's polling, not from a reload.
 */
async function untilPolled(page: Page, shown: () => Promise<boolean>, what: string): Promise<void> {
  await until(async () => {
    if (await shown()) return true;
    await page.clock.runFor(LOG_POLL_MS);
    return false;
  }, what);
}

function expectClean(watch: Watch, base: string): void {
  expect(watch.consoleErrors).toEqual([]);
  expect(watch.cspViolations).toEqual([]);
  const foreign = watch.requests.filter((url) => !url.startsWith(`${base}/`));
  expect(foreign).toEqual([]);
}

describe('the dashboard in a real browser (headless chromium)', () => {
  /** The request log answers (the page's live log reads it). */
  let logAvailable = false;
  /** The demo data alone, as a user sees it after `udcli sandbox start` (the screenshot's sandbox). */
  let demo: TestSandbox;
  // The demo data alone: the file's sandbox holds the hostile game and user above.
  beforeAll(async ({ newSb }) => {
    demo = await newSb();
    logAvailable = (await fetch(`${demo.url}/_sandbox/requests`)).status === 200;
    expect(logAvailable).toBe(true);
  });

  /**
   * The dashboard sets no cookie and keeps nothing in storage, so the tests without Playwright's
   * clock (which is a context's, not a page's) each open a page of the file's shared context.
   */
  async function plainPage(context: BrowserContext, viewport?: { width: number; height: number }): Promise<Page> {
    const page = await context.newPage();
    if (viewport !== undefined) await page.setViewportSize(viewport);
    return page;
  }

  it('lists the games with redacted keys and play links, finds demo_player, and shows their achievements and holdings', async ({
    sharedContext,
  }) => {
    // Some traffic for the request log (and the screenshot): a read, and a refused signature.
    await api(demo.url, 'GET', `/users/${DEMO.user.uid}.json`);
    await refusedChange(demo, 'LEVEL_10');
    demo.db.repos.saves.put(
      DEMO.user.uid,
      '1001',
      'slot1',
      '{"level":4,"gems":250,"checkpoint":"cave-2"}',
      Math.floor(demo.clock.ms / 1000),
    );
    const page = await plainPage(sharedContext, { width: 1280, height: 900 });
    try {
      const watch = await openDashboard(page, demo.url, logAvailable);

      const games = page.locator('#games-body tbody tr');
      expect(await games.count()).toBe(2);
      const quest = page.locator('#games-body tr[data-game="1001"]');
      expect(await quest.locator('strong').textContent()).toBe('Demo Quest');
      expect(await quest.locator('code.api-key').allTextContents()).toEqual(['0123…cdef', '7792…2a46']);
      expect(await page.locator('#games-body tr[data-game="1002"] code.api-key').allTextContents()).toEqual([
        '7c5f…37ba',
      ]);
      expect(await quest.locator('a.play').getAttribute('href')).toBe('/play/1001');
      // What the play page really serves: nothing yet for the demo's games (no folder, URL or content URI).
      expect(await quest.locator('td.uri').textContent()).toBe(
        'nothing yet (set a content URI, or start with --game-dir / --game-url)',
      );
      expect(await page.locator('#games-body tr[data-game="1002"] a.play').getAttribute('href')).toBe('/play/1002');

      await searchAndOpen(page, 'demo', DEMO.user.username);
      expect(await page.locator('#user-results button.user .username').allTextContents()).toEqual([DEMO.user.username]);
      expect(await page.locator('#detail-uid').textContent()).toBe(DEMO.user.uid);
      const detail = page.locator('#user-detail .game[data-game="1001"]');
      expect(await detail.locator('a.play').getAttribute('href')).toBe('/play/1001');
      expect(await detail.locator('tr[data-achievement="FIRST_WIN"] td.state').textContent()).toBe('Completed');
      expect(await detail.locator('tr[data-achievement="COLLECT_1000_GEMS"] td.num').textContent()).toMatch(
        /^250\/1000/,
      );
      expect(await detail.locator('tr[data-item="sword-of-dawn"] td.units').textContent()).toBe('1');
      expect(await detail.locator('tr[data-item="gems"] td.units').textContent()).toBe('250');
      expect(await detail.locator('tr[data-item="gems"]').textContent()).toContain('gems:100');
      const save = detail.locator('tr[data-save="slot1"]');
      expect(await save.locator('td.size').textContent()).toBe('44 B');
      expect(await save.locator('td.preview').textContent()).toBe('{"level":4,"gems":250,"checkpoint":"cave-2"}');

      // The page's own HTML never holds a key in full (the browser's view of it, scripts run).
      const html = await page.content();
      for (const secret of FULL_SECRETS) expect(html).not.toContain(secret);

      if (logAvailable)
        await page.locator('#log-body tr:not(.own)').first().waitFor(); // the dashboard's own asset requests are hidden
      else await page.locator('#log-status', { hasText: 'request log not available' }).waitFor();

      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'dashboard.png'), fullPage: true });
      if (process.env.UDCLI_UPDATE_SCREENSHOTS === '1') {
        mkdirSync(dirname(README_SCREENSHOT), { recursive: true });
        await page.screenshot({ path: README_SCREENSHOT, fullPage: true });
      }
      expectClean(watch, demo.url);
    } finally {
      await page.close();
    }
  }, 120_000);

  it('shows a username holding markup as text, and runs none of it', async ({ sharedContext }) => {
    const page = await plainPage(sharedContext);
    try {
      const watch = await openDashboard(page, sb.url, logAvailable);
      // The game's name is text, not markup.
      expect(await page.locator(`#games-body tr[data-game="${NASTY_GAME.id}"] strong`).textContent()).toBe(
        NASTY_GAME.name,
      );
      await searchAndOpen(page, '<img', NASTY_USER);
      expect(await page.locator('#user-results button.user .username').allTextContents()).toEqual([NASTY_USER]);
      expect(await page.locator('#detail-username').textContent()).toBe(NASTY_USER);
      expect(await page.locator('#user-detail .game h3').first().textContent()).toContain(NASTY_GAME.name);
      expect(await page.locator('#user-detail tr[data-save="slot1"] td.preview').textContent()).toBe(
        `${NASTY_SAVE.slice(0, 80).replace('\n', '\\x0a')}…`,
      );
      expect(await page.locator('img[src="x"], script:not([src])').count()).toBe(0);
      expect(await page.title()).toBe('udcli sandbox');
      // A reload keeps the user shown (the uid is in the URL's fragment).
      expect(new URL(page.url()).hash).toBe(`#user=${uidForUsername(NASTY_USER)}`);
      await page.reload();
      await page.locator('#detail-username', { hasText: NASTY_USER }).waitFor();
      expectClean(watch, sb.url);
    } finally {
      await page.close();
    }
  }, 120_000);

  it('says "request log not available" when the sandbox has no request log, and stops asking', async ({ context }) => {
    const page = await context.newPage();
    // A sandbox without the log answers its path with the 404 envelope, as this one did before it was built.
    let asked = 0;
    await page.route('**/_sandbox/requests*', (route) => {
      asked++;
      return route.fulfill({
        status: 404,
        contentType: 'application/json',
        body: JSON.stringify({ version: 1, code: 404, message: 'not found: path /_sandbox/requests', payload: null }),
      });
    });
    // The page's timers on Playwright's clock: the seconds in which it would have asked again
    // are run through at once, not waited for.
    await page.clock.install();
    await openDashboard(page, demo.url, false);
    await page.locator('#log-status', { hasText: 'request log not available' }).waitFor();
    expect(await page.locator('#log').isHidden()).toBe(true);
    await page.clock.runFor(30_000);
    expect(asked).toBe(1);
    // The rest of the page works without it.
    await searchAndOpen(page, 'demo', DEMO.user.username);
  }, 120_000);

  it('reached through another host name (DNS rebinding), is refused, page and data alike, and says why', async ({
    sharedContext,
  }) => {
    // The browser resolves a foreign name to the sandbox, as a rebinding attacker's page would
    // (the shared chromium's resolver rules: test/sandbox/helpers/chromium.ts).
    const rebound: BrowserOnlyName = 'rebound.test';
    const page = await plainPage(sharedContext);
    try {
      const port = new URL(demo.url).port;
      const response = await page.goto(`http://${rebound}:${port}/`);
      expect(response?.status()).toBe(403);
      expect(await page.content()).toMatch(/forbidden: the sandbox answers only requests addressed to it/);
      const data = await page.evaluate(async () => {
        const r = await fetch('/_sandbox/games');
        return { status: r.status, text: await r.text() };
      });
      expect(data.status).toBe(403);
      for (const secret of FULL_SECRETS) {
        expect(await page.content()).not.toContain(secret);
        expect(data.text).not.toContain(secret);
      }
    } finally {
      await page.close();
    }
  }, 120_000);

  // One page for the live log's three stories (a context and a dashboard load each were most of their cost).
  it("shows requests live (newest first, keys redacted, the failure reason), a signed change once (its challenge taken off when the signed retry's row comes), and at 1,100 px gives a path most of its row (whole on hover) and hides the dashboard's own files until asked; screenshot kept", async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    try {
      const page = await context.newPage();
      await page.clock.install();
      const watch = await openDashboard(page, demo.url, true);
      await page.locator('#log-status', { hasText: 'Live' }).waitFor();

      // Requests live, newest first, with keys redacted and the failure reason.
      await api(demo.url, 'GET', `/users/${DEMO.user.uid}.json`);
      await refusedChange(demo, 'LEVEL_10');
      const refused = page
        .locator('#log-body tr', { hasText: `/services/rest/v1/achievements/user/${DEMO.user.uid}.json` })
        .first();
      await untilPolled(page, () => refused.isVisible(), 'the refused change in the log');
      expect(await refused.locator('td.status').textContent()).toBe('403');
      expect(await refused.locator('td.reason').textContent()).toMatch(/signature/);
      const read = page.locator('#log-body tr', { hasText: `/services/rest/v1/users/${DEMO.user.uid}.json` }).first();
      await untilPolled(page, () => read.isVisible(), 'the read in the log');
      expect(await read.locator('td.status').textContent()).toBe('200');
      // Newest first.
      const order = await page.locator('#log-body tr td.path').allTextContents();
      expect(order.findIndex((p) => p.startsWith('/services/rest/v1/achievements/user/'))).toBeLessThan(
        order.findIndex((p) => p.startsWith('/services/rest/v1/users/')),
      );
      for (const secret of FULL_SECRETS) expect(await page.content()).not.toContain(secret);
      // The dashboard's own polling is not shown.
      expect(order.some((p) => p.startsWith('/_sandbox/requests'))).toBe(false);

      // A signed change shown once: the challenge it saw comes off when its signed retry arrives, whose row says so.
      const path = `${API_PREFIX}/achievements/user/${DEMO.user.uid}.json`;
      const query: Params = [
        ['api_key', DEMO.game.apiKey],
        ['type', 'Game'],
        ['pid', '1001'],
        ['developer_id', 'FIRST_WIN'],
        ['increment', '1'],
        ['method', 'put'],
      ];
      const first = await call<{ session: string; key: string }>(demo.url, 'POST', path, query);
      expect(first.status).toBe(401);
      // Until its retry comes, the challenge is a 401 like any other.
      const challenged = page.locator('#log-body tr', { hasText: 'signature required' });
      await untilPolled(page, () => challenged.isVisible(), 'the challenge in the log');
      expect(await challenged.locator('td.status').textContent()).toBe('401');
      const challenge = first.body.payload!;
      const retry = await call(demo.url, 'POST', path, [
        ...query,
        ['session', challenge.session],
        ['sig', agiSignature({ ...challenge, path, query, body: [] })],
      ]);
      expect(retry.status, retry.body.message).toBe(200);
      const retried = page.locator('#log-body tr', { hasText: 'after signature challenge' });
      await untilPolled(page, () => retried.isVisible(), 'the signed retry in the log');
      expect(await retried.locator('td.status').textContent()).toBe('200');
      await expect.poll(() => challenged.count(), { timeout: 5000 }).toBe(0);
      expect(await page.locator('#log-body tr', { hasText: 'developer_id=FIRST_WIN' }).count()).toBe(1);

      // At 1,100 px. A user opened: the page fetches the avatar, one more of its own files.
      await searchAndOpen(page, 'demo', DEMO.user.username);
      // A long path and a long reason, as a refused signed change has.
      await refusedChange(demo, 'COLLECT_1000_GEMS');
      const long = page.locator('#log-body tr', { hasText: 'developer_id=COLLECT_1000_GEMS' }).first();
      await untilPolled(page, () => long.isVisible(), 'the refused change in the log');
      const cell = long.locator('td.path');
      const full = (await cell.textContent())!;
      expect(await cell.getAttribute('title')).toBe(full);
      expect(full).toContain(`/services/rest/v1/achievements/user/${DEMO.user.uid}.json?`);
      const table = (await page.locator('#log').boundingBox())!;
      const box = (await cell.boundingBox())!;
      // Before, the reason took the row and the path was left about 5 characters (some 40 px).
      expect(box.width).toBeGreaterThan(table.width * 0.4);
      // One line, cut with an ellipsis when longer than its column (the title has it whole).
      expect(
        await cell.evaluate(
          '[getComputedStyle(document.querySelector("#log-body tr:not(.own) td.path")).whiteSpace, getComputedStyle(document.querySelector("#log-body tr:not(.own) td.path")).textOverflow]',
        ),
      ).toEqual(['nowrap', 'ellipsis']);

      // The dashboard's own requests (its page, script, stylesheet, icon, the avatar) are in the log, hidden.
      const own = page.locator('#log-body tr.own');
      await untilPolled(page, async () => (await own.count()) >= 4, "the dashboard's own requests in the log");
      expect(await own.count()).toBeGreaterThanOrEqual(4);
      const visiblePaths = await page.locator('#log-body tr:visible td.path').allTextContents();
      expect(visiblePaths.filter((p) => p === '/' || p.startsWith('/dashboard/') || p.startsWith('/avatars/'))).toEqual(
        [],
      );
      expect(await page.locator('#log-own-count').textContent()).toMatch(/^\(\d+ hidden\)$/);
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.locator('#requests').screenshot({ path: join(ARTIFACTS, 'dashboard-log-1100.png') });

      await page.locator('#log-own').check();
      const shown = await page.locator('#log-body tr:visible td.path').allTextContents();
      for (const asset of ['/dashboard/dashboard.css', '/dashboard/dashboard.js', '/dashboard/icon.svg'])
        expect(shown).toContain(asset);
      expect(shown.some((p) => p.startsWith('/avatars/'))).toBe(true);
      expect(await page.locator('#log-own-count').textContent()).toBe('');
      expectClean(watch, demo.url);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('the games table says what each play page serves: the folder given with --game-dir, not a content URI', async ({
    sharedContext,
    newSb,
  }) => {
    const folder = join(ARTIFACTS, 'served-game');
    mkdirSync(folder, { recursive: true });
    const served = await newSb({ gameSources: [['1001', { kind: 'dir', root: folder, connect: true }]] });
    const page = await plainPage(sharedContext);
    try {
      const watch = await openDashboard(page, served.url, true);
      const cell = page.locator('#games-body tr[data-game="1001"] td.uri');
      expect(await cell.locator('code').textContent()).toBe(folder);
      expect(await cell.locator('.kind').textContent()).toBe('folder (--game-dir)');
      expect(await page.locator('#games-body thead').textContent()).toContain('Play page serves');
      expectClean(watch, served.url);
    } finally {
      await page.close();
      await served.close();
    }
  }, 120_000);
});
