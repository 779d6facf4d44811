/**
 * Issue 51, point 4, in real Chromium: one game's script planted a cookie named like the sandbox's
 * login for the whole site (`Domain=sandbox.localhost; Path=/play/1001`, a year long), which the
 * browser then sent before the real one, and `/play/1001` said "Not logged in" for a year, even
 * after logging in again. Now the login is a `__Host-` cookie, which no game can set for the play
 * page's name, and the site reads no other name there; on a name where a browser takes no `Secure`
 * cookie over http (a LAN name) the plain name stays, and the first of its cookies naming a live
 * session is the login.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { gameFolders, type TestSandbox } from './helpers/sandbox.js';
import type { BrowserOnlyName } from './helpers/chromium.js';

const VICTIM = '1001';
const ATTACKER = '1002';
/** A name that is not a loopback one, resolved to 127.0.0.1 by the browser alone (as a LAN name would be). */
const LAN_NAME: BrowserOnlyName = 'udcli-lan.test';
/** Well-formed as a session id, naming none. */
const FORGED = 'f'.repeat(32);
const YEAR = 'Max-Age=31536000';

/** Game 1002's page: sets the cookie its URL's fragment names, as any game's script may. */
const PLANT_PAGE =
  '<!doctype html><html><head><title>plant</title></head><body><script src="plant.js"></script></body></html>';
const PLANT_JS = "document.cookie = decodeURIComponent(location.hash.slice(1)); document.title = 'planted';";

let sb: TestSandbox;
beforeAll(async ({ newSb }) => {
  const { victim, attacker } = gameFolders('udcli-session-cookie-', {
    victim: { 'index.html': '<!doctype html><title>victim</title><p>victim</p>' },
    attacker: { 'index.html': PLANT_PAGE, 'plant.js': PLANT_JS },
  });
  sb = await newSb({
    hostNames: { names: [LAN_NAME] },
    gameSources: [
      [VICTIM, { kind: 'dir', root: victim, connect: true }],
      [ATTACKER, { kind: 'dir', root: attacker, connect: true }],
    ],
  });
});

const port = (url: string): string => new URL(url).port;

/** The play page, and a tab for game 1002's page, in one context. */
interface Browsing {
  context: BrowserContext;
  page: Page;
  tab: Page;
}

let browsing: Browsing | undefined;

/**
 * The play page and game 1002's tab, opened once in the file's shared context (its cookies cleared
 * for each test, which is enough: the login is read from cookies alone).
 */
async function browsingIn(context: BrowserContext): Promise<Browsing> {
  if (browsing?.context !== context)
    browsing = { context, page: await context.newPage(), tab: await context.newPage() };
  return browsing;
}

/** Who the play page the browser shows says is logged in (null: "Not logged in"). */
async function shownUser(page: Page): Promise<string | null> {
  const name = page.locator('#username');
  return (await name.count()) === 0 ? null : name.textContent();
}

/** Logs `username` in through the play page's switcher on `site`, and stays on the page it lands on. */
async function login(page: Page, site: string, username: string): Promise<void> {
  await page.goto(`${site}/play/${VICTIM}?as=${username}`);
  await page.getByRole('button', { name: `Play as ${username}` }).click();
  await page.waitForURL(`${site}/play/${VICTIM}`);
}

/** Who the play page of game 1001, loaded afresh, says is logged in (null: "Not logged in"). */
async function loggedIn(page: Page, site: string): Promise<string | null> {
  await page.goto(`${site}/play/${VICTIM}`);
  return shownUser(page);
}

/** alice's login on `site` still stands after an attack, and a new login (bob) still takes. */
async function expectLoginUnharmed(page: Page, site: string): Promise<void> {
  expect(await loggedIn(page, site)).toBe('alice');
  await login(page, site, 'bob');
  expect(await shownUser(page)).toBe('bob');
}

let plants = 0;

/** Opens game 1002's page at `gamePage` in `tab` and lets its script set `cookie`. */
async function plant(tab: Page, gamePage: string, cookie: string): Promise<void> {
  // A query of its own per load: a change of the fragment alone would not load the page (nor run its script) again.
  await tab.goto(`${gamePage}?plant=${++plants}#${encodeURIComponent(cookie)}`);
  await expect.poll(() => tab.title()).toBe('planted');
}

/**
 * The attacks of the issue, from game 1002's own origin (`what` names each; all but the parent
 * domain's site-wide, `Domain=sandbox.localhost`); `planted`: whether the browser takes the cookie at all.
 */
interface Attack {
  what: string;
  cookie: string;
  planted: boolean;
}

