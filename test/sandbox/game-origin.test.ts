/**
 * Issue 31 over real HTTP: game content has an origin of its own (the game host's listener, with
 * no /_sandbox route, no site, no API), /_sandbox answers only the sandbox's own pages, upgrades
 * pass the Host check and the request log and are forwarded with the page's Origin, a request
 * target that is not a path is a 400, a folder set over HTTP must lie inside one allowed at start,
 * and the proxy's leftovers: HEAD of a page, compressed pages, an HTTPS dev server.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { connectTag, forbiddenDirProblem } from '../../src/sandbox/game-host/index.js';
import { gameHostName, gameLabel, labelOfName } from '../../src/sandbox/game-host/game-names.js';
import { exactRequest, rawRequest, tempDir, type TestSandbox } from './helpers/sandbox.js';

const GAME = DEMO.game.id;
const PAGE =
  '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Game</title></head><body>game</body></html>';
const TLS = join(import.meta.dirname, '..', 'fixtures', 'tls');

interface Upstream {
  url: string;
  /** The Origin header of each upgrade the upstream saw. */
  upgradeOrigins: Array<string | undefined>;
  close(): Promise<void>;
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (path === '/index.html')
    res
      .writeHead(200, { 'content-type': 'text/html', 'content-length': String(Buffer.byteLength(PAGE)) })
      .end(req.method === 'HEAD' ? undefined : PAGE);
  else if (path === '/gzip.html') {
    // Compressed although the sandbox asked for identity, as some servers do.
    const body = gzipSync(PAGE);
    res
      .writeHead(200, {
        'content-type': 'text/html',
        'content-encoding': 'gzip',
        'content-length': String(body.length),
      })
      .end(body);
  } else if (path === '/origin')
    res.writeHead(200, { 'content-type': 'text/plain' }).end(String(req.headers.origin ?? 'none'));
  else res.writeHead(404, { 'content-type': 'text/plain' }).end('upstream 404');
}

async function startUpstream(secure: boolean): Promise<Upstream> {
  const upgradeOrigins: Array<string | undefined> = [];
  const sockets = new Set<Duplex>();
  const server: Server = secure
    ? createHttpsServer(
        { key: readFileSync(join(TLS, 'self-signed-key.pem')), cert: readFileSync(join(TLS, 'self-signed-cert.pem')) },
        handle,
      )
    : createServer(handle);
  server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    sockets.add(socket);
    upgradeOrigins.push(req.headers.origin);
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${secure ? 'https' : 'http'}://127.0.0.1:${port}`,
    upgradeOrigins,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function setSource(sb: TestSandbox, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${sb.url}/_sandbox/game-sources/${GAME}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** A raw upgrade request; resolves with the reply's status once its head arrived (the socket is then closed). */
function upgrade(base: string, lines: string[]): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => socket.write(`${lines.join('\r\n')}\r\n\r\n`));
    let received = '';
    const done = () => {
      socket.destroy();
      resolve(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 'none');
    };
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      received += d;
      if (received.includes('\r\n\r\n')) done();
    });
    socket.on('error', done);
    socket.on('close', done);
  });
}

async function requestLog(
  sb: TestSandbox,
): Promise<Array<{ method: string; path: string; status: number; reason: string | null }>> {
  const reply = (await (await fetch(`${sb.url}/_sandbox/requests?limit=1000`)).json()) as {
    requests: Array<{ method: string; path: string; status: number; reason: string | null }>;
  };
  return reply.requests;
}

/** The connect tag a game's own name gets: connect.js from the main listener, at the play page's name. */
const mainTag = (sb: TestSandbox): string => connectTag(`http://sandbox.localhost:${new URL(sb.url).port}`);

