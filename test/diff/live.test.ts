/**
 * `udcli sandbox diff --live USER`: reads only, from the profile's server (the production
 * stand-in; the sandbox behind a logging proxy), whatever the profile; diffs them as a
 * recording; with --har the reads are kept.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '../fixtures.js';
import { fileStandIn } from './stand-in-cli.js';
import { DEMO } from '../../src/domain/demo.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runInProcess, type TestEnv } from '../e2e/harness.js';
import { startLostReplyProxy, type LostReplyProxy } from '../e2e/lost-reply-proxy.js';
import { STAND_IN } from './platform-stand-in.js';

const { dir, run, standIn } = fileStandIn('diff-live-');

describe('sandbox diff --live', () => {
  it('sends only GET requests, records them with --har, and reports what differs', async () => {
    const har = join(dir, 'live.har');
    standIn().requests.length = 0;
    const diff = await run(['--har', har, 'sandbox', 'diff', '--live', STAND_IN.uid, '--save-key', 'slot1', '--json']);
    expect(diff.code, diff.stderr).toBe(1);
    expect(standIn().requests.length).toBeGreaterThanOrEqual(5);
    expect(standIn().requests.every((r) => r.method === 'GET' && r.override === null)).toBe(true);
    expect(standIn().requests.map((r) => r.path)).toEqual(
      expect.arrayContaining([
        `/services/rest/v1/users/${STAND_IN.uid}.json`,
        `/services/rest/v1/friends/${STAND_IN.uid}.json`,
        `/services/rest/v1/achievements/user/${STAND_IN.uid}.json`,
        `/services/rest/v1/products/user/${STAND_IN.uid}.json`,
        `/services/rest/v1/gamesave/${STAND_IN.uid}.json`,
      ]),
    );
    const report = JSON.parse(diff.stdout) as { differences: Array<{ at: string; kind: string }> };
    expect(report.differences).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'type', at: 'payload.premium' }),
        expect.objectContaining({ kind: 'format', at: '' }),
      ]),
    );
    expect(existsSync(har)).toBe(true);
    const kept = JSON.parse(readFileSync(har, 'utf8')) as { log: { entries: Array<{ request: { method: string } }> } };
    expect(kept.log.entries.map((e) => e.request.method).every((m) => m === 'GET')).toBe(true);
    expect(readFileSync(har, 'utf8')).not.toMatch(/B84276AA|b84276aa/i);
  });

  it('its help says it never sends a change', async () => {
    const help = await run(['sandbox', 'diff', '--help']);
    expect(help.stdout).toMatch(/reads only:\s+it\s+never\s+sends\s+a\s+change/);
  });

  it('refuses a user that is neither a uid nor a name, and --game with a recording, before sending anything', async () => {
    standIn().requests.length = 0;
    const bad = await run(['sandbox', 'diff', '--live', 'not a uid']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/invalid user "not a uid": expected 32 hex digits/);
    const game = await run(['sandbox', 'diff', join(dir, 'live.har'), '--game', '1002']);
    expect(game.code).toBe(2);
    expect(game.stderr).toMatch(/--game goes with --live/);
    expect(standIn().requests).toEqual([]);
  });
});

/**
 * A logging upstream: the real sandbox behind a proxy that notes every request it forwards.
 * The profile can sign (hmac-sha256-v1, a secret): still nothing but GETs, unsigned, whatever
 * the user and game are named by.
 */
