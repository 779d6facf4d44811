/**
 * A real HTML5 game on an SDK-like client (test/fixtures/sdk-game: written from docs/PLATFORM.md, not
 * the platform's code) runs against the sandbox in Debian's Chromium, unchanged, in the two ways a
 * studio runs it:
 *  - `udcli sandbox play 1001 --game-dir DIR` (the built binary: a detached sandbox serving the
 *    game under its own origin, the connect script added to its page): the game reaches
 *    `parent.apiAuth` and `parent.agi` directly, and its calls to the platform's production host
 *    reach the sandbox;
 *  - served by the studio's own server on another port, the connect script included by hand, and
 *    iframed directly (`/play/1001?direct=1`): the calls go cross-origin (CORS), `parent` is the
 *    connect script's stand-in.
 * Each asserts what the player sees (the game's own page, the play page's store and notices) and
 * re-reads the state over the API.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from '../fixtures.js';
import { openDatabase } from '../../src/sandbox/database.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { closedPort, runInProcess, type CliResult } from './harness.js';

const GAME_DIR = join(import.meta.dirname, '..', 'fixtures', 'sdk-game');
const GAME = '1001';
const KEY = '0123456789abcdef0123456789abcdef';

let root: string;
let env: NodeJS.ProcessEnv;
/** The detached sandbox `udcli sandbox play` started: its URL and database. */
const sandbox = { url: '', dbPath: '' };
let studio: Server;
let studioUrl: string;

// biome-ignore lint/suspicious/noExplicitAny: replies are read as the test needs them
type AnyReply = { code: number; payload: any };

async function api(path: string, params: Record<string, string>): Promise<AnyReply> {
  const response = await fetch(
    `${sandbox.url}/services/rest/v1/${path}?${new URLSearchParams({ api_key: KEY, ...params })}`,
  );
  return (await response.json()) as AnyReply;
}

/** The one entry a sku lookup answers (the SDK takes a list of one as that entry). */
async function held(uid: string, sku: string): Promise<{ purchase: { success: boolean; data: unknown } }> {
  const { payload } = await api(`products/user/${uid}.json`, { game_id: GAME, sku });
  expect(Array.isArray(payload) ? payload.length : 1).toBe(1);
  return Array.isArray(payload) ? payload[0] : payload;
}

/** The studio's own static server: the game as it is, with the documented connect line added to its page. */
function startStudioServer(): Promise<Server> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://studio.invalid').pathname;
    const name = path === '/' ? 'index.html' : path.slice(1);
    if (!/^[a-z0-9-]+\.(html|js)$/.test(name)) return void response.writeHead(404).end();
    let body: string;
    try {
      body = readFileSync(join(GAME_DIR, name), 'utf8');
    } catch {
      return void response.writeHead(404).end();
    }
    if (name.endsWith('.html'))
      body = body.replace('<head>', `<head>\n<script src="${sandbox.url}/_sandbox/connect.js"></script>`);
    response
      .writeHead(200, { 'content-type': name.endsWith('.html') ? 'text/html; charset=utf-8' : 'text/javascript' })
      .end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'udcli-sdk-game-'));
  env = {
    UDCLI_CONFIG_DIR: join(root, 'config'),
    UDCLI_DATA_DIR: join(root, 'data'),
    UDCLI_SANDBOX_PORT: String(await closedPort()),
  };
  const play = await runInProcess(['sandbox', 'play', GAME, '--game-dir', GAME_DIR, '--no-open'], env);
  expect(play.code, play.stderr).toBe(0);
  const pageUrl = new URL(play.stdout.trim());
  expect(pageUrl.pathname).toBe(`/play/${GAME}`);
  sandbox.url = pageUrl.origin;
  sandbox.dbPath = join(root, 'data', 'sandbox.db');
  studio = await startStudioServer();
  studioUrl = `http://127.0.0.1:${(studio.address() as AddressInfo).port}`;
});

afterAll(async () => {
  // The browser's keep-alive connections stay until the shared context closes, after this hook.
  studio?.closeAllConnections();
  await new Promise((resolve) => studio?.close(resolve));
  if (env) await runInProcess(['sandbox', 'stop'], env);
  rmSync(root, { recursive: true, force: true });
});

/** `udcli ARGS` through `main` in this process, with the test's environment (the detached sandbox's log). */
const udcli = (args: string[]): Promise<CliResult> => runInProcess(args, env);

const linesOf = (text: string) => text.split('\n').filter((line) => line !== '');

/**
 * Logs in on the play page the way a person does (the confirm button of ?as=), with the page's
 * query `flags` kept through the login, and returns the game's frame.
 */
