/**
 * The play page and a game on its own origin talk by postMessage (connect.js's stand-in `parent`,
 * platform.js). Each side posts to the other's one origin: the game once posted every message to
 * each loopback name the play page might have, and Chromium logged "Failed to execute
 * 'postMessage' … target origin … does not match" three times for every message (issue 54).
 * In real Chromium: the game gets `parent.agi`, sends a quest update the page shows, and the
 * console holds no warning or error about a target origin.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { tempDir, type TestSandbox } from './helpers/sandbox.js';

const GAME = '1001';

/** A game as the SDK's README writes one: wait for parent.agi, then talk to the page through it. */
const GAME_PAGE = `<!doctype html><html><head><title>game</title></head><body><p id="status">waiting</p><script>
var tries = 0;
var timer = setInterval(function () {
  if (!parent.agi && ++tries < 1000) return;
  clearInterval(timer);
  parent.agi.v2.setVendor('website');
  parent.agi.v2._registerCallback('completePurchase', function () {});
  parent.agi.v2.sendMessage({ action: 'questUpdate', payload: { payload: {
    developer_id: 'LEVEL_10', state: 'In Progress', current_value: 4, percent_complete: 33 } } });
  document.getElementById('status').textContent = 'sent as ' + parent.apiAuth.user_id;
}, 50);
</script></body></html>`;

let sb: TestSandbox;

beforeAll(async ({ newSb }) => {
  const dir = join(tempDir('udcli-play-messages-'), 'game');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), GAME_PAGE);
  sb = await newSb({ gameSources: [[GAME, { kind: 'dir', root: dir, connect: true }]] });
});

describe('the play page and its game frame', () => {
  it('exchange messages with no console warning about a target origin', async ({ context }) => {
    const page = await context.newPage();
    const logged: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') logged.push(message.text());
    });
    await page.goto(`${sb.url}/play/${GAME}?as=alice`);
    await page.getByRole('button', { name: 'Play as alice' }).click();
    await page.waitForURL(`http://sandbox.localhost:${new URL(sb.url).port}/play/${GAME}`);
    // The game's SDK call reached the page (the quest notice), and the page's answer the game.
    await page.locator('#quest-notice .quest-name').waitFor();
    expect(await page.locator('#quest-notice').textContent()).toContain('33% (4)');
    await expect
      .poll(() => page.frameLocator('#game').locator('#status').textContent(), { timeout: 20_000 })
      .toMatch(/^sent as [0-9a-f]{32}$/);
    expect(logged.filter((text) => /postMessage|target origin/i.test(text))).toEqual([]);
  }, 120_000);
});
