/**
 * The node:http transport of one-shot commands (src/client/http-dispatcher.ts) keeps the contract
 * transport.ts builds `sent` on: onRequestStart comes once the socket is connected, and a
 * handler that aborts there has sent nothing: the server sees a connection and not one byte.
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dispatcher } from 'undici';
import { createHttpDispatcher } from '../../src/client/http-dispatcher.js';

let server: Server;
let origin: string;
/** Bytes each connection delivered, once it closed. */
const received: Promise<number>[] = [];

beforeAll(async () => {
  server = createServer((socket: Socket) => {
    received.push(
      new Promise((resolve) => {
        let bytes = 0;
        socket.on('data', (d: Buffer) => {
          bytes += d.length;
          if (d.includes('\r\n\r\n')) socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok');
        });
        socket.on('close', () => resolve(bytes));
        socket.on('error', () => undefined);
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function exchange(
  dispatcher: Dispatcher,
  abortAtStart: boolean,
): Promise<{ started: boolean; status?: number; body?: string; error?: Error }> {
  return new Promise((resolve) => {
    let started = false;
    let status = 0;
    const chunks: Buffer[] = [];
    dispatcher.dispatch(
      { origin, path: '/x', method: 'POST', headers: { accept: 'application/json' }, body: 'a=1' },
      {
        onRequestStart(controller) {
          started = true;
          if (abortAtStart) controller.abort(new Error('deadline passed while connecting'));
        },
        onResponseStart(_c, statusCode) {
          status = statusCode;
        },
        onResponseData(_c, chunk) {
          chunks.push(chunk);
        },
        onResponseEnd() {
          resolve({ started, status, body: Buffer.concat(chunks).toString() });
        },
        onResponseError(_c, error) {
          resolve({ started, error });
        },
      },
    );
  });
}

describe('the node:http dispatcher', () => {
  it('sends the request once connected and hands back the reply', async () => {
    const d = createHttpDispatcher();
    const r = await exchange(d, false);
    await d.close();
    expect(r).toEqual({ started: true, status: 200, body: 'ok' });
    expect(await received.at(-1)).toBeGreaterThan(0);
  });

  it('writes nothing when the handler aborts as the request starts', async () => {
    const d = createHttpDispatcher();
    const before = received.length;
    const r = await exchange(d, true);
    await d.close();
    expect(r.started).toBe(true);
    expect(r.error?.message).toBe('deadline passed while connecting');
    // The server saw the connection (so the abort came after connecting) and no byte on it.
    await expect.poll(() => received.length).toBe(before + 1);
    expect(await received.at(-1)).toBe(0);
  });

  it('lets a finished exchange go at once: the response does not hold its handler (nor the reply)', async () => {
    // The response (and its listeners) stays reachable while the caller works on the reply: were
    // the listeners to hold the handler, each reply would live through that work (friends --all:
    // every page then reached the old generation, and peak memory grew with the list).
    const keptAlive = createHttpServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => keptAlive.listen(0, '127.0.0.1', resolve));
    const d = createHttpDispatcher();
    try {
      const done = await new Promise<WeakRef<Dispatcher.DispatchHandler>>((resolve, reject) => {
        const handler: Dispatcher.DispatchHandler = {
          onResponseEnd: () => resolve(ref),
          onResponseError: (_c, error) => reject(error),
        };
        const ref = new WeakRef(handler);
        d.dispatch(
          {
            origin: `http://127.0.0.1:${(keptAlive.address() as AddressInfo).port}`,
            path: '/',
            method: 'GET',
            headers: {},
          },
          handler,
        );
      });
      // Collected at once, with no turn of the event loop: the caller's work on a reply runs in the
      // microtasks right after it, while the response's 'end' is still on the stack.
      setFlagsFromString('--expose-gc');
      (runInNewContext('gc') as () => void)();
      expect(done.deref()).toBeUndefined();
    } finally {
      await d.close();
      keptAlive.closeAllConnections();
      await new Promise((resolve) => keptAlive.close(resolve));
    }
  });
});
