// The tests of ./grants-1.test.mjs and ./grants-2.test.mjs: each file takes a worker's own game in the run's sandbox
// (./global-setup.mjs), so what it grants no other file sees.
import { beforeAll, beforeEach, expect, inject, test } from 'vitest';
import { connectSandbox } from 'udcli/sandbox';

export function grantTests(workerId) {
  let worker;
  let alice;
  beforeAll(async () => {
    worker = await connectSandbox(inject('sandbox')).worker(workerId);
    alice = worker.users.find((u) => u.username === 'qa_alice');
  });
  beforeEach(() => worker.reset());

  const products = () => `${worker.url}/services/rest/v1/products/user/${alice.uid}.json?api_key=${worker.apiKey}`;
  const holds = async (sku) =>
    (await (await fetch(`${products()}&parent_id=${worker.gameId}&sku=${sku}`)).json()).payload[0].purchase.success;

  test("a grant made here is this file's alone", async () => {
    const grant = await fetch(products(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `parent_id=${worker.gameId}&sku=hover-boots&qty=1`,
    });
    expect(grant.status).toBe(200);
    expect(await holds('hover-boots')).toBe(true);
  });

  test('reset() gave this file a fresh copy of the game', async () => {
    expect(await holds('hover-boots')).toBe(false);
  });
}
