/**
 * The game host over real HTTP: a game folder served at the game's own name (and guarded against
 * paths out of it), a node:http "dev server" proxied (bodies, streamed replies, redirects, cookies,
 * a websocket), root-absolute paths, the connect tag, and the pages for an upstream that is down or
 * too slow while the API keeps answering.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { CONNECT_TAG, connectTag } from '../../src/sandbox/game-host/index.js';
import { injectConnectTag } from '../../src/sandbox/game-host/inject.js';
import { localhostLookup } from '../localhost-names.js';
import { api, exactRequest, tempDir, type TestSandbox } from './helpers/sandbox.js';

const GAME = DEMO.game.id;
const PAGE =
  '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Game</title></head><body>game</body></html>';

interface DevServer {
  url: string;
  server: Server;
  /** Lets /game/stream send its second chunk. */
  release(): void;
  close(): Promise<void>;
}

async function startDevServer(): Promise<DevServer> {
  let release = () => undefined as void;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const origin = `http://${req.headers.host}`;
    if (url.pathname === '/game/index.html' || url.pathname === '/game/') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    } else if (url.pathname === '/game/echo') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () =>
        res.writeHead(201, { 'content-type': 'application/json', 'x-seen-host': String(req.headers.host) }).end(
          JSON.stringify({
            method: req.method,
            type: req.headers['content-type'] ?? null,
            body: Buffer.concat(chunks).toString('utf8'),
            query: url.search,
            cookie: req.headers.cookie ?? null,
          }),
        ),
      );
    } else if (url.pathname === '/game/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      release = () => void res.end('data: two\n\n');
    } else if (url.pathname === '/game/redirect') {
      res.writeHead(302, { location: `${origin}/game/index.html?from=redirect` }).end();
    } else if (url.pathname === '/game/cookie') {
      res
        .writeHead(200, {
          'set-cookie': ['flavour=oat; Domain=localhost; Path=/; HttpOnly', 'size=big'],
          'content-type': 'text/plain',
        })
        .end('ok');
    } else if (url.pathname === '/game/worker.js') {
      res
        .writeHead(200, {
          'content-type': 'text/javascript',
          'service-worker-allowed': '/',
          'clear-site-data': '"cookies"',
        })
        .end('self.x = 1;');
    } else if (url.pathname === '/src/main.ts') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end('export const root = true;');
    } else if (url.pathname === '/game/slow') {
      // Never answers: the sandbox gives up.
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('upstream 404');
    }
  };
  const server = createServer(handle);
  // A websocket handshake by hand, then an echo of whatever bytes come.
  const upgraded = new Set<Duplex>();
  server.on('upgrade', (req, socket) => {
    upgraded.add(socket);
    const accept = createHash('sha1')
      .update(`${String(req.headers['sec-websocket-key'])}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
      .digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\nX-Path: ${req.url}\r\n\r\n`,
    );
    socket.on('data', (d: Buffer) => socket.write(d));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    release: () => release(),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        for (const socket of upgraded) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function setSource(sb: TestSandbox, body: unknown, gameId: string = GAME): Promise<Response> {
  return fetch(`${sb.url}/_sandbox/game-sources/${gameId}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** A raw upgrade request; resolves with the reply head and a function that sends bytes and reads the echo. */
function openSocket(
  base: string,
  path: string,
): Promise<{ head: string; echo(text: string): Promise<string>; close(): void }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: hostname, lookup: localhostLookup }, () =>
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
      ),
    );
    let received = '';
    let waiting: ((text: string) => void) | null = null;
    socket.setEncoding('latin1');
    socket.on('error', reject);
    socket.on('data', (d: string) => {
      received += d;
      const end = received.indexOf('\r\n\r\n');
      if (end !== -1 && waiting === null && !received.startsWith('#')) {
        const head = received.slice(0, end);
        received = '#';
        resolve({
          head,
          echo: (text) =>
            new Promise((done) => {
              received = '';
              waiting = done;
              socket.write(text);
            }),
          close: () => socket.destroy(),
        });
      } else if (waiting !== null) {
        waiting(received);
      }
    });
    socket.on(
      'close',
      () =>
        received.startsWith('HTTP/') &&
        resolve({ head: received, echo: () => Promise.resolve(''), close: () => undefined }),
    );
  });
}

describe('injection of the connect tag', () => {
  const inject = (html: string) => injectConnectTag(Buffer.from(html, 'latin1')).toString('latin1');

  it('goes first inside the head, after a doctype and <html>', () => {
    expect(inject(PAGE)).toBe(PAGE.replace('<head>', `<head>${CONNECT_TAG}`));
    expect(inject('<HTML><HEAD lang=x><META charset=utf-8>')).toBe(
      `<HTML><HEAD lang=x>${CONNECT_TAG}<META charset=utf-8>`,
    );
  });

  it('makes a head where there is none, and skips a <head> in a comment or a <header>', () => {
    expect(inject('<!doctype html><title>t</title>')).toBe(
      `<!doctype html><head>${CONNECT_TAG}</head><title>t</title>`,
    );
    expect(inject('<html><body>x</body></html>')).toBe(`<html><head>${CONNECT_TAG}</head><body>x</body></html>`);
    expect(inject('<!-- <head> --><header>x</header>')).toBe(
      `<head>${CONNECT_TAG}</head><!-- <head> --><header>x</header>`,
    );
    expect(inject('plain')).toBe(`<head>${CONNECT_TAG}</head>plain`);
  });

  it('keeps a byte order mark first and bytes of any encoding as they were', () => {
    const bom = '\u00ef\u00bb\u00bf';
    expect(inject(`${bom}<p>x`)).toBe(`${bom}<head>${CONNECT_TAG}</head><p>x`);
    const utf8 = Buffer.from('<head><title>héllo ✓</title></head>', 'utf8');
    expect(injectConnectTag(utf8).toString('utf8')).toBe(`<head>${CONNECT_TAG}<title>héllo ✓</title></head>`);
  });
});

/** The connect tag a game's own name gets: connect.js from the main listener, at the play page's name. */
const mainTag = (sb: TestSandbox): string => connectTag(`http://sandbox.localhost:${new URL(sb.url).port}`);

describe('a game folder', () => {
  let sb: TestSandbox;
  let game: string;
  let root: string;
  beforeAll(async ({ newSb }) => {
    const dir = tempDir('udcli-gamedir-');
    root = join(dir, 'game');
    mkdirSync(join(root, 'sub'), { recursive: true });
    writeFileSync(join(root, 'index.html'), PAGE);
    writeFileSync(join(root, 'app.js'), 'console.log(1);\n');
    writeFileSync(join(root, 'sub', 'index.html'), '<p>sub</p>');
    writeFileSync(join(dir, 'secret.txt'), 'TOP SECRET');
    symlinkSync(join(dir, 'secret.txt'), join(root, 'link.txt'));
    sb = await newSb({ gameSources: [[GAME, { kind: 'dir', root, connect: true }]] });
    game = sb.gameOrigin(GAME);
  });

  it('serves index.html for the folder, the connect tag (from the main origin) first in its head', async () => {
    const r = await fetch(`${game}/play/${GAME}/game/`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const text = await r.text();
    expect(text).toBe(PAGE.replace('<head>', `<head>${mainTag(sb)}`));
    expect(Number(r.headers.get('content-length'))).toBe(Buffer.byteLength(text));
  });

  it('serves files with their type and length, HEAD without a body, a sub-folder with a redirect to its slash', async () => {
    const js = await fetch(`${game}/play/${GAME}/game/app.js`);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('content-length')).toBe('16');
    expect(await js.text()).toBe('console.log(1);\n');
    const head = await exactRequest(game, 'HEAD', `/play/${GAME}/game/app.js`);
    expect([head.status, head.headers['content-length'], head.text]).toEqual([200, '16', '']);
    const sub = await exactRequest(game, 'GET', `/play/${GAME}/game/sub?x=1`);
    expect([sub.status, sub.headers.location]).toEqual([301, `/play/${GAME}/game/sub/?x=1`]);
    expect(await (await fetch(`${game}/play/${GAME}/game/sub/`)).text()).toBe(`<head>${mainTag(sb)}</head><p>sub</p>`);
    const noSlash = await exactRequest(game, 'GET', `/play/${GAME}/game`);
    expect([noSlash.status, noSlash.headers.location]).toEqual([301, `/play/${GAME}/game/`]);
  });

  it('refuses every way out of the folder: .., encoded .., encoded slashes, a symlink out', async () => {
    for (const path of [
      '../secret.txt',
      '..%2fsecret.txt',
      '%2e%2e/secret.txt',
      '%2E%2E%2Fsecret.txt',
      'sub/../../secret.txt',
      'link.txt',
      '..%5csecret.txt',
      'app.js%00',
    ]) {
      const r = await exactRequest(game, 'GET', `/play/${GAME}/game/${path}`);
      expect(r.status, path).toBe(404);
      expect(r.text, path).not.toContain('TOP SECRET');
    }
    const missing = await exactRequest(game, 'GET', `/play/${GAME}/game/nope.png`);
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(missing.text).toContain('/nope.png</code> is not in');
    expect((await exactRequest(game, 'GET', `/play/${GAME}/game/%zz`)).status).toBe(400);
    // Long asset paths are not cut short by the router's limit on parameters.
    const long = await exactRequest(game, 'GET', `/play/${GAME}/game/${'d'.repeat(300)}/x.js`);
    expect([long.status, long.text]).toEqual([404, expect.stringContaining('is not in')]);
  });

  it("serves root-absolute paths from the game's own folder at its own name; the main origin serves no game file", async () => {
    expect(await (await fetch(`${game}/app.js`)).text()).toBe('console.log(1);\n');
    // Another game's name never answers with this game's files (1002 has no source of its own).
    const other = await exactRequest(sb.gameOrigin('1002'), 'GET', '/app.js');
    expect(other.text).not.toContain('console.log(1)');
    const main = await fetch(`${sb.url}/app.js`);
    expect(main.status).toBe(404);
    expect(((await main.json()) as { message: string }).message).toBe('not found: path /app.js');
    // An old link to the game's files on the main origin leads to the game host: a browser to the
    // game's own name, a tool (which may not resolve *.localhost) to the name it used.
    const moved = await exactRequest(sb.url, 'GET', `/play/${GAME}/game/app.js?x=1`, { 'sec-fetch-site': 'none' });
    expect([moved.status, moved.headers.location]).toEqual([307, `${game}/play/${GAME}/game/app.js?x=1`]);
    const tool = await exactRequest(sb.url, 'GET', `/play/${GAME}/game/app.js?x=1`);
    expect([tool.status, tool.headers.location]).toEqual([307, `${sb.gameUrl}/play/${GAME}/game/app.js?x=1`]);
    expect(await (await fetch(`${sb.gameUrl}/play/${GAME}/game/app.js`)).text()).toBe('console.log(1);\n');
  });

  it('serves a game whose id is no DNS label (capitals, _ and .) at a name of its own, its hash', async () => {
    const id = 'Tiny_Game.2';
    sb.db.repos.games.insert({
      id,
      type: 'Game',
      name: 'Tiny',
      launchable: true,
      contentUri: null,
      signing: 'both',
      createdOn: 0,
    });
    expect((await setSource(sb, { dir: root }, id)).status).toBe(200);
    const own = sb.gameOrigin(id);
    expect(own).toMatch(/^http:\/\/x-[0-9a-f]{20}\.sandbox\.localhost:\d+$/);
    expect(await (await fetch(`${own}/play/${encodeURIComponent(id)}/game/app.js`)).text()).toBe('console.log(1);\n');
    expect(await (await fetch(`${own}/app.js`)).text()).toBe('console.log(1);\n');
    const moved = await exactRequest(sb.url, 'GET', `/play/${encodeURIComponent(id)}/game/app.js`, {
      'sec-fetch-site': 'none',
    });
    expect([moved.status, moved.headers.location]).toEqual([307, `${own}/play/${encodeURIComponent(id)}/game/app.js`]);
  });

  it('leaves pages alone with connect off', async () => {
    expect((await setSource(sb, { dir: root, connect: false })).status).toBe(200);
    expect(await (await fetch(`${game}/play/${GAME}/game/index.html`)).text()).toBe(PAGE);
    expect((await setSource(sb, { dir: root })).status).toBe(200);
  });
});

describe('a name other than a loopback one (a bound --host): the one shared origin', () => {
  let sb: TestSandbox;
  let dev: DevServer;
  beforeAll(async ({ newSb }) => {
    dev = await startDevServer();
    sb = await newSb({
      hostNames: { names: ['sandbox-box'] },
      gameSources: [[GAME, { kind: 'url', base: `${dev.url}/game/index.html`, connect: true }]],
    });
  });
  afterAll(async () => {
    await dev.close();
  });

  it("serves games by path, root-absolute paths from the one used last, the upstream's cookies in a plain prefix", async () => {
    const host = { host: `sandbox-box:${new URL(sb.gameUrl).port}`, 'sec-fetch-site': 'none' };
    const page = await exactRequest(sb.gameUrl, 'GET', `/play/${GAME}/game/index.html`, host);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`http://sandbox-box:${new URL(sb.url).port}/_sandbox/connect.js`);
    expect((await exactRequest(sb.gameUrl, 'GET', '/src/main.ts', host)).text).toBe('export const root = true;');
    const cookie = await exactRequest(sb.gameUrl, 'GET', `/play/${GAME}/game/cookie`, host);
    expect(cookie.headers['set-cookie']).toEqual(['udcli-g1001.flavour=oat; Path=/; HttpOnly', 'udcli-g1001.size=big']);
    const echo = await exactRequest(
      sb.gameUrl,
      'POST',
      `/play/${GAME}/game/echo`,
      { ...host, cookie: 'udcli-g1001.flavour=oat; udcli_sandbox_session=secret' },
      '',
    );
    expect(JSON.parse(echo.text)).toMatchObject({ cookie: 'flavour=oat' });
  });
});

describe('a dev server behind the proxy', () => {
  let sb: TestSandbox;
  let game: string;
  let dev: DevServer;
  beforeAll(async ({ newSb }) => {
    dev = await startDevServer();
    sb = await newSb({ upstreamTimeoutMs: 1500 });
    game = sb.gameOrigin(GAME);
  });
  afterAll(async () => {
    await dev.close();
  });

  it('a game without a source has no root-absolute paths either: a 404 page naming the fix', async () => {
    const r = await exactRequest(sb.gameOrigin('1002'), 'GET', '/src/main.ts');
    expect(r.status).toBe(404);
    expect(r.text).toContain('no usable content URI');
  });

  it('validates what a source is set to', async () => {
    const cases: Array<[unknown, number, RegExp]> = [
      [{ dir: '/nonexistent/udcli' }, 400, /does not exist/],
      [{ dir: 'relative/path' }, 400, /not an absolute path/],
      [{ url: 'ftp://example.com/' }, 400, /http/],
      [{ url: dev.url, dir: '/tmp' }, 400, /cannot both/],
      [{ url: dev.url, connect: 'yes' }, 400, /connect/],
    ];
    for (const [body, status, message] of cases) {
      const r = await setSource(sb, body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(((await r.json()) as { message: string }).message).toMatch(message);
    }
    const unknown = await setSource(sb, { url: dev.url }, '999999');
    expect(unknown.status).toBe(404);
  });

  it('sets a source and lists it', async () => {
    const r = await setSource(sb, { url: `${dev.url}/game/index.html?level=2` });
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({
      game_id: GAME,
      source: { kind: 'url', url: `${dev.url}/game/index.html?level=2`, connect: true, from_content_uri: false },
    });
    const list = (await (await fetch(`${sb.url}/_sandbox/game-sources`)).json()) as {
      active_game_id: string;
      games: Array<{ game_id: string }>;
    };
    expect(list.active_game_id).toBe(GAME);
    expect(list.games.map((g) => g.game_id)).toContain(GAME);
  });

  it('proxies a page with the connect tag injected and its length fixed', async () => {
    const r = await fetch(`${game}/play/${GAME}/game/index.html?level=2`);
    expect(r.status).toBe(200);
    const text = await r.text();
    expect(text).toBe(PAGE.replace('<head>', `<head>${mainTag(sb)}`));
    expect(Number(r.headers.get('content-length'))).toBe(Buffer.byteLength(text));
  });

  it('streams a request body through, whatever its type and size, with the upstream Host', async () => {
    const big = 'x'.repeat(200_000);
    for (const [type, body] of [
      ['application/json', '{"a":1}'],
      ['application/x-www-form-urlencoded', 'a=1&b=2'],
      ['application/octet-stream', big],
    ] as const) {
      const r = await fetch(`${game}/play/${GAME}/game/echo?q=1`, {
        method: 'POST',
        headers: { 'content-type': type },
        body,
      });
      expect(r.status).toBe(201);
      expect(r.headers.get('x-seen-host')).toBe(new URL(dev.url).host);
      expect(await r.json()).toMatchObject({ method: 'POST', type, body, query: '?q=1' });
    }
    const put = await exactRequest(game, 'PUT', `/play/${GAME}/game/echo`, {}, 'no type');
    expect(JSON.parse(put.text)).toMatchObject({ method: 'PUT', type: null, body: 'no type' });
  });

  it('streams the reply: the first event arrives before the upstream ends', async () => {
    const r = await fetch(`${game}/play/${GAME}/game/stream`);
    expect(r.headers.get('content-type')).toBe('text/event-stream');
    const reader = r.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: one\n\n');
    dev.release();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('data: two\n\n');
  });

  it("rewrites redirects to the upstream into the sandbox path, and the upstream's cookies into the game's own names", async () => {
    const redirect = await exactRequest(game, 'GET', `/play/${GAME}/game/redirect`);
    expect([redirect.status, redirect.headers.location]).toEqual([302, `/play/${GAME}/game/index.html?from=redirect`]);
    const cookie = await exactRequest(game, 'GET', `/play/${GAME}/game/cookie`);
    expect(cookie.headers['set-cookie']).toEqual([
      '__Host-udcli-g1001.flavour=oat; HttpOnly; Path=/; Secure',
      '__Host-udcli-g1001.size=big; Path=/; Secure',
    ]);
    // Only its own cookies go back to the upstream, under the names it gave them.
    const echo = await exactRequest(
      game,
      'POST',
      `/play/${GAME}/game/echo`,
      {
        cookie:
          '__Host-udcli-g1001.flavour=oat; udcli_sandbox_session=secret; flavour=forged; __Host-udcli-g1002.size=small',
      },
      '',
    );
    expect(JSON.parse(echo.text)).toMatchObject({ cookie: 'flavour=oat' });
    const none = await exactRequest(
      game,
      'POST',
      `/play/${GAME}/game/echo`,
      { cookie: 'udcli_sandbox_session=secret; other_app=1' },
      '',
    );
    expect(JSON.parse(none.text)).toMatchObject({ cookie: null });
  });

  it("never passes on Service-Worker-Allowed or Clear-Site-Data: a worker stays in its folder, and no upstream clears the sandbox's login", async () => {
    const r = await exactRequest(game, 'GET', `/play/${GAME}/game/worker.js`, { 'service-worker': 'script' });
    expect([r.status, r.text]).toEqual([200, 'self.x = 1;']);
    expect(r.headers['service-worker-allowed']).toBeUndefined();
    expect(r.headers['clear-site-data']).toBeUndefined();
  });

  it("on a bare loopback name, a browser is sent to the game's own name, and a worker's update check gets one that unregisters itself", async () => {
    const browser = { 'sec-fetch-site': 'none' };
    const page = await exactRequest(sb.gameUrl, 'GET', `/play/${GAME}/game/index.html?level=2`, browser);
    expect([page.status, page.headers.location, page.headers['clear-site-data']]).toEqual([
      307,
      `${game}/play/${GAME}/game/index.html?level=2`,
      '"storage"',
    ]);
    const worker = await exactRequest(sb.gameUrl, 'GET', '/sw.js', {
      'sec-fetch-site': 'same-origin',
      'service-worker': 'script',
    });
    expect([worker.status, worker.headers['content-type'], worker.headers['clear-site-data']]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      '"storage"',
    ]);
    expect(worker.text).toContain('self.registration.unregister()');
    const other = await exactRequest(sb.gameUrl, 'GET', '/src/main.ts', browser);
    expect([other.status, other.headers['clear-site-data']]).toEqual([404, '"storage"']);
    expect(other.text).not.toContain('export const root');
    // A browser's WebSocket there is refused (its page would be of no game's origin).
    const ws = await exactRequest(sb.gameUrl, 'GET', '/', {
      connection: 'Upgrade',
      upgrade: 'websocket',
      origin: sb.gameUrl,
      'sec-websocket-version': '13',
      'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
    });
    expect(ws.status).toBe(404);
  });

  it("sends root-absolute paths at a game's own name to its dev server", async () => {
    const r = await fetch(`${game}/src/main.ts`);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('export const root = true;');
  });

  it('proxies a websocket, at the game path and at the origin root (Vite live reload)', async () => {
    for (const path of [`/play/${GAME}/game/ws?token=t`, '/?token=abc']) {
      const ws = await openSocket(game, path);
      expect(ws.head).toMatch(/^HTTP\/1\.1 101 /);
      expect(ws.head).toContain('Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
      expect(ws.head).toContain(`X-Path: ${path === '/?token=abc' ? path : '/game/ws?token=t'}`);
      expect(await ws.echo('ping')).toBe('ping');
      ws.close();
    }
  });

  it('lists proxied requests in the request log', async () => {
    const log = (await (await fetch(`${sb.url}/_sandbox/requests?limit=1000`)).json()) as {
      requests: Array<{ path: string; status: number }>;
    };
    expect(log.requests).toContainEqual(
      expect.objectContaining({ path: `/play/${GAME}/game/index.html`, status: 200 }),
    );
    expect(log.requests).toContainEqual(expect.objectContaining({ path: '/src/main.ts', status: 200 }));
  });

  it('answers a slow upstream with a 504 page while the API keeps answering', async () => {
    const slow = fetch(`${game}/play/${GAME}/game/slow`);
    let slowSettled = false;
    void slow.finally(() => (slowSettled = true)).catch(() => undefined);
    const apiReply = await api(sb.url, 'GET', `/users/${DEMO.user.uid}.json`);
    expect(apiReply.status).toBe(200);
    // Answered while the slow upstream was still awaited: the API does not wait on it.
    expect(slowSettled).toBe(false);
    const r = await slow;
    expect(r.status).toBe(504);
    const text = await r.text();
    expect(text).toContain(`${dev.url}/game/slow`);
    expect(text).toContain('within 1.5 s');
  });

  it('answers an upstream that is down with a 502 page naming the URL and the fix', async () => {
    const down = createServer();
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    const port = (down.address() as AddressInfo).port;
    await new Promise((resolve) => down.close(resolve));
    expect((await setSource(sb, { url: `http://127.0.0.1:${port}/` })).status).toBe(200);
    const r = await fetch(`${game}/play/${GAME}/game/`);
    expect(r.status).toBe(502);
    const text = await r.text();
    expect(text).toContain(`http://127.0.0.1:${port}/`);
    expect(text).toContain('ECONNREFUSED');
    expect(text).toContain('udcli sandbox play 1001 --game-url');
  });

  it('without connect, leaves the page alone; DELETE goes back to the content URI', async () => {
    expect((await setSource(sb, { url: `${dev.url}/game/`, connect: false })).status).toBe(200);
    expect(await (await fetch(`${game}/play/${GAME}/game/`)).text()).toBe(PAGE);
    const del = await fetch(`${sb.url}/_sandbox/game-sources/${GAME}`, { method: 'DELETE' });
    expect(await del.json()).toMatchObject({ removed: true });
  });
});
