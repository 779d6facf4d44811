/**
 * Issue 31, defect 1, in real Chromium: a game's page (or any script it loads) is untrusted code.
 * The audit's attack, run from a game served with `--game-dir` and played on the play page: set
 * the game's folder to `/` (and to udcli's config folder) through `/_sandbox/game-sources`, then
 * read `/play/1002/game/etc/passwd` and the config file, and read the dashboard's API and the
 * request log. The game runs on the game host's origin, which has no /_sandbox route, and the
 * main origin's /_sandbox refuses its requests (same-site, not same-origin): every step fails,
 * the source stays the folder the user named, and nothing outside it is read.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { ensureChromium, releaseChromium, sharedChromium } from './helpers/chromium.js';

const GAME = '1002';
const SECRET = 'signing_secret = "PRODUCTION-SECRET-do-not-leak"';

/** The attacker's script, as a game's third-party dependency would carry it. */
const ATTACK = String.raw`
(async function () {
  var results = [];
  var note = function (name, value) { results.push({ name: name, value: String(value).slice(0, 400) }); };
  var tryFetch = async function (name, url, init) {
    try {
      var response = await fetch(url, init);
      var text = '';
      try { text = await response.text(); } catch (error) { text = 'unreadable'; }
      note(name, response.type + ' ' + response.status + ' ' + text);
    } catch (error) {
      note(name, 'failed: ' + error.message);
    }
  };
  var connect = document.querySelector('script[src$="/_sandbox/connect.js"]');
  var main = connect ? new URL(connect.src).origin : location.origin;
  var configDir = CONFIG_DIR;
  var json = { 'content-type': 'application/json' };
  for (var dir of ['/', configDir]) {
    var body = JSON.stringify({ dir: dir });
    // Its own origin, as in the audit; then the sandbox's, found from the connect script's URL.
    await tryFetch('own PUT ' + dir, '/_sandbox/game-sources/${GAME}', { method: 'PUT', headers: json, body: body });
    await tryFetch('main PUT ' + dir, main + '/_sandbox/game-sources/${GAME}', { method: 'PUT', headers: json, body: body });
    // A "simple" request needs no preflight: it reaches the server, whatever the reply's CORS.
    await tryFetch('main simple PUT ' + dir, main + '/_sandbox/game-sources/${GAME}', { method: 'PUT', body: 'dir=' + encodeURIComponent(dir), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    await tryFetch('main no-cors POST ' + dir, main + '/_sandbox/game-sources/${GAME}', { method: 'POST', mode: 'no-cors', body: 'dir=' + encodeURIComponent(dir) });
  }
  await tryFetch('own passwd', '/play/${GAME}/game/etc/passwd');
  await tryFetch('main passwd', main + '/play/${GAME}/game/etc/passwd');
  await tryFetch('own config', '/play/${GAME}/game/config.toml');
  await tryFetch('own traversal', '/play/${GAME}/game/..%2f..%2f..%2f..%2fetc%2fpasswd');
  await tryFetch('dashboard users', main + '/_sandbox/users');
  await tryFetch('dashboard games', main + '/_sandbox/games');
  await tryFetch('request log', main + '/_sandbox/requests?limit=1000');
  await tryFetch('own request log', '/_sandbox/requests');
  try {
    note('parent page', top.document.documentElement.outerHTML);
  } catch (error) {
    note('parent page', 'failed: ' + error.name);
  }
  document.getElementById('results').textContent = JSON.stringify(results);
  document.title = 'done';
})();
`;

let root: string;
let gameDir: string;
let configDir: string;
let sandbox: RunningSandbox;
let browser: Browser | null = null;
let unavailable: string | null = null;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'udcli-confine-'));
  gameDir = join(root, 'game');
  configDir = join(root, 'config');
  mkdirSync(gameDir, { recursive: true });
  mkdirSync(configDir, { recursive: true });
  writeFileSync(join(configDir, 'config.toml'), `${SECRET}\n`);
  writeFileSync(
    join(gameDir, 'index.html'),
    '<!doctype html><html><head><title>game</title><script src="attack.js" defer></script></head><body><pre id="results"></pre></body></html>',
  );
  // The attacker knows (or guesses) where udcli keeps its config.
  writeFileSync(join(gameDir, 'attack.js'), ATTACK.replace('CONFIG_DIR', JSON.stringify(configDir)));
  sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    dbPath: join(root, 'sandbox.db'),
    seed: 'demo',
    gameSource: { gameId: GAME, setting: { kind: 'dir', root: gameDir, connect: true } },
    ownDirs: [configDir],
    log: () => undefined,
  });
  unavailable = ensureChromium();
  if (unavailable) console.warn(`game-confinement.test.ts: skipping the browser test: ${unavailable}`);
  else browser = await sharedChromium();
}, 10 * 60_000);

afterAll(async () => {
  await releaseChromium();
  await sandbox?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('game content run in Chromium on the play page', () => {
  it('cannot change its game source, read a file outside its folder, or read the dashboard API', async (ctx) => {
    ctx.skip(unavailable !== null, unavailable ?? '');
    const page = await browser!.newPage();
    try {
      await page.goto(`${sandbox.url}/play/${GAME}?as=alice`);
      await page.getByRole('button', { name: 'Play as alice' }).click();
      await page.waitForURL(`http://sandbox.localhost:${new URL(sandbox.url).port}/play/${GAME}`);
      const frame = page.frameLocator('#game');
      await expect.poll(() => frame.locator('#results').textContent(), { timeout: 20_000 }).not.toBe('');
      const results = JSON.parse((await frame.locator('#results').textContent())!) as Array<{
        name: string;
        value: string;
      }>;
      const byName = Object.fromEntries(results.map((r) => [r.name, r.value]));

      // Nothing outside the game's folder was read, and neither the dashboard's data nor the log.
      for (const { name, value } of results) {
        expect(value, name).not.toContain('root:');
        expect(value, name).not.toContain('PRODUCTION-SECRET');
        expect(value, name).not.toContain('"uid"');
        expect(value, name).not.toContain('"requests"');
      }
      expect(byName['own passwd']).toMatch(/^basic 404 /);
      expect(byName['own config']).toMatch(/^basic 404 /);
      expect(byName['dashboard users']).toMatch(/^failed/);
      expect(byName['request log']).toMatch(/^failed/);
      expect(byName['parent page']).toBe('failed: SecurityError');

      // The source is still the folder the user named.
      const view = (await (await fetch(`${sandbox.url}/_sandbox/game-sources/${GAME}`)).json()) as {
        source: { kind: string; dir: string };
      };
      expect(view.source).toMatchObject({ kind: 'dir', dir: gameDir });
      // The requests that reached the sandbox's /_sandbox were refused there, not only hidden by CORS.
      const log = (await (await fetch(`${sandbox.url}/_sandbox/requests?limit=1000`)).json()) as {
        requests: Array<{ method: string; path: string; status: number }>;
      };
      const changes = log.requests.filter((r) => r.path === `/_sandbox/game-sources/${GAME}` && r.method !== 'GET');
      expect(changes.length).toBeGreaterThan(0);
      expect(changes.every((r) => r.status === 403 || r.status === 404)).toBe(true);
      const reads = log.requests.filter((r) => r.path === '/_sandbox/users' || r.path === '/_sandbox/games');
      expect(reads.every((r) => r.status === 403)).toBe(true);
    } finally {
      await page.close();
    }
  }, 120_000);
});
