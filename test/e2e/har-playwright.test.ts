/**
 * A HAR recorded by Playwright in real Chromium (a game on the SDK, through the sandbox's play
 * page) diffs clean: the browser's own recording (Chromium's bodies, its form posts, the page's
 * other requests, the agi challenge and the signed retry) replays on a scratch sandbox with no
 * difference.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { ensureChromium, releaseChromium, sharedChromium } from '../sandbox/helpers/chromium.js';
import { fakeIO } from '../output/fake-io.js';

const GAME_DIR = join(import.meta.dirname, '..', 'fixtures', 'sdk-game');
let root: string;
let sandbox: RunningSandbox;
let browser: Browser | null = null;
let unavailable: string | null = null;

beforeAll(async () => {
  unavailable = ensureChromium();
  if (unavailable) console.warn(`har-playwright.test.ts: skipping: ${unavailable}`);
  root = mkdtempSync(join(tmpdir(), 'udcli-har-pw-'));
  sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    dbPath: join(root, 'sandbox.db'),
    log: () => undefined,
    gameSource: { gameId: '1001', setting: { kind: 'dir', root: GAME_DIR, connect: true } },
  });
  if (!unavailable) browser = await sharedChromium();
}, 10 * 60_000);

afterAll(async () => {
  await releaseChromium();
  await sandbox?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("Playwright's recordHar of a game on the SDK", () => {
  it('diffs clean against a scratch sandbox', async (ctx) => {
    ctx.skip(unavailable !== null, unavailable ?? '');
    const har = join(root, 'game.har');
    const context = await browser!.newContext({ recordHar: { path: har } });
    const page = await context.newPage();
    await page.goto(`${sandbox.url}/play/1001?as=alice`);
    await page.getByRole('button', { name: 'Play as alice' }).click();
    await page.waitForURL(`http://sandbox.localhost:${new URL(sandbox.url).port}/play/1001`); // the games' site (issue 40)
    const frame = page.frameLocator('#game');
    await expect.poll(() => frame.locator('#status').textContent(), { timeout: 15_000 }).toBe('ready');
    await frame.locator('#quest-level').click();
    await expect.poll(() => frame.locator('#quest-result').textContent()).toContain('LEVEL_10');
    await frame.locator('#save').click();
    await expect.poll(() => frame.locator('#save-result').textContent()).toContain('success');
    await frame.locator('#load').click();
    await expect.poll(() => frame.locator('#save-result').textContent()).toContain('level');
    await frame.locator('#gems').click();
    await expect.poll(() => frame.locator('#gems-result').textContent()).not.toBe('');
    expect(await frame.locator('#error').textContent()).toBe('');
    await context.close();

    const recorded = JSON.parse(readFileSync(har, 'utf8')) as {
      log: { creator: { name: string }; entries: Array<{ request: { method: string; url: string } }> };
    };
    expect(recorded.log.creator.name).toBe('Playwright');
    const platform = recorded.log.entries.filter((e) => e.request.url.includes('/services/rest/v1/'));
    expect(platform.filter((e) => e.request.method === 'POST').length).toBeGreaterThanOrEqual(4);

    const f = fakeIO({
      env: { NO_COLOR: '1', UDCLI_CONFIG_DIR: join(root, 'config'), UDCLI_DATA_DIR: join(root, 'data') },
    });
    const code = await main(['sandbox', 'diff', har, '--json'], f.io);
    const report = JSON.parse(f.stdout()) as { compared: number; differences: unknown[]; skipped: number };
    expect(report.differences).toEqual([]);
    expect(code, f.stderr()).toBe(0);
    expect(report.compared).toBe(platform.length);
    expect(report.skipped).toBeGreaterThan(0);
  });
});
