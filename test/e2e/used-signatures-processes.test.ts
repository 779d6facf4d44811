/**
 * Issue 40, 7 with the processes a user has: a sandbox in one process, `udcli sandbox start
 * --detach --db` of the same database in another. An hmac-sha256-v1 signed give one of them
 * accepted is refused by the other (before: each process kept its own set, and both granted it).
 * The built binary, since two processes are the subject. Needs `npm run build`.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '../fixtures.js';
import { canonicalString, hmacSha256Hex } from '../../src/domain/signing.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { API_PREFIX } from '../../src/domain/types.js';
import { closedPort, runCli, type TestEnv } from './harness.js';

let env: TestEnv;
let otherEnv: NodeJS.ProcessEnv;
let otherUrl: string;
beforeAll(async ({ sandbox }) => {
  env = sandbox;
  otherEnv = { UDCLI_DATA_DIR: join(env.dataDir, 'other'), UDCLI_CONFIG_DIR: join(env.configDir, 'other') };
  const started = await runCli(
    ['sandbox', 'start', '--detach', '--port', String(await closedPort()), '--db', env.sandbox.dbPath],
    otherEnv,
    { timeoutMs: 40_000 },
  );
  expect(started.code, started.stderr).toBe(0);
  otherUrl = started.stdout.trim();
}, 60_000);
afterAll(async () => {
  if (otherEnv) await runCli(['sandbox', 'stop'], otherEnv, { timeoutMs: 30_000 });
  await env?.close();
}, 40_000);

const PATH = `${API_PREFIX}/products/user/${uidForUsername('bob')}.json`;
const held = async (): Promise<number> => {
  const r = await fetch(`${env.sandbox.url}${PATH}?api_key=${DEMO.game.apiKey}&parent_id=${DEMO.game.id}&sku=gems`);
  return ((await r.json()) as { payload: Array<{ purchase: { data: number } }> }).payload[0]?.purchase.data ?? 0;
};

describe('two sandbox processes on one database', () => {
  it('a signed give accepted by one is refused by the other, both ways: granted once each', async () => {
    const before = await held();
    for (const [first, second] of [
      [env.sandbox.url, otherUrl],
      [otherUrl, env.sandbox.url],
    ] as const) {
      // A captured request: the replay sends the very same parameters, nonce and signature.
      const params: Array<[string, string]> = [
        ['api_key', DEMO.game.apiKey],
        ['parent_id', DEMO.game.id],
        ['sku', 'gems'],
        ['qty', '1'],
        ['increment', 'true'],
        ['nonce', `process-test-${first === otherUrl ? 'b' : 'a'}-0123456789`],
        ['timestamp', String(Math.floor(Date.now() / 1000))],
      ];
      params.push(['signature', hmacSha256Hex(DEMO.game.signingSecret, canonicalString('PUT', PATH, params))]);
      const query = new URLSearchParams(params).toString();
      const accepted = await fetch(`${first}${PATH}?${query}`, { method: 'PUT' });
      expect(accepted.status, await accepted.text()).toBe(200);
      const replay = await fetch(`${second}${PATH}?${query}`, { method: 'PUT' });
      expect(replay.status).toBe(401);
      expect(((await replay.json()) as { message: string }).message).toMatch(
        /^signature already used \(hmac-sha256-v1/,
      );
    }
    expect(await held()).toBe(before + 2);
  }, 30_000);
});
