/**
 * The sandbox under an outside audit (issue 14): slow clients, made-up keys, unexpected errors,
 * site sessions and login CSRF, file modes. Real HTTP on port 0 over temporary SQLite files.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { buildApp, type BuildAppOptions } from '../../src/sandbox/app.js';
import { openDatabase, type SandboxDatabase } from '../../src/sandbox/database.js';
import { seedDemo } from '../../src/sandbox/seed/demo.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { DEMO } from '../../src/domain/demo.js';
import { API_PREFIX } from '../../src/domain/types.js';
import { tempDir } from './helpers/sandbox.js';
import { until } from '../until.js';

interface Running {
  url: string;
  port: number;
  app: FastifyInstance;
  db: SandboxDatabase;
  clock: { ms: number };
  close(): Promise<void>;
}

async function start(options: Partial<BuildAppOptions> = {}): Promise<Running> {
  const dir = tempDir('udcli-hardening-');
  const db = openDatabase(join(dir, 'sandbox.db'));
  seedDemo(db);
  const clock = { ms: Date.UTC(2025, 5, 1, 12, 0, 0, 100) };
  const app = buildApp({ db, nowMs: () => clock.ms, ...options });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    app,
    db,
    clock,
    async close() {
      await app.close();
      db.close();
    },
  };
}

/** A sandbox for the describe block this is called in: started before its tests, closed after them. */
function sandboxForBlock(options: Partial<BuildAppOptions> = {}): Running {
  const sb = {} as Running;
  beforeAll(async () => {
    Object.assign(sb, await start(options));
  });
  afterAll(async () => {
    await sb.close();
  });
  return sb;
}

/** Opens a raw connection, writes `data`, and collects what comes back until the server closes it. */
function rawConnection(
  port: number,
  data: string,
): { socket: Socket; received: Promise<{ text: string; ms: number }> } {
  const started = Date.now();
  const socket = connect(port, '127.0.0.1', () => socket.write(data));
  let text = '';
  socket.setEncoding('latin1');
  socket.on('data', (d: string) => (text += d));
  const received = new Promise<{ text: string; ms: number }>((resolve) => {
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ text, ms: Date.now() - started }));
  });
  return { socket, received };
}

describe('slow clients (item 4)', () => {
  const sb = sandboxForBlock({ requestTimeoutMs: 600, maxConnections: 20 });

  it('a request whose body never comes gets 408 once the request timeout passes, and the socket is closed', async () => {
    const head =
      `POST ${API_PREFIX}/users/${DEMO.user.uid}.json?api_key=${DEMO.game.apiKey} HTTP/1.1\r\n` +
      `Host: 127.0.0.1:${sb.port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"partial":`;
    const { received } = rawConnection(sb.port, head);
    const { text, ms } = await received;
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text).toContain('"code":408');
    // Not before the timeout (600 ms; timers may fire a little early): a lower bound, which slowness cannot break.
    expect(ms).toBeGreaterThanOrEqual(500);
  }, 10_000);

  it('headers that never end are cut off the same way', async () => {
    const { received } = rawConnection(
      sb.port,
      `GET ${API_PREFIX}/users/${DEMO.user.uid}.json HTTP/1.1\r\nHost: 127.0.0.1:${sb.port}\r\nX-Slow: `,
    );
    const { text } = await received;
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
  }, 10_000);

  it('caps open connections: beyond the cap the longest idle are closed at once, and the sandbox still answers', async () => {
    const held = Array.from({ length: 30 }, () => rawConnection(sb.port, 'GET / HTTP/1.1\r\nHost: x\r\n'));
    const closed: Array<{ text: string }> = [];
    for (const { received } of held) void received.then((r) => closed.push(r));
    // Those over the cap are dropped without a reply: not by the request timeout, which answers 408.
    await until(() => closed.length >= 10, '10 connections over the cap to be closed');
    expect(closed.slice(0, 10).map((r) => r.text)).toEqual(Array(10).fill(''));
    for (const { socket } of held) socket.destroy();
    expect((await fetch(`${sb.url}/_sandbox/status`)).status).toBe(200);
  }, 10_000);
});