const SITE_WIDE = `Domain=sandbox.localhost; ${YEAR}`;
const ATTACKS: Attack[] = [
  {
    what: 'plain name, Path=/play/1001',
    cookie: `udcli_sandbox_session=${FORGED}; ${SITE_WIDE}; Path=/play/${VICTIM}`,
    planted: true,
  },
  {
    what: 'plain name, Path=/play',
    cookie: `udcli_sandbox_session=${FORGED}; ${SITE_WIDE}; Path=/play`,
    planted: true,
  },
  {
    what: 'plain name, Path=/',
    cookie: `udcli_sandbox_session=${FORGED}; ${SITE_WIDE}; Path=/`,
    planted: true,
  },
  {
    what: 'plain name, Domain=localhost',
    cookie: `udcli_sandbox_session=${FORGED}; Domain=localhost; Path=/play/${VICTIM}; ${YEAR}`,
    planted: false,
  },
  // The login's own name: a browser takes a `__Host-` cookie only host-only, whatever its case or disguise.
  {
    what: '__Host- name, Path=/play/1001',
    cookie: `__Host-udcli_sandbox_session=${FORGED}; ${SITE_WIDE}; Path=/play/${VICTIM}; Secure`,
    planted: false,
  },
  {
    what: '__Host- name, Path=/',
    cookie: `__Host-udcli_sandbox_session=${FORGED}; ${SITE_WIDE}; Path=/; Secure`,
    planted: false,
  },
  {
    what: '__HOST- name (another case)',
    cookie: `__HOST-udcli_sandbox_session=${FORGED}; ${SITE_WIDE}; Path=/play/${VICTIM}; Secure`,
    planted: false,
  },
  {
    what: 'nameless, value __Host-name=…',
    cookie: `=__Host-udcli_sandbox_session=${FORGED}; ${SITE_WIDE}; Path=/play/${VICTIM}`,
    planted: false,
  },
];

describe("a game's cookie never shadows the sandbox's login", () => {
  const site = () => `http://sandbox.localhost:${port(sb.url)}`;
  const gamePage = () => `${sb.gameOrigin(ATTACKER)}/play/${ATTACKER}/game/index.html`;

  // The attacks the browser takes: each on a cookie jar of its own (the first is the issue's).
  it.for(ATTACKS.filter((a) => a.planted))(
    'game 1002 sets $what: /play/1001 still names the user, and a new login takes',
    { timeout: 60_000 },
    async ({ cookie }, { sharedContext }) => {
      const { context, page, tab } = await browsingIn(sharedContext);
      await login(page, site(), 'alice');
      expect(await shownUser(page)).toBe('alice');

      await plant(tab, gamePage(), cookie);
      // The attack is real: the browser holds the forged cookie.
      expect((await context.cookies()).some((c) => c.value === FORGED)).toBe(true);

      await expectLoginUnharmed(page, site());
    },
  );

  // The login's own name in every disguise, and the parent of .localhost: the browser takes none
  // of them (the rules the defence rests on), so one browser plants them all, one after another.
  it('game 1002 sets the __Host- name (any case, nameless) or Domain=localhost: the browser takes none, the login stays', async ({
    sharedContext,
  }) => {
    const { context, page, tab } = await browsingIn(sharedContext);
    await login(page, site(), 'alice');
    for (const { what, cookie } of ATTACKS.filter((a) => !a.planted)) {
      await plant(tab, gamePage(), cookie);
      expect(
        (await context.cookies()).filter((c) => c.value === FORGED),
        what,
      ).toEqual([]);
    }
    await expectLoginUnharmed(page, site());
  });

  it("a live session of another user, planted under the plain name, is not the play page's login", async ({
    sharedContext,
  }) => {
    // A game's dev server may log in as a tool does (no Origin) and hand its page the session id.
    const reply = await fetch(`${sb.url}/login?username=bob`, { method: 'POST' });
    const bobs = ((await reply.json()) as { cookie: string }).cookie.split('=')[1]!;
    const site = `http://sandbox.localhost:${port(sb.url)}`;
    const { context, page, tab } = await browsingIn(sharedContext);
    await login(page, site, 'alice');
    await plant(
      tab,
      `${sb.gameOrigin(ATTACKER)}/play/${ATTACKER}/game/index.html`,
      `udcli_sandbox_session=${bobs}; ${SITE_WIDE}; Path=/play/${VICTIM}`,
    );
    expect((await context.cookies()).filter((c) => c.value === bobs)).toHaveLength(1);
    expect(await loggedIn(page, site)).toBe('alice');
  }, 60_000);

  it("on a LAN name (no Secure cookie over http there) a game's cookie of the plain name does not shadow the login either", async ({
    sharedContext,
  }) => {
    const site = `http://${LAN_NAME}:${port(sb.url)}`;
    // There all games share the game host's one origin, on the site's name: a game's cookie reaches the site.
    const gamePage = `http://${LAN_NAME}:${port(sb.gameUrl)}/play/${ATTACKER}/game/index.html`;
    const { context, page, tab } = await browsingIn(sharedContext);
    await login(page, site, 'alice');
    expect(await shownUser(page)).toBe('alice');
    for (const path of [`/play/${VICTIM}`, '/play', '/']) {
      await plant(tab, gamePage, `udcli_sandbox_session=${FORGED}; Path=${path}; ${YEAR}`);
      expect(await loggedIn(page, site), path).toBe('alice');
    }
    expect((await context.cookies()).filter((c) => c.value === FORGED).length).toBeGreaterThan(0);
    await login(page, site, 'bob');
    expect(await shownUser(page)).toBe('bob');
  }, 60_000);
});
