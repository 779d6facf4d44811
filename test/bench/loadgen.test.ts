/**
 * The bench's load generator measures something even when its window is gone before its connections start (a
 * process descheduled on a loaded machine during a short --smoke window): each connection sends one request.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript module of the bench, without types.
import { runLoad } from '../../bench/loadgen.js';

describe('bench/loadgen.js', () => {
  it('sends one request a connection when the window has passed before they start', async () => {
    const server = createServer((_request, reply) => reply.end('{}'));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const { port } = server.address() as AddressInfo;
      const r = (await runLoad({ url: `http://127.0.0.1:${port}`, path: '/', connections: 4, durationMs: 0 })) as {
        ok: number;
        rps: number;
      };
      expect(r.ok).toBe(4);
      expect(r.rps).toBeGreaterThan(0);
    } finally {
      server.close();
    }
  });
});
