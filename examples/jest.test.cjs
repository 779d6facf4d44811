// npx jest examples/jest.test.cjs (CommonJS: Jest runs ES modules only behind a Node flag)
const path = require('node:path');
const { startSandbox } = require('udcli/sandbox');

let sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ data: path.join(__dirname, 'seed.yaml') });
});
beforeEach(() => sandbox.reset());
afterAll(() => sandbox.stop());

test('reads a player from the sandbox', async () => {
  const alice = sandbox.users.find((u) => u.username === 'qa_alice');
  const reply = await fetch(`${sandbox.url}/services/rest/v1/users/${alice.uid}.json?api_key=${sandbox.apiKey}`);
  expect((await reply.json()).payload.username).toBe('qa_alice');
});

test('a snapshot taken in one test is there to restore in the next', async () => {
  await sandbox.snapshot('seeded');
  await sandbox.load({ users: [] });
  expect(sandbox.users).toEqual([]);
  await sandbox.restore('seeded');
  expect(sandbox.users.map((u) => u.username)).toEqual(['qa_alice', 'qa_bob']);
});