async function play(page: Page, username: string, flags = ''): Promise<Frame> {
  // A browser sees the play page at sandbox.localhost, the site its games share (issue 40); a
  // browser's ?direct=1 is not sent there, so with flags the page is asked for there at once.
  const site = `http://sandbox.localhost:${new URL(sandbox.url).port}`;
  await page.goto(
    flags === '' ? `${sandbox.url}/play/${GAME}?as=${username}` : `${site}/play/${GAME}?as=${username}&${flags}`,
  );
  await page.getByRole('button', { name: `Play as ${username}` }).click();
  await page.waitForURL(`${site}/play/${GAME}${flags === '' ? '' : `?${flags}`}`);
  const frame = page.frameLocator('#game');
  await expect.poll(() => frame.locator('#status').textContent(), { timeout: 15_000 }).toBe('ready');
  const handle = await page.locator('#game').elementHandle();
  return (await handle!.contentFrame())!;
}

/**
 * The element is inside the window and nothing covers its middle: a player sees it and can click it without scrolling.
 */
function shownInViewport(page: Page, selector: string): Promise<boolean> {
  // A string: this project's TypeScript has no DOM types; the function runs in the page.
  return page.evaluate(`(() => {
    const node = document.querySelector(${JSON.stringify(selector)});
    if (!node) return false;
    const r = node.getBoundingClientRect();
    if (r.width === 0 || r.top < 0 || r.left < 0 || r.bottom > window.innerHeight || r.right > window.innerWidth) return false;
    return node.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
  })()`);
}

const text = (frame: Frame, id: string) => frame.locator(`#${id}`).textContent();
const json = async (frame: Frame, id: string) => JSON.parse((await text(frame, id)) || 'null');

/** Everything a player does with the game, and what they and the API see. */
async function playThrough(page: Page, frame: Frame, username: string): Promise<void> {
  const uid = uidForUsername(username);
  expect(await text(frame, 'player')).toBe(username);
  // retrieveQuests: the quests this player has started, as the API lists them (the platform's pages).
  const startedBefore = ((await api(`achievements/user/${uid}.json`, {})).payload as unknown[]).length;
  await expect.poll(() => text(frame, 'quests')).toBe(`${startedBefore} quests`);
  expect(await text(frame, 'error')).toBe('');

  // A quest: the signed submit, then the platform page's notice.
  await frame.click('#quest-level');
  await expect
    .poll(() => json(frame, 'quest-result'))
    .toMatchObject({
      developer_id: 'LEVEL_10',
      state: 'In Progress',
      percent_complete: 55,
      completed_date: '0000-00-00 00:00:00',
    });
  await expect.poll(() => page.locator('#quest-notice').textContent()).toContain('Seasoned Adventurer');
  // In Progress: its completed_date is the zero date, which is no date to show.
  expect(await page.locator('#quest-notice .quest-date').count()).toBe(0);
  await frame.click('#quest');
  await expect.poll(() => page.locator('#quest-notice').textContent()).toContain('Quest completed!');
  expect(await page.locator('#quest-notice .quest-name').textContent()).toBe('First Victory');
  expect(await page.locator('#quest-notice .quest-date').textContent()).toMatch(
    /^ on \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/,
  );
  const quests = (await api(`achievements/user/${uid}.json`, {})).payload as Array<{
    developer_id: string;
    state: string;
  }>;
  expect(quests.find((q) => q.developer_id === 'FIRST_WIN')?.state).toBe('Completed');
  expect(quests.find((q) => q.developer_id === 'LEVEL_10')?.state).toBe('In Progress');

  // Game saves: the value travels in the form body, signed.
  await frame.click('#save');
  await expect.poll(() => json(frame, 'save-result')).toEqual({ key: 'slot1', success: 1 });
  expect((await api(`gamesave/${uid}.json`, { key: 'slot1' })).payload).toEqual({
    slot1: JSON.stringify({ level: 3, name: 'Ünïcode & co' }),
  });
  await frame.click('#load');
  await expect.poll(() => json(frame, 'save-result')).toEqual({ slot1: { level: 3, name: 'Ünïcode & co' } });
  await frame.click('#erase');
  await expect.poll(() => json(frame, 'save-result')).toEqual({ slot1: 'deleted' });
  expect((await api(`gamesave/${uid}.json`, { key: 'slot1' })).payload).toEqual({});

  // The store for one product: name, price, what the player holds; Buy grants it and calls the handler.
  await frame.click('#store-sword');
  const row = page.locator('#store li.product[data-sku="dragon-mount"]');
  await expect.poll(() => row.locator('.name').textContent()).toBe('Dragon Mount');
  expect(await row.locator('.price').textContent()).toBe('$9.99');
  expect(await row.locator('.held').textContent()).toBe('not owned');
  await row.getByRole('button', { name: 'Buy' }).click();
  await expect.poll(() => page.locator('#store').count()).toBe(0);
  await expect
    .poll(() => json(frame, 'purchase-result'))
    .toMatchObject({
      event: { type: 'completePurchase', data: { success: true, data: true } },
      name: 'completePurchase',
      payload: { sku: 'dragon-mount', is_consumable: false },
    });
  expect((await held(uid, 'dragon-mount')).purchase).toMatchObject({ success: true, data: true });

  // The whole store; a pack bought is that pack's units; Close calls the handler with cancelPurchase.
  await frame.click('#gems');
  await expect.poll(() => text(frame, 'gems-result')).not.toBe('');
  const gemsBefore = Number(await text(frame, 'gems-result')) || 0;
  await frame.click('#store-all');
  const chest = page.locator('#store li.product[data-sku="gems:500"]');
  await expect.poll(() => chest.locator('.pack').textContent()).toBe('pack of 500');
  expect(await page.locator('#store li.product').count()).toBe(7);
  await chest.getByRole('button', { name: 'Buy' }).click();
  await expect
    .poll(() => json(frame, 'purchase-result'))
    .toMatchObject({
      event: { type: 'completePurchase' },
      payload: { sku: 'gems:500', is_consumable: true, sku_base: 'gems', purchase_quantity: '500' },
    });
  await frame.click('#gems');
  await expect.poll(() => text(frame, 'gems-result')).toBe(String(gemsBefore + 500));
  await frame.click('#consume');
  await expect.poll(() => text(frame, 'gems-result')).toBe(String(gemsBefore + 490));
  expect((await held(uid, 'gems')).purchase.data).toBe(gemsBefore + 490);

  // On a small window the whole store still fits: its list scrolls, its Close stays in view; the
  // unlockable bought above cannot be bought twice.
  await page.setViewportSize({ width: 900, height: 520 });
  await frame.click('#store-all');
  await expect.poll(() => page.locator('#store li.product').count()).toBe(7);
  expect(await shownInViewport(page, '#store-close')).toBe(true);
  const mount = page.locator('#store li.product[data-sku="dragon-mount"]');
  expect(await mount.locator('button.buy').textContent()).toBe('Owned');
  expect(await mount.locator('button.buy').isDisabled()).toBe(true);
  expect(await mount.locator('.held').textContent()).toBe('owned');
  // A consumable held is bought again as often as the player likes.
  expect(await chest.getByRole('button', { name: 'Buy' }).isEnabled()).toBe(true);
  await page.locator('#store-close').click();
  await expect
    .poll(() => json(frame, 'purchase-result'))
    .toMatchObject({ event: { type: 'cancelPurchase', data: null }, name: 'cancelPurchase' });
  expect(await page.locator('#store').count()).toBe(0);
}

