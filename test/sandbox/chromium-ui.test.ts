/**
 * The tests' Chromium (test/sandbox/helpers/chromium.ts) runs with Playwright's own list of disabled
 * features and, added to it, the browser UI headless Chromium would build for every context and never
 * show (the WebUI omnibox popup: over a CPU-second a context).
 */
import { describe, expect, it } from '../fixtures.js';
import { disabledFeatures, playwrightChromiumArgs, UNSHOWN_UI_FEATURES } from './helpers/chromium.js';

describe("the tests' Chromium", () => {
  // The arguments are read through a POSIX shell script (helpers/chromium.ts).
  it.skipIf(process.platform === 'win32')(
    "disables Playwright's features and the unshown UI, in one --disable-features (Chromium takes the last one)",
    async () => {
      const given = (await playwrightChromiumArgs())?.find((arg) => arg.startsWith('--disable-features='));
      expect(given, 'Playwright passes a --disable-features list').toBeDefined();
      const ours = (await disabledFeatures()).slice('--disable-features='.length).split(',');
      for (const feature of given!.slice('--disable-features='.length).split(',')) expect(ours).toContain(feature);
      for (const feature of UNSHOWN_UI_FEATURES) expect(ours).toContain(feature);
    },
  );

  it('opens a context and a page without the omnibox popup pages', async ({ browser, context }) => {
    const page = await context.newPage();
    await page.goto('about:blank');
    const session = await browser.newBrowserCDPSession();
    try {
      const { targetInfos } = (await session.send('Target.getTargets')) as { targetInfos: Array<{ url: string }> };
      expect(targetInfos.filter((t) => t.url.startsWith('chrome://omnibox-popup'))).toEqual([]);
      expect(targetInfos.some((t) => t.url === 'about:blank')).toBe(true);
    } finally {
      await session.detach();
    }
  });
});
