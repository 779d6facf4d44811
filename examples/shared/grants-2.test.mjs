// Shares the run's sandbox (./global-setup.mjs) through a worker's own game: what it grants, no other file sees.
import { beforeAll, beforeEach, expect, inject, test } from 'vitest';
import { connectSandbox } from 'udcli/sandbox';

let worker;
let alice;
beforeAll(async () => {
  worker = await connectSandbox(inject('sandbox')).worker('file-2');
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