// The tests' pages are the file's shared context's (test/fixtures.ts): each logs in its own user through the play
// page, which replaces the session cookie, and nothing a test reads is kept in storage.
describe('an SDK game served through `udcli sandbox play --game-dir` (same origin, connect script added)', () => {
  it('starts as the README says (document.domain line included) and does everything a player does', async ({
    sharedContext,
  }) => {
    const page = await sharedContext.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      const frame = await play(page, 'alice');
      // The game runs on the game host, at a name of its own (issue 40): g1001.sandbox.localhost,
      // and the README's game still starts and plays.
      const gameOrigin = new URL(frame.url());
      expect(gameOrigin.hostname).toBe('g1001.sandbox.localhost');
      expect(gameOrigin.origin).not.toBe(sandbox.url);
      await playThrough(page, frame, 'alice');
      expect(errors).toEqual([]);

      // What the game sent through agi.v2 is in the request log, which the dashboard shows live.
      const log = (await (await fetch(`${sandbox.url}/_sandbox/requests?limit=1000`)).json()) as {
        requests: Array<{ path: string; reason: string | null }>;
      };
      const reasons = log.requests.filter((r) => r.path === '/_sandbox/agi').map((r) => r.reason ?? '');
      expect(reasons.some((r) => r.startsWith('agi.v2 setVendor "website"'))).toBe(true);
      expect(reasons.some((r) => r.startsWith('agi.v2 showStorefront {"sku":"dragon-mount"}'))).toBe(true);
      expect(reasons.some((r) => r.startsWith('agi.v2 questUpdate'))).toBe(true);
      // In the game's page, done with: a tab of its own would cost one more renderer.
      const dashboard = page;
      await dashboard.goto(`${sandbox.url}/`);
      await expect
        .poll(() => dashboard.getByText(/agi\.v2 showStorefront/).count(), { timeout: 10_000 })
        .toBeGreaterThan(0);
      // The dashboard shows each signed change once: the retry's row says it came after a challenge.
      expect(await dashboard.locator('#log-body tr', { hasText: 'signature required' }).count()).toBe(0);
      expect(await dashboard.locator('#log-body tr', { hasText: 'after signature challenge' }).count()).toBeGreaterThan(
        0,
      );

      // Every signed change above went as the SDK sends it: unsigned, challenged (401), retried
      // signed. `sandbox logs --status 4xx` shows no failure, since there was none ...
      const retried = async () =>
        linesOf((await udcli(['sandbox', 'logs', '-n', 'all'])).stdout).filter((l) =>
          l.includes(' (after signature challenge)'),
        );
      // Two quest submits, a save, an erase, a consume.
      await expect.poll(async () => (await retried()).length).toBe(5);
      const failures = await udcli(['sandbox', 'logs', '-n', 'all', '--status', '4xx']);
      expect(failures.code, failures.stderr).toBe(0);
      expect(failures.stdout).toBe('');
      // Unfiltered and as JSON alike, a signed change is one request: its retry.
      expect((await udcli(['sandbox', 'logs', '-n', 'all'])).stdout).not.toContain('(signature challenge, answered)');
      const records = linesOf(
        (await udcli(['sandbox', 'logs', '-n', 'all', '--json', '--path', '/services/rest/v1/'])).stdout,
      ).map((line) => JSON.parse(line) as { status: number; handshake?: string });
      expect(records.filter((r) => r.handshake === 'retry').map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(records.filter((r) => r.handshake !== 'retry' && r.status === 401)).toEqual([]);
      // ... and --challenges shows the challenges, one for each retry.
      const challenges = await udcli(['sandbox', 'logs', '-n', 'all', '--status', '4xx', '--challenges']);
      expect(linesOf(challenges.stdout)).toHaveLength((await retried()).length);
      for (const line of linesOf(challenges.stdout))
        expect(line).toMatch(
          / POST \/services\/rest\/v1\/.* 401 [\d.]+ms \(signature challenge, answered\) signature required$/,
        );

      // A change that is never retried signed (a client that cannot sign) is a real failure: it shows.
      const unsigned = await fetch(
        `${sandbox.url}/services/rest/v1/products/user/${uidForUsername('alice')}.json?api_key=${KEY}&game_id=${GAME}&sku=gems&method=put&increment=true&qty=1`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        },
      );
      expect(unsigned.status).toBe(401);
      await expect
        .poll(async () => linesOf((await udcli(['sandbox', 'logs', '-n', 'all', '--status', '4xx'])).stdout), {
          timeout: 10_000,
        })
        .toEqual([
          expect.stringMatching(
            / POST \/services\/rest\/v1\/products\/user\/[0-9a-f]{32}\.json\?api_key=0123…cdef&game_id=1001&sku=gems&method=put&increment=true&qty=1 401 [\d.]+ms signature required$/,
          ),
        ]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it('a store Buy of a product no longer on sale says so in the store, calls no handler, and changes nothing', async ({
    sharedContext,
  }) => {
    const page = await sharedContext.newPage();
    try {
      const frame = await play(page, 'carol');
      const uid = uidForUsername('carol');
      await frame.click('#store-sword');
      const row = page.locator('#store li.product[data-sku="dragon-mount"]');
      await expect.poll(() => row.count()).toBe(1);
      const db = openDatabase(sandbox.dbPath);
      try {
        db.sqlite
          .prepare("UPDATE products SET status = 'inactive' WHERE parent_id = ? AND sku = 'dragon-mount'")
          .run(GAME);
        await row.getByRole('button', { name: 'Buy' }).click();
        await expect
          .poll(() => page.locator('#store .store-message').textContent())
          .toMatch(/^The purchase failed: not found.*Nothing was bought\.$/);
        expect(await text(frame, 'purchase-result')).toBe('');
        const entries = (await api(`products/user/${uid}.json`, { game_id: GAME })).payload as Array<{
          product: { sku: string };
        }>;
        expect(entries.some((e) => e.product.sku === 'dragon-mount')).toBe(false);
      } finally {
        db.sqlite
          .prepare("UPDATE products SET status = 'active' WHERE parent_id = ? AND sku = 'dragon-mount'")
          .run(GAME);
        db.close();
      }
      expect((await held(uid, 'dragon-mount')).purchase).toMatchObject({ success: false });
    } finally {
      await page.close();
    }
  }, 120_000);
});

describe('an SDK game served by the studio on another port (connect script included, cross-origin)', () => {
  it('reaches the play page through the stand-in parent and the API through CORS', async ({ sharedContext }) => {
    const db = openDatabase(sandbox.dbPath);
    try {
      db.repos.games.setContentUri(GAME, `${studioUrl}/index.html`);
    } finally {
      db.close();
    }
    const page = await sharedContext.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      const frame = await play(page, 'bob', 'direct=1');
      expect(new URL(frame.url()).origin).toBe(studioUrl);
      await playThrough(page, frame, 'bob');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);
});
