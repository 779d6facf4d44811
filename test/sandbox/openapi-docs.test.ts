/**
 * `/docs` (issue 11): the API reference page, Swagger UI served by the sandbox itself from the
 * kept npm package. Over HTTP: a strict CSP and no address elsewhere in the page; in real
 * Chromium: it renders the operations of /openapi.json, with no CSP violation, no console error,
 * and no request leaving the sandbox.
 */
import type { ConsoleMessage, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { ensureChromium, sharedChromium } from './helpers/chromium.js';
import type { TestSandbox } from './helpers/sandbox.js';

let sb: TestSandbox;
let unavailable: string | null = null;

beforeAll(async ({ sb: fileSb }) => {
  sb = fileSb;
  unavailable = ensureChromium();
}, 10 * 60_000);

describe('/docs over HTTP', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'nothing.js'])(
    '/docs/%s is a 404, not a 500 (issue 21)',
    async (name) => {
      const r = await fetch(`${sb.url}/docs/${name}`);
      expect(r.status).toBe(404);
      expect(await r.text()).toBe('not found');
    },
  );

  it('serves the page and its assets from the sandbox, under a CSP that allows nothing else', async () => {
    const page = await fetch(`${sb.url}/docs`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script>[^<]/); // no inline script
    for (const [asset, type] of [
      ['/docs/swagger-ui-bundle.js', 'text/javascript'],
      ['/docs/swagger-ui.css', 'text/css'],
      ['/docs/init.js', 'text/javascript'],
    ] as const) {
      const r = await fetch(`${sb.url}${asset}`);
      expect(r.status, asset).toBe(200);
      expect(r.headers.get('content-type')).toContain(type);
    }
    expect((await fetch(`${sb.url}/docs/package.json`)).status).toBe(404);
    expect((await fetch(`${sb.url}/docs/..%2Fpackage.json`)).status).toBe(404);
  });
});

describe('/docs in a real browser (headless chromium)', () => {
  it('renders every operation of the description, loading nothing from elsewhere', async ({ skip }) => {
    skip(unavailable !== null, unavailable ?? '');
    const page = await (await sharedChromium()).newPage();
    try {
      const requests: string[] = [];
      const errors: string[] = [];
      page.on('request', (r: Request) => requests.push(r.url()));
      page.on('console', (m: ConsoleMessage) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${sb.url}/docs`);
      await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
      const doc = (await (await fetch(`${sb.url}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, unknown>>;
      };
      const operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
      expect(await page.locator('.opblock').count()).toBe(operations);
      expect(await page.locator('.opblock-summary-path').allTextContents()).toEqual(
        expect.arrayContaining([expect.stringContaining('/services/rest/v1/users/')]),
      );
      expect(errors).toEqual([]);
      expect(requests.filter((u) => !u.startsWith(`${sb.url}/`) && !u.startsWith('data:'))).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);
});
