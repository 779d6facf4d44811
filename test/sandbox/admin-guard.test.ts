/**
 * `/_sandbox/*` answers only requests addressed to the sandbox itself (issue 11, bad input): a
 * request whose Host header names another site (DNS rebinding) is refused. Real HTTP on port 0.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAdminRoute } from '../../src/sandbox/http/admin.js';

let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  app = Fastify();
  registerAdminRoute(app, { method: 'GET', path: '/probe', handler: () => ({ answered: true }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(() => app.close());

function get(host: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/_sandbox/probe', headers: { host } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('/_sandbox address check', () => {
  it('answers when the Host header is the address and port the request came to, or localhost', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
      expect(await get(host)).toEqual({ status: 200, body: { answered: true } });
    }
  });

  it('refuses another name, or the right name with another port, with a JSON 403', async () => {
    for (const host of [`evil.example:${port}`, 'localhost', `127.0.0.1:${port + 1}`]) {
      const reply = await get(host);
      expect(reply.status).toBe(403);
      expect(reply.body).toMatchObject({ status: false, code: 403 });
      expect((reply.body as { message: string }).message).toMatch(/addressed to the sandbox itself/);
    }
  });
});