describe('half-open connections and malformed HEADs (issue 21)', () => {
  const sb = sandboxForBlock();

  it('300 connections opened and left silent do not lock a client out: its request is answered at once', async () => {
    let accepted = 0;
    const count = () => void accepted++;
    sb.app.server.on('connection', count);
    onTestFinished(() => void sb.app.server.off('connection', count));
    const held = await Promise.all(
      Array.from(
        { length: 300 },
        () =>
          new Promise<Socket>((resolve) => {
            const socket = connect(sb.port, '127.0.0.1', () => resolve(socket));
            socket.on('error', () => undefined);
          }),
      ),
    );
    try {
      // The sandbox holds all 300 before the client comes.
      await until(() => accepted >= 300, 'the 300 connections to be accepted');
      const r = await fetch(`${sb.url}${API_PREFIX}/users/${DEMO.user.uid}.json?api_key=${DEMO.game.apiKey}`);
      expect(r.status).toBe(200);
      // The newest silent ones are still open: only the longest idle made room.
      expect(held.at(-1)!.destroyed).toBe(false);
    } finally {
      for (const socket of held) socket.destroy();
    }
  }, 15_000);

  it.each([
    ['a bad Content-Length', 'HEAD / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', 400],
    ['a control character in the path', 'HEAD /\x01 HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['headers too large', `HEAD /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nX: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
  ])('a malformed HEAD (%s) gets its status and no body', async (_name, data, status) => {
    const { text } = await rawConnection(sb.port, data).received;
    expect(text).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    const [head, body] = text.split('\r\n\r\n');
    expect(body).toBe('');
    expect(head).toMatch(/\r\nContent-Length: 0\r\n/i);
  });

  // A GET or HEAD is answered without reading its body; a body that then fails to parse (bad
  // chunked framing) must not add a second reply, which the client would take for the reply to
  // its next request: the one reply (none of a body for a HEAD), then the connection is closed.
  it.each([
    ['in the same packet', false],
    ['after the reply', true],
  ])('a HEAD with bad chunked framing (%s): one reply, no body, then the connection closes', async (_name, later) => {
    for (const host of ['x', `127.0.0.1:${sb.port}`]) {
      const head = `HEAD /x HTTP/1.1\r\nHost: ${host}\r\nTransfer-Encoding: chunked\r\n\r\n`;
      const connection = rawConnection(sb.port, later ? head : `${head}zz\r\n`);
      if (later) setTimeout(() => connection.socket.write('zz\r\n'), 100);
      const { text } = await connection.received;
      expect(text.match(/HTTP\/1\.1 \d{3} /g), text).toHaveLength(1);
      const [reply, body] = text.split('\r\n\r\n');
      expect(reply).toMatch(/^HTTP\/1\.1 (400|403|404) /);
      expect(body).toBe('');
    }
  });

  it('a malformed GET still gets the envelope', async () => {
    const { text } = await rawConnection(sb.port, 'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n').received;
    expect(text).toContain('"code":400');
  });
});

describe('the rate limit and made-up keys (item 8)', () => {
  it('200 requests in one second, each with a fresh random api_key, are mostly 429 under a 50/s limit', async () => {
    const sb = await start({ rateLimitPerSecond: 50 });
    try {
      const statuses = await Promise.all(
        Array.from({ length: 200 }, () =>
          fetch(`${sb.url}${API_PREFIX}/friends/${DEMO.user.uid}.json?api_key=${randomBytes(16).toString('hex')}`).then(
            (r) => r.status,
          ),
        ),
      );
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(150);
      expect(statuses.filter((s) => s !== 429).every((s) => s === 401)).toBe(true);
      // A real key keeps its own budget, untouched by the junk.
      const real = await fetch(
        `${sb.url}${API_PREFIX}/friends/${DEMO.user.uid}.json?api_key=${DEMO.game.apiKey}&limit=1`,
      );
      expect(real.status).toBe(200);
    } finally {
      await sb.close();
    }
  });
});

describe('unexpected errors (item 6)', () => {
  it('the error handler cannot fail itself: a 500 whose telling throws is still the envelope (issue 21)', async () => {
    const sb = await start({
      log: () => {
        throw new Error('the log is gone');
      },
    });
    try {
      sb.db.sqlite.close();
      const r = await fetch(`${sb.url}${API_PREFIX}/users/${DEMO.user.uid}.json?api_key=${DEMO.game.apiKey}`);
      expect(r.status).toBe(500);
      expect(await r.json()).toMatchObject({ version: 1, code: 500, message: 'internal error' });
    } finally {
      await sb.app.close();
    }
  });

  it('a 500 reaches the sandbox log with what failed, and no secret from the URL', async () => {
    const lines: string[] = [];
    const sb = await start({ log: (line) => lines.push(line) });
    try {
      sb.db.sqlite.close(); // every query now throws: an error no handler expects
      const r = await fetch(`${sb.url}${API_PREFIX}/users/${DEMO.user.uid}.json?api_key=${DEMO.game.apiKey}`);
      expect(r.status).toBe(500);
      expect(((await r.json()) as { message: string }).message).toBe('internal error');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`500 GET ${API_PREFIX}/users/${DEMO.user.uid}.json`);
      expect(lines[0]).toContain('The database connection is not open');
      expect(lines[0]).not.toContain(DEMO.game.apiKey);
      // One line, as the README promises: where it was thrown, not the whole stack (issue 31).
      expect(lines[0]).not.toContain('\n');
      expect(lines[0]).toMatch(/\(at .+\)$/);
    } finally {
      await sb.app.close();
    }
  });

  it('startSandbox writes them to its console (stderr; sandbox.log when detached)', async () => {
    const dir = tempDir('udcli-hardening-');
    const dbPath = join(dir, 'sandbox.db');
    const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', dbPath });
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      // Another process breaks the schema under the running sandbox.
      const other = openDatabase(dbPath);
      other.sqlite.exec('ALTER TABLE friendships RENAME TO friendships_gone');
      other.close();
      const r = await fetch(`${sandbox.url}${API_PREFIX}/friends/${DEMO.user.uid}.json?api_key=${DEMO.game.apiKey}`);
      expect(r.status).toBe(500);
    } finally {
      spy.mockRestore();
      await sandbox.close();
    }
    const line = written.find((w) => w.includes(`500 GET ${API_PREFIX}/friends/`));
    expect(line, written.join('')).toContain('no such table: friendships');
  });
});