describe('the game host: an origin of its own that serves game content and nothing else', () => {
  let sb: TestSandbox;
  let root: string;
  beforeAll(async ({ newSb }) => {
    const dir = tempDir('udcli-gameorigin-');
    root = join(dir, 'game');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'index.html'), PAGE);
    sb = await newSb({ gameSources: [[GAME, { kind: 'dir', root, connect: true }]] });
  });

  it('is another port than the sandbox, and has no /_sandbox, no API, no dashboard', async () => {
    expect(new URL(sb.gameUrl).port).not.toBe(new URL(sb.url).port);
    const game = sb.gameOrigin(GAME);
    await fetch(`${game}/play/${GAME}/game/`); // the folder is now the one used last (for a tool at the bare name)
    // The game's own name, a tool at the bare name (the shared origin) and a browser there.
    for (const [base, headers, answer] of [
      [game, {}, 'is not in'],
      [sb.gameUrl, {}, 'is not in'],
      [sb.gameUrl, { 'sec-fetch-site': 'none' }, 'Not a game of this host'],
    ] as const) {
      for (const path of [
        '/_sandbox/requests',
        '/_sandbox/game-sources',
        '/_sandbox/users',
        `/services/rest/v1/users/${DEMO.user.uid}.json?api_key=${DEMO.game.apiKey}`,
      ]) {
        const r = await fetch(`${base}${path}`, { headers });
        expect(r.status, path).toBe(404);
        // Looked up in the game folder, or nothing at all: never answered by the sandbox.
        expect(await r.text(), path).toContain(answer);
      }
    }
    const dashboard = await (await fetch(`${game}/`)).text();
    expect(dashboard).toBe(PAGE.replace('<head>', `<head>${mainTag(sb)}`)); // the game's own index, not the dashboard
    const put = await fetch(`${game}/_sandbox/game-sources/${GAME}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{"dir":"/"}',
    });
    expect(put.status).toBe(404); // only a file of the game folder could answer (and it answers GET and HEAD only)
    const view = (await (await fetch(`${sb.url}/_sandbox/game-sources/${GAME}`)).json()) as { source: { dir: string } };
    expect(view.source.dir).toBe(root);
  });

  it('/_sandbox answers only its own origin: a page of the game host (same site) or another site is refused, reads included', async () => {
    const game = sb.gameOrigin(GAME);
    const refusedHeaders: Array<Record<string, string>> = [
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: game },
      { origin: 'null' },
    ];
    for (const headers of refusedHeaders) {
      const read = await fetch(`${sb.url}/_sandbox/requests`, { headers });
      expect(read.status, JSON.stringify(headers)).toBe(403);
      const users = await fetch(`${sb.url}/_sandbox/users`, { headers });
      expect(users.status, JSON.stringify(headers)).toBe(403);
      const put = await setSource(sb, { dir: '/' }, headers);
      expect(put.status, JSON.stringify(headers)).toBe(403);
    }
    // The sandbox's own pages (same-origin) and a typed address or a tool (none, no header) are answered.
    expect((await fetch(`${sb.url}/_sandbox/requests`, { headers: { 'sec-fetch-site': 'same-origin' } })).status).toBe(
      200,
    );
    expect((await fetch(`${sb.url}/_sandbox/requests`, { headers: { 'sec-fetch-site': 'none' } })).status).toBe(200);
    expect((await fetch(`${sb.url}/_sandbox/requests`, { headers: { origin: new URL(sb.url).origin } })).status).toBe(
      200,
    );
    // connect.js is public (a studio's own server includes it): any page may load it.
    expect((await fetch(`${sb.url}/_sandbox/connect.js`, { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(
      200,
    );
  });

  it("a folder set over HTTP must lie inside one allowed at start, and never /, a home folder or udcli's own", async () => {
    const inside = join(root, 'levels');
    mkdirSync(inside, { recursive: true });
    expect((await setSource(sb, { dir: inside })).status).toBe(200);
    const outside = tempDir('udcli-elsewhere-');
    for (const [dir, message] of [
      ['/', /root of the file system/],
      [homedir(), /home folder/],
      [outside, /not inside a folder allowed when the sandbox started/],
      ['/etc', /not inside a folder allowed/],
    ] as const) {
      const r = await setSource(sb, { dir });
      expect(r.status, dir).toBe(403);
      expect(((await r.json()) as { message: string }).message, dir).toMatch(message);
    }
    expect((await setSource(sb, { dir: root })).status).toBe(200);
  });

  it("the Host check takes each game's own name on the game port and the play page's on the main one, and still refuses any other (DNS rebinding)", async () => {
    const gamePort = new URL(sb.gameUrl).port;
    const mainPort = new URL(sb.url).port;
    const status = async (base: string, host: string) =>
      (await exactRequest(base, 'GET', `/play/${GAME}/game/`, { host })).status;
    expect(await status(sb.gameUrl, `g1001.sandbox.localhost:${gamePort}`)).toBe(200);
    expect(await status(sb.gameUrl, `G1001.Sandbox.LocalHost:${gamePort}`)).toBe(200);
    expect(await status(sb.gameUrl, `g9999.sandbox.localhost:${gamePort}`)).toBe(307); // a game's path at a name no game has: sent to the game's own name
    for (const host of [
      `g1001.localhost:${gamePort}`,
      `evil.sandbox.localhost:${gamePort}`,
      `x.g1001.sandbox.localhost:${gamePort}`,
      `g1001.sandbox.localhost.evil.example:${gamePort}`,
      `g1001.sandbox.localhost:${mainPort}`,
      `g1001.sandbox.localhost`,
      `evil.example:${gamePort}`,
    ]) {
      expect(await status(sb.gameUrl, host), host).toBe(403);
    }
    // The main listener: the play page's name, never a game's.
    expect((await exactRequest(sb.url, 'GET', '/play', { host: `sandbox.localhost:${mainPort}` })).status).toBe(200);
    expect((await exactRequest(sb.url, 'GET', '/play', { host: `g1001.sandbox.localhost:${mainPort}` })).status).toBe(
      403,
    );
  });

  it('names each game apart: a readable label for a lowercase id, a hash for any other, never one label for two ids', () => {
    expect(gameHostName('1001')).toBe('g1001.sandbox.localhost');
    expect(gameLabel('abc')).toBe('gabc');
    const others = ['Abc', 'ABC', 'a_b', 'a.b', 'a-b', 'x'.repeat(63), 'x'.repeat(64)];
    const labels = others.map(gameLabel);
    expect(new Set([...labels, 'gabc']).size).toBe(others.length + 1);
    for (const label of labels) {
      expect(label).toMatch(/^x-[0-9a-f]{20}$/);
      expect(labelOfName(`${label}.sandbox.localhost`)).toBe(label);
    }
    expect(labelOfName('g1001.localhost')).toBeNull();
    expect(labelOfName('x-zz.sandbox.localhost')).toBeNull();
  });

  it('a request target that is not a path is one 400 on either origin, never a 500', async () => {
    for (const base of [sb.url, sb.gameUrl, sb.gameOrigin(GAME)]) {
      const { host } = new URL(base);
      const r = await rawRequest(
        base,
        `GET http://${host}/play/${GAME}/game/ HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      );
      expect(r.status, base).toBe(400);
    }
    const log = await requestLog(sb);
    expect(log.filter((entry) => entry.status === 500)).toEqual([]);
  });
});

