/**
 * The sandbox's Fastify instances carry compilers that refuse every schema (src/sandbox/http/no-schemas.ts):
 * Fastify's own would load Ajv at every start for routes that declare none. A route that declared one
 * would fail to register, naming why, rather than go unchecked.
 */
import { describe, expect, it } from 'vitest';
import { createFastify } from '../../src/sandbox/app/fastify-instance.js';

describe('a Fastify schema on a sandbox route', () => {
  it.for([
    ['a querystring schema', { querystring: { type: 'object' } }],
    ['a response schema', { response: { 200: { type: 'object' } } }],
  ] as const)('%s: the app does not start, and says the endpoint table checks requests', async ([, schema]) => {
    const app = createFastify(false, { requestTimeoutMs: 1000 });
    app.get('/x', { schema }, async () => ({}));
    await expect(app.ready()).rejects.toThrow(/declares no Fastify schemas \(the endpoint table checks requests\)/);
    await app.close();
  });

  it('a route without one serves as ever', async () => {
    const app = createFastify(false, { requestTimeoutMs: 1000 });
    app.get('/x', async () => ({ ok: true }));
    const reply = await app.inject({ method: 'GET', url: '/x' });
    expect(reply.json()).toEqual({ ok: true });
    await app.close();
  });
});