describe('site sessions (item 9)', () => {
  const sb = sandboxForBlock();

  const login = async (username: string) => {
    const r = await fetch(`${sb.url}/login?username=${username}`, { method: 'POST' });
    expect(r.status).toBe(200);
    return r.headers.get('set-cookie')!;
  };
  const tokenWith = (cookie: string) =>
    fetch(`${sb.url}/service/user-auth-token-generator/1001`, { headers: { cookie: cookie.split(';')[0]! } });

  it('the session cookie has a Max-Age of 24 h, and the session ends 24 h later by the sandbox clock', async () => {
    const cookie = await login('alice');
    expect(cookie).toMatch(/; Max-Age=86400(;|$)/);
    expect((await tokenWith(cookie)).status).toBe(200);
    sb.clock.ms += 86_400_000 - 2000;
    expect((await tokenWith(cookie)).status).toBe(200);
    sb.clock.ms += 3000;
    expect((await tokenWith(cookie)).status).toBe(401);
  });

  it('GET /play/:id?as=NAME logs nobody in: it shows a form that POSTs the switch', async () => {
    const r = await fetch(`${sb.url}/play/1001?as=alice`, { redirect: 'manual' });
    expect(r.headers.get('set-cookie')).toBeNull();
    expect(r.status).toBe(200);
    const html = await r.text();
    expect(html).not.toMatch(/Playing as/);
    expect(html).toMatch(/<form method="post" action="\/play\/1001\/login">/);
    expect(html).toMatch(/<input type="hidden" name="username" value="alice">/);
  });

  it('POST /play/:id/login (a form) logs the user in and goes back to the page; a cross-site one is refused', async () => {
    const form = (origin?: string) =>
      fetch(`${sb.url}/play/1001/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(origin ? { origin } : {}) },
        body: 'username=bob',
      });
    const ok = await form(sb.url);
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/play/1001');
    const cookie = ok.headers.get('set-cookie')!;
    expect(cookie).toMatch(/Max-Age=86400/);
    const page = await (await fetch(`${sb.url}/play/1001`, { headers: { cookie: cookie.split(';')[0]! } })).text();
    expect(page).toMatch(/Playing as <strong id="username">bob<\/strong>/);

    const evil = await form('https://evil.example');
    expect(evil.status).toBe(403);
    expect(evil.headers.get('set-cookie')).toBeNull();
    const evilLogin = await fetch(`${sb.url}/login?username=bob`, {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
    });
    expect(evilLogin.status).toBe(403);
    expect(evilLogin.headers.get('set-cookie')).toBeNull();
  });
});

describe('file modes (item 9)', () => {
  it('sandbox.db and its WAL and SHM files are created 0600', async () => {
    const dir = tempDir('udcli-hardening-');
    const dbPath = join(dir, 'sandbox.db');
    const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', dbPath });
    try {
      for (const file of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) {
        expect(existsSync(file), file).toBe(true);
        expect((statSync(file).mode & 0o777).toString(8), file).toBe('600');
      }
    } finally {
      await sandbox.close();
    }
  });
});
