/**
 * Slow POSTs (issue 51, point 6): connections that trickle a declared body a byte at a time
 * must not lock other clients out (the connection cap sheds them for a newcomer), and a body that
 * comes too slowly is cut with a 408 that says so, well before the whole-request timeout. Real
 * HTTP on port 0 over a temporary SQLite file.
 */
import { createServer } from 'node:http';
import { join } from 'node:path';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, gameHostOf, type BuildAppOptions } from '../../src/sandbox/app.js';
import { openDatabase } from '../../src/sandbox/database.js';
import { seedDemo } from '../../src/sandbox/seed/demo.js';
import { gameOrigin } from '../../src/sandbox/game-host/addressing.js';
import { DEMO } from '../../src/domain/demo.js';
import { API_PREFIX } from '../../src/domain/types.js';
import { tempDir } from './helpers/sandbox.js';
import { until } from '../until.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(options: Partial<BuildAppOptions> = {}): Promise<{ port: number; app: FastifyInstance }> {
  const db = openDatabase(join(tempDir('udcli-slow-bodies-'), 'sandbox.db'));
  seedDemo(db);
  const app = buildApp({ db, ...options });
  await app.listen({ port: 0, host: '127.0.0.1' });
  cleanups.push(async () => {
    await app.close();
    db.close();
  });
  return { port: (app.server.address() as AddressInfo).port, app };
}

interface Trickle {
  socket: Socket;
  closed: boolean;
  text: string;
}

/**
 * A POST that declares a 100,000-byte body and sends it one byte every `everyMs`, as the attack
 * in the issue did: its head is whole at once, so the sandbox is answering it, body pending.
 */
function slowPost(
  port: number,
  everyMs: number,
  path = `${API_PREFIX}/users/${DEMO.user.uid}.json?api_key=${DEMO.game.apiKey}`,
  host = `127.0.0.1:${port}`,
): Trickle {
  const socket = connect(port, '127.0.0.1');
  const state: Trickle = { socket, closed: false, text: '' };
  const timer = setInterval(() => socket.writable && socket.write('1'), everyMs);
  socket.setEncoding('latin1').on('data', (d: string) => (state.text += d));
  socket.on('error', () => undefined);
  socket.on('close', () => {
    state.closed = true;
    clearInterval(timer);
  });
  socket.write(
    `POST ${path} HTTP/1.1\r\n` + `Host: ${host}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`,
  );
  cleanups.push(() => void socket.destroy());
  return state;
}

/** The slow POSTs' heads have all reached the sandbox: each is a request it is answering. */
async function attack(app: FastifyInstance, port: number, count: number): Promise<Trickle[]> {
  let heads = 0;
  const count1 = (request: { method?: string }) => void (request.method === 'POST' && heads++);
  app.server.on('request', count1);
  cleanups.push(() => void app.server.off('request', count1));
  const trickles = Array.from({ length: count }, () => slowPost(port, 50));
  await until(() => heads >= count, `the ${count} slow POSTs to reach the sandbox`);
  return trickles;
}

describe('slow POSTs at the connection cap', () => {
  // The minimum body rate is set out of reach here: what lets the probe in is the cap's shedding.
  it.each([
    ['a small cap (8)', { maxConnections: 8 }, 8],
    ['the default cap (256)', {}, 256],
  ])(
    'with %s filled by slow POSTs, a new client is still answered',
    async (_name, cap, count) => {
      const { app, port } = await start({ ...cap, bodyGraceMs: 120_000 });
      const trickles = await attack(app, port, count);

      const probe = await fetch(
        `http://127.0.0.1:${port}${API_PREFIX}/users/${DEMO.user.uid}.json?api_key=${DEMO.game.apiKey}`,
      );
      expect(probe.status).toBe(200);
      // The attack goes on: only the one slow POST that made room was closed.
      expect(trickles.filter((t) => t.closed)).toHaveLength(1);
    },
    20_000,
  );
});

describe('a body that comes too slowly', () => {
  it('is cut with a 408 naming the minimum rate, long before the request timeout', async () => {
    const { port } = await start({ bodyGraceMs: 300, minBodyBytesPerSecond: 1024, requestTimeoutMs: 120_000 });
    const trickle = slowPost(port, 50);
    await until(() => trickle.closed || trickle.text.includes('\r\n\r\n{'), 'the slow POST to be answered');
    expect(trickle.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(trickle.text).toContain('"code":408');
    expect(trickle.text).toContain('request timeout: the body came slower than 1024 bytes/s');
  }, 20_000);

  it("is cut the same way on the game host, on its way to a game's dev server", async () => {
    const dev = createServer((request, response) => request.resume().on('end', () => response.end('read')));
    await new Promise<void>((resolve) => dev.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => void dev.close());
    const base = `http://127.0.0.1:${(dev.address() as AddressInfo).port}/game/index.html`;
    const { app } = await start({
      bodyGraceMs: 300,
      minBodyBytesPerSecond: 1024,
      requestTimeoutMs: 120_000,
      gameSources: [[DEMO.game.id, { kind: 'url', base, connect: true }]],
    });
    const gamePort = await gameHostOf(app).listen(0, '127.0.0.1');
    const trickle = slowPost(
      gamePort,
      50,
      `/play/${DEMO.game.id}/game/echo`,
      new URL(gameOrigin(DEMO.game.id, gamePort)).host,
    );
    await until(() => trickle.closed || trickle.text.includes('\r\n\r\n{'), 'the slow POST to be answered');
    expect(trickle.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(trickle.text).toContain('request timeout: the body came slower than 1024 bytes/s');
  }, 20_000);

  it('refuses bounds that are no bounds', () => {
    const db = openDatabase(':memory:');
    cleanups.push(() => db.close());
    expect(() => buildApp({ db, bodyGraceMs: 0 })).toThrow(RangeError);
    expect(() => buildApp({ db, minBodyBytesPerSecond: -1 })).toThrow(RangeError);
  });

  it('a body that keeps coming faster than the minimum is read whole, however long it takes', async () => {
    // The client shares this process's event loop with the sandbox: a stall of the loop (a loaded CI
    // machine) stops its writes and counts against its rate. At 150 times the minimum, only a stall
    // of over 3 s right after the sandbox first saw the body could cut it.
    const { port } = await start({ bodyGraceMs: 100, minBodyBytesPerSecond: 64 });
    const body = JSON.stringify({ name: 'x'.repeat(6000) });
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1').on('data', (d: string) => (text += d));
    cleanups.push(() => void socket.destroy());
    socket.write(
      `POST ${API_PREFIX}/users/${DEMO.user.uid}.json?api_key=${DEMO.game.apiKey} HTTP/1.1\r\n` +
        `Host: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    // 200 bytes every 20 ms (10 KB/s), past several grace periods: steady, never below the minimum.
    for (let at = 0; at < body.length; at += 200) {
      socket.write(body.slice(at, at + 200));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await until(() => /^HTTP\/1\.1 \d{3} [^]*\r\n\r\n./.test(text), 'the reply');
    expect(text).not.toMatch(/^HTTP\/1\.1 408 /);
    expect(socket.destroyed).toBe(false);
  }, 20_000);
});