describe('upgrades and the proxy', () => {
  let sb: TestSandbox;
  let dev: Upstream;
  let secure: Upstream;
  beforeAll(async ({ newSb }) => {
    dev = await startUpstream(false);
    secure = await startUpstream(true);
    sb = await newSb({
      gameSources: [[GAME, { kind: 'url', base: `${dev.url}/index.html`, connect: true }]],
    });
  });
  afterAll(async () => {
    await dev.close();
    await secure.close();
  });

  it("an upgrade passes the Host check and is logged; only a WebSocket upgrade goes on, with the page's Origin", async () => {
    const game = sb.gameOrigin(GAME);
    const { host } = new URL(game);
    const upgradeTo = (protocol: string, requestLine: string, h: string, extra: string[] = []) => [
      requestLine,
      `Host: ${h}`,
      'Connection: Upgrade',
      `Upgrade: ${protocol}`,
      ...extra,
    ];
    const ws = (h: string, extra: string[] = []) => upgradeTo('websocket', 'GET /play/1001/game/ws HTTP/1.1', h, extra);
    // DNS rebinding: a page of evil.example whose name points at 127.0.0.1.
    expect(
      await upgrade(sb.gameUrl, ws(`evil.example:${new URL(sb.gameUrl).port}`, ['Origin: http://evil.example'])),
    ).toBe('403');
    // Not a WebSocket upgrade, or not on a GET: refused here, not passed on.
    expect(await upgrade(sb.gameUrl, upgradeTo('h2c', 'GET /play/1001/game/x HTTP/1.1', host))).toBe('400');
    expect(
      await upgrade(sb.gameUrl, upgradeTo('websocket', 'POST /play/1001/game/x HTTP/1.1', host, ['Content-Length: 0'])),
    ).toBe('400');
    expect(dev.upgradeOrigins).toEqual([]);
    expect(await upgrade(sb.gameUrl, ws(host, [`Origin: ${game}`]))).toBe('101');
    expect(dev.upgradeOrigins).toEqual([game]);
    // The main origin takes no upgrade at all.
    expect(await upgrade(sb.url, ws(new URL(sb.url).host))).not.toBe('101');
    const upgrades = (await requestLog(sb)).filter(
      (entry) => entry.path.startsWith('/play/1001/game/') && entry.method !== 'HEAD',
    );
    expect(upgrades.map((entry) => entry.status)).toEqual(expect.arrayContaining([403, 400, 400, 101]));
  });

  it('a WebSocket upgrade from another origin is refused as a cross-site request is (issue 40)', async () => {
    const game = sb.gameOrigin(GAME);
    const { host } = new URL(game);
    const ws = (path: string, extra: string[]) => [
      `GET ${path} HTTP/1.1`,
      `Host: ${host}`,
      'Connection: Upgrade',
      'Upgrade: websocket',
      'Sec-WebSocket-Version: 13',
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
      ...extra,
    ];
    const before = dev.upgradeOrigins.length;
    // Another site, another game, the main origin, the game host's bare name, an opaque origin, and
    // the same name on another port or scheme: each a page that is not the game's own.
    const port = new URL(game).port;
    for (const origin of [
      'http://evil.example',
      sb.gameOrigin('1002'),
      sb.url,
      `http://sandbox.localhost:${new URL(sb.url).port}`,
      sb.gameUrl,
      'null',
      `http://${host.replace(port, String(Number(port) + 1))}`,
      `https://${host}`,
    ]) {
      for (const path of ['/play/1001/game/ws', '/?token=abc']) {
        expect(await upgrade(sb.gameUrl, ws(path, [`Origin: ${origin}`])), `${origin} ${path}`).toBe('403');
      }
    }
    expect(dev.upgradeOrigins.length).toBe(before); // none reached the dev server
    const refused = (await requestLog(sb)).filter(
      (entry) => entry.status === 403 && entry.reason?.includes('WebSocket upgrade from another origin'),
    );
    expect(refused.length).toBe(16);
    // The game's own page (its Origin, in any case) and a tool (no Origin) are let through.
    expect(
      await upgrade(sb.gameUrl, ws('/?token=abc', [`Origin: ${game.toUpperCase().replace('HTTP', 'http')}`])),
    ).toBe('101');
    expect(await upgrade(sb.gameUrl, ws('/play/1001/game/ws', []))).toBe('101');
    expect(dev.upgradeOrigins.slice(before)).toEqual([game.toUpperCase().replace('HTTP', 'http'), undefined]);
  });

  it("HTTP requests to the dev server carry the page's Origin, never one made from Host", async () => {
    const game = sb.gameOrigin(GAME);
    const r = await exactRequest(game, 'GET', `/play/${GAME}/game/origin`, { origin: game });
    expect(r.text).toBe(game);
  });

  it("HEAD of a proxied page gives the injected page's length", async () => {
    const get = await fetch(`${sb.gameOrigin(GAME)}/play/${GAME}/game/index.html`);
    const text = await get.text();
    expect(text).toBe(PAGE.replace('<head>', `<head>${mainTag(sb)}`));
    const head = await exactRequest(sb.gameOrigin(GAME), 'HEAD', `/play/${GAME}/game/index.html`);
    expect([head.status, head.headers['content-length'], head.text]).toEqual([
      200,
      String(Buffer.byteLength(text)),
      '',
    ]);
  });

  it('a compressed page is decoded and gets the connect tag', async () => {
    const r = await fetch(`${sb.gameOrigin(GAME)}/play/${GAME}/game/gzip.html`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-encoding')).toBeNull();
    expect(await r.text()).toBe(PAGE.replace('<head>', `<head>${mainTag(sb)}`));
  });

  it('a self-signed https dev server: a page naming --insecure-game-host, and served with it', async ({ newSb }) => {
    expect((await setSource(sb, { url: `${secure.url}/index.html` })).status).toBe(200);
    const refused = await fetch(`${sb.gameOrigin(GAME)}/play/${GAME}/game/index.html`);
    expect(refused.status).toBe(502);
    const page = await refused.text();
    expect(page).toContain('--insecure-game-host');
    expect(page).toContain('DEPTH_ZERO_SELF_SIGNED_CERT');

    const insecure = await newSb({
      insecureGameHost: true,
      gameSources: [[GAME, { kind: 'url', base: `${secure.url}/index.html`, connect: true }]],
    });
    try {
      const r = await fetch(`${insecure.gameOrigin(GAME)}/play/${GAME}/game/index.html`);
      expect(r.status).toBe(200);
      expect(await r.text()).toBe(PAGE.replace('<head>', `<head>${mainTag(insecure)}`));
    } finally {
      await insecure.close();
    }
  });
});

describe('folders never served', () => {
  it("refuses the root, a home folder (or one holding it, or beside it), and udcli's own folders (in, holding, inside)", () => {
    const base = tempDir('udcli-rules-');
    const home = join(base, 'home', 'alice');
    const own = join(home, '.config', 'udcli');
    for (const dir of [home, own, join(base, 'home', 'bob'), join(home, 'game')]) mkdirSync(dir, { recursive: true });
    const rules = { home, own: [own] };
    expect(forbiddenDirProblem('/', rules)).toMatch(/root of the file system/);
    expect(forbiddenDirProblem(home, rules)).toBe('it is your home folder');
    expect(forbiddenDirProblem(join(base, 'home'), rules)).toBe('it holds your home folder');
    expect(forbiddenDirProblem(join(base, 'home', 'bob'), rules)).toBe('it is a home folder');
    expect(forbiddenDirProblem(own, rules)).toMatch(/^it is udcli's own folder/);
    expect(forbiddenDirProblem(join(home, '.config'), rules)).toMatch(/^it holds udcli's own folder/);
    mkdirSync(join(own, 'snapshots'), { recursive: true });
    expect(forbiddenDirProblem(join(own, 'snapshots'), rules)).toMatch(/^it is inside udcli's own folder/);
    expect(forbiddenDirProblem(join(home, 'game'), rules)).toBeNull();
  });
});
