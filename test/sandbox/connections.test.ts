/**
 * The connection cap (http/connections.ts) closes the longest idle connection for a newcomer,
 * never one whose request is still being answered, and a connection whose reply went out is idle
 * again.
 */
import { createServer, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { limitConnections } from '../../src/sandbox/http/connections.js';
import { until } from '../until.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function cappedServer(max: number) {
  const held: ServerResponse[] = [];
  const posted: string[] = [];
  const server = createServer((request, response) => {
    if (request.method === 'POST') posted.push(request.url ?? '');
    if (request.url === '/hold') held.push(response);
    // Answered once its body is in: while the body trickles, the request is still arriving.
    else if (request.method === 'POST') request.resume().on('end', () => response.end('posted'));
    else response.end('ok');
  });
  limitConnections(server, max);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const sockets: Socket[] = [];
  cleanups.push(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  const open = async (request?: string) => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    const state = { socket, closed: false, text: '' };
    socket.setEncoding('utf8').on('data', (d: string) => (state.text += d));
    socket.on('error', () => undefined);
    socket.on('close', () => (state.closed = true));
    await new Promise((resolve) => socket.once('connect', resolve));
    if (request?.startsWith('POST ')) socket.write(`${request} HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n`);
    else if (request !== undefined) socket.write(`GET ${request} HTTP/1.1\r\nHost: x\r\n\r\n`);
    return state;
  };
  return { held, posted, open };
}

describe('the connection cap', () => {
  it('closes the idle connection for a newcomer, not the older one with a request in progress', async () => {
    const { held, open } = await cappedServer(2);
    const busy = await open('/hold');
    await until(() => held.length === 1, 'the held request to arrive');
    const idle = await open();
    const newcomer = await open('/');
    await until(() => idle.closed, 'the idle connection to be closed');
    expect(busy.closed).toBe(false);
    await until(() => newcomer.text.includes('ok'), 'the newcomer to be answered');
  });

  it('counts a connection whose reply went out as idle again', async () => {
    const { held, open } = await cappedServer(2);
    const answered = await open('/');
    await until(() => answered.text.includes('ok'), 'the first reply');
    const busy = await open('/hold');
    await until(() => held.length === 1, 'the held request to arrive');
    await open();
    await until(() => answered.closed, 'the answered connection to be closed');
    expect(busy.closed).toBe(false);
  });

  it('closes a connection whose body is still arriving for a newcomer, not one whose request is being answered', async () => {
    const { held, posted, open } = await cappedServer(2);
    const busy = await open('/hold');
    await until(() => held.length === 1, 'the held request to arrive');
    const slow = await open('POST /upload');
    slow.socket.write('x');
    await until(() => posted.length === 1, 'the head of the POST to arrive');
    const newcomer = await open('/');
    await until(() => slow.closed, 'the connection still sending its body to be closed');
    expect(busy.closed).toBe(false);
    await until(() => newcomer.text.includes('ok'), 'the newcomer to be answered');
  });
});
