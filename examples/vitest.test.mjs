// npx vitest run examples/vitest.test.mjs
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { startSandbox } from 'udcli/sandbox';
import { playerName } from './player-name.mjs';

let sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ data: fileURLToPath(new URL('./seed.yaml', import.meta.url)) });
});
beforeEach(() => sandbox.reset());
afterAll(() => sandbox.stop());

test('reads a player from the sandbox', async () => {
  const bob = sandbox.users.find((u) => u.username === 'qa_bob');
  expect(await playerName(sandbox.url, sandbox.apiKey, bob.uid)).toBe('qa_bob');
  expect(await sandbox.requests()).toHaveLength(1);
});

test('the sandbox clock moves on demand and reset() puts it back', async () => {
  await sandbox.clock.set('2030-01-01T00:00:00Z');
  expect((await sandbox.clock.now()).getUTCFullYear()).toBe(2030);
  await sandbox.reset();
  expect((await sandbox.clock.now()).getUTCFullYear()).toBeLessThan(2030);
});