describe('sandbox diff --live through a logging upstream', () => {
  let env: TestEnv;
  let proxy: LostReplyProxy;
  beforeAll(async ({ sandbox }) => {
    env = sandbox;
    proxy = await startLostReplyProxy(env.sandbox.url, () => false);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  const live = (args: string[]) =>
    env.run(args, {
      env: {
        UDCLI_BASE_URL: proxy.url,
        UDCLI_API_KEY: DEMO.secondGame.apiKey,
        UDCLI_SIGNING_SCHEME: 'hmac-sha256-v1',
        UDCLI_SIGNING_SECRET: DEMO.secondGame.signingSecret,
        UDCLI_GAME_ID: DEMO.game.id,
      },
    });

  it('takes a username and --game as every command does, and sends only unsigned GETs', async () => {
    const before = await env.read(['sandbox', 'export', '--db', env.sandbox.dbPath, '--format', 'json']);
    proxy.seen.length = 0;
    const diff = await live([
      'sandbox',
      'diff',
      '--live',
      DEMO.user.username,
      '--game',
      DEMO.secondGame.id,
      '--save-key',
      'slot1',
      '--json',
    ]);
    expect(diff.code, diff.stdout + diff.stderr).toBe(0);
    const report = JSON.parse(diff.stdout) as { compared: number; differences: unknown[] };
    expect(report.differences).toEqual([]);
    expect(report.compared).toBeGreaterThanOrEqual(6);

    expect(proxy.seen.length).toBeGreaterThanOrEqual(6);
    for (const seen of proxy.seen) {
      expect(seen.method, seen.url).toBe('GET');
      for (const name of ['method', 'sig', 'session', 'signature', 'timestamp', 'nonce'])
        expect(seen.params.has(name), `${name} in ${seen.url}`).toBe(false);
    }
    const paths = proxy.seen.map((r) => new URL(r.url, 'http://x').pathname);
    expect(paths).toEqual(
      expect.arrayContaining([
        `/services/rest/v1/users/${DEMO.user.username}.json`,
        `/services/rest/v1/users/${DEMO.user.uid}.json`,
        `/services/rest/v1/achievements/${DEMO.secondGame.id}.json`,
        `/services/rest/v1/products/user/${DEMO.user.uid}.json`,
        `/services/rest/v1/gamesave/${DEMO.user.uid}.json`,
      ]),
    );
    expect(proxy.seen.find((r) => r.url.includes('/products/user/'))!.params.get('game_id')).toBe(DEMO.secondGame.id);
    // And the sandbox behind holds what it held.
    const after = await env.read(['sandbox', 'export', '--db', env.sandbox.dbPath, '--format', 'json']);
    expect(after.stdout).toBe(before.stdout);
  });

  it("a username nobody has: the lookup's not found (exit 4), after one GET", async () => {
    proxy.seen.length = 0;
    const r = await live(['sandbox', 'diff', '--live', 'nobody_by_that_name']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/not found/);
    expect(proxy.seen.map((s) => s.method)).toEqual(['GET']);
  });
});

/**
 * The built-in profile with the sandbox it follows (the default database in the data dir): as
 * for `achievements list --game`, the command's --game picks that game's key, so the reads of
 * game 1002 are answered as 1002's.
 */
describe('sandbox diff --live --game with the built-in profile', () => {
  const root = mkdtempSync(join(tmpdir(), 'diff-live-builtin-'));
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      host: '127.0.0.1',
      dbPath: join(root, 'data', 'sandbox.db'),
      log: () => undefined,
    });
  });
  afterAll(async () => sandbox?.close());

  it("uses the named game's key", async () => {
    const har = join(root, 'builtin.har');
    const env = {
      UDCLI_DATA_DIR: join(root, 'data'),
      UDCLI_CONFIG_DIR: join(root, 'config'),
      UDCLI_SANDBOX_PORT: new URL(sandbox.url).port,
    };
    const diff = await runInProcess(
      ['--har', har, 'sandbox', 'diff', '--live', DEMO.user.username, '--game', DEMO.secondGame.id, '--json'],
      env,
    );
    expect(diff.code, diff.stdout + diff.stderr).toBe(0);
    const entries = (
      JSON.parse(readFileSync(har, 'utf8')) as {
        log: { entries: Array<{ request: { url: string }; response: { status: number; content: { text: string } } }> };
      }
    ).log.entries;
    const definitions = entries.find((e) => e.request.url.includes(`/achievements/${DEMO.secondGame.id}.json`))!;
    expect(definitions.response.status).toBe(200);
    const quests = (JSON.parse(definitions.response.content.text) as { payload: Array<{ parent_id: string }> }).payload;
    expect(quests.length).toBeGreaterThan(0);
    expect(quests.every((q) => String(q.parent_id) === DEMO.secondGame.id)).toBe(true);
  });
});
