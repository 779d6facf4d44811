// node --test examples/node-test.test.mjs
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startSandbox } from 'udcli/sandbox';
import { playerName } from './player-name.mjs';

let sandbox;
before(async () => {
  sandbox = await startSandbox({ data: fileURLToPath(new URL('./seed.yaml', import.meta.url)) });
});
beforeEach(() => sandbox.reset());
after(() => sandbox.stop());

test('reads a player from the sandbox', async () => {
  const alice = sandbox.users.find((u) => u.username === 'qa_alice');
  assert.equal(await playerName(sandbox.url, sandbox.apiKey, alice.uid), 'qa_alice');
  assert.deepEqual(
    (await sandbox.requests()).map((r) => r.status),
    [200],
  );
});

test('each test starts from the seed: the request log is empty again', async () => {
  assert.deepEqual(await sandbox.requests(), []);
});
