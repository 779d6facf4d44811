/**
 * Every signed command under `agi`, the platform's challenge scheme and udcli's default
 * (issue 9): the built binary against a real sandbox, single and batch, and the lost reply of
 * a signed attempt (unknown, never sent again) through a proxy that drops it. One command under
 * hmac-sha256-v1 keeps that scheme covered. Needs `npm run build` first.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '../fixtures.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { json, type CliResult, type TestEnv } from './harness.js';
import {
  signedAgiRequest,
  startLostReplyProxy,
  type LossOptions,
  type LostReplyProxy,
  type SeenByProxy,
} from './lost-reply-proxy.js';

const DEMO_PLAYER = uidForUsername('demo_player');
const ALICE = uidForUsername('alice');
const BOB = uidForUsername('bob');
const CAROL = uidForUsername('carol');

let env: TestEnv;
let proxy: LostReplyProxy;
/** What the proxy loses and how: every signed attempt's reply unless a test says otherwise. */
let loses: (req: SeenByProxy) => boolean = signedAgiRequest;
let loss: LossOptions = {};
const scratch = mkdtempSync(join(tmpdir(), 'udcli-e2e-agi-'));

beforeAll(async ({ sandbox }) => {
  env = sandbox;
  proxy = await startLostReplyProxy(
    env.sandbox.url,
    (req) => loses(req),
    () => loss,
  );
});
afterAll(async () => {
  await proxy.close();
  rmSync(scratch, { recursive: true, force: true });
});

type Line = { uid: string; status: string; error?: { message: string }; resolved?: { how: string; detail: string } };
const ndjson = (r: CliResult): Line[] =>
  r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
const usersFile = (name: string, uids: string[]): string => {
  const path = join(scratch, name);
  writeFileSync(path, `${uids.join('\n')}\n`);
  return `@${path}`;
};

/** State read back between the commands under test (in-process: see TestEnv.read). */
async function value(uid: string, developerId: string): Promise<number> {
  const r = await env.read(['achievements', 'list', uid, '--developer-id', developerId, '--json']);
  expect(r.code, r.stderr).toBe(0);
  const rows = json<Array<{ developer_id: string; current_value: number | string }>>(r).filter(
    (a) => a.developer_id === developerId,
  );
  return rows.length === 0 ? 0 : Number(rows[0]!.current_value);
}

async function units(uid: string, sku: string): Promise<number> {
  const r = await env.read(['products', 'list', uid, '--sku', sku, '--json']);
  expect(r.code, r.stderr).toBe(0);
  const data = json<Array<{ purchase: { success: boolean; data: unknown } }>>(r)[0]?.purchase.data;
  if (typeof data === 'number') return data;
  if (data && typeof data === 'object') return Number((data as { quantity?: unknown }).quantity ?? 0);
  return 0;
}

describe('agi is the default scheme', () => {
  it('profile show says agi, with verb_override on', async () => {
    const r = await env.run(['profile', 'show', '--json']);
    expect(json(r)).toMatchObject({ signing_scheme: 'agi', verb_override: true });
  });

  it('profile add --signing-scheme / --verb-override; profile show says which', async () => {
    const add = await env.run([
      'profile',
      'add',
      'hm',
      '--base-url',
      env.sandbox.url,
      '--signing-scheme',
      'hmac-sha256-v1',
    ]);
    expect(add.code, add.stderr).toBe(0);
    expect(json(await env.run(['profile', 'show', 'hm', '--json']))).toMatchObject({
      signing_scheme: 'hmac-sha256-v1',
      verb_override: false,
    });
    const add2 = await env.run(['profile', 'add', 'ag', '--base-url', env.sandbox.url, '--verb-override', 'false']);
    expect(add2.code, add2.stderr).toBe(0);
    expect(json(await env.run(['profile', 'show', 'ag', '--json']))).toMatchObject({
      signing_scheme: 'agi',
      verb_override: false,
    });
    const bad = await env.run(['profile', 'add', 'bad', '--base-url', env.sandbox.url, '--signing-scheme', 'md5']);
    expect(bad).toMatchObject({
      code: 2,
      stderr: 'udcli: invalid --signing-scheme "md5": expected agi, hmac-sha256-v1, none\n',
    });
  });

  it('api --sign --dry-run shows the sorted values and the joined string with a placeholder session and key', async () => {
    const r = await env.runChecked([
      'api',
      'PUT',
      `achievements/user/${DEMO_PLAYER}.json`,
      '-f',
      'pid=1001',
      '-f',
      'developer_id=LEVEL_10',
      '-f',
      'increment=1',
      '--sign',
      '--dry-run',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^POST http:\/\/\S+\?api_key=0123…cdef&pid=1001&developer_id=LEVEL_10&increment=1&method=put&session=…&sig=\S+\n/,
    );
    expect(r.stdout).toContain('SESSION and KEY are placeholders');
    expect(r.stdout).toContain(
      `sorted values (signed):\n  0123…cdef\n  ${DEMO_PLAYER}.json\n  1\n  1001\n  KEY\n  LEVEL_10\n  SESSION\n  Shield2\n  put\n`,
    );
    expect(r.stdout).toContain(`0123…cdef${DEMO_PLAYER}.json11001keylevel_10sessionshield2put`);
  });
});

describe('every signed command under agi, single', () => {
  it('inc, set, reset', async () => {
    const before = await value(DEMO_PLAYER, 'COLLECT_1000_GEMS');
    const inc = await env.runChecked(['achievements', 'inc', DEMO_PLAYER, 'COLLECT_1000_GEMS', '--by', '3', '--json']);
    expect(inc.code, inc.stderr).toBe(0);
    expect(Number(json<{ current_value: number }>(inc).current_value)).toBe(before + 3);

    const set = await env.runChecked(['achievements', 'set', DEMO_PLAYER, 'COLLECT_1000_GEMS', '50%', '--json']);
    expect(set.code, set.stderr).toBe(0);
    expect(await value(DEMO_PLAYER, 'COLLECT_1000_GEMS')).toBe(500);

    const reset = await env.runChecked(['achievements', 'reset', DEMO_PLAYER, 'COLLECT_1000_GEMS', '--json']);
    expect(reset.code, reset.stderr).toBe(0);
    expect(await value(DEMO_PLAYER, 'COLLECT_1000_GEMS')).toBe(0);
  });

  it('give and take', async () => {
    const before = await units(ALICE, 'xp-boost');
    const give = await env.runChecked(['products', 'give', ALICE, 'xp-boost', '--qty', '3', '--json']);
    expect(give.code, give.stderr).toBe(0);
    expect(await units(ALICE, 'xp-boost')).toBe(before + 3);
    const take = await env.runChecked(['products', 'take', ALICE, 'xp-boost', '--qty', '2', '--json']);
    expect(take.code, take.stderr).toBe(0);
    expect(await units(ALICE, 'xp-boost')).toBe(before + 1);
  });

  it('hmac-sha256-v1 still works when picked (UDCLI_SIGNING_SCHEME), on a game that accepts it', async () => {
    const before = await value(BOB, 'LEVEL_10');
    const r = await env.runChecked(['achievements', 'inc', BOB, 'LEVEL_10', '--json', '-v'], {
      env: { UDCLI_SIGNING_SCHEME: 'hmac-sha256-v1' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/→ PUT \S+&timestamp=\d+&nonce=[A-Za-z0-9_-]{22}&signature=/);
    expect(r.stderr).not.toMatch(/session=|sig=/);
    expect(await value(BOB, 'LEVEL_10')).toBe(Math.max(before, 1) + 1);
  });

  it('an unknown UDCLI_SIGNING_SCHEME: one line, exit 2, nothing sent', async () => {
    const r = await env.run(['achievements', 'inc', DEMO_PLAYER, 'LEVEL_10'], { env: { UDCLI_SIGNING_SCHEME: 'md5' } });
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe('udcli: invalid UDCLI_SIGNING_SCHEME "md5": expected agi, hmac-sha256-v1, none\n');
  });
});

describe('every signed command under agi, batch', () => {
  const users = [ALICE, BOB, CAROL];

  it('inc, set, reset @FILE', async () => {
    const before = await Promise.all(users.map((u) => value(u, 'DAILY_STREAK_7')));
    const inc = await env.run(['achievements', 'inc', usersFile('inc.txt', users), 'DAILY_STREAK_7', '--by', '2']);
    expect(inc.code, inc.stderr).toBe(0);
    expect(ndjson(inc).map((l) => l.status)).toEqual(['ok', 'ok', 'ok']);
    expect(await Promise.all(users.map((u) => value(u, 'DAILY_STREAK_7')))).toEqual(before.map((v) => v + 2));

    const set = await env.run(['achievements', 'set', usersFile('set.txt', users), 'DAILY_STREAK_7', '1']);
    expect(set.code, set.stderr).toBe(0);
    expect(await Promise.all(users.map((u) => value(u, 'DAILY_STREAK_7')))).toEqual([7, 7, 7]);

    const reset = await env.run(['achievements', 'reset', usersFile('reset.txt', users), 'DAILY_STREAK_7']);
    expect(reset.code, reset.stderr).toBe(0);
    expect(await Promise.all(users.map((u) => value(u, 'DAILY_STREAK_7')))).toEqual([0, 0, 0]);
  });

  it('give and take @FILE', async () => {
    const before = await Promise.all(users.map((u) => units(u, 'gold-pack_10')));
    const give = await env.run(['products', 'give', usersFile('give.txt', users), 'gold-pack_10', '--qty', '2']);
    expect(give.code, give.stderr).toBe(0);
    expect(ndjson(give).map((l) => l.status)).toEqual(['ok', 'ok', 'ok']);
    const take = await env.run(['products', 'take', usersFile('take.txt', users), 'gold-pack_10', '--qty', '1']);
    expect(take.code, take.stderr).toBe(0);
    expect(await Promise.all(users.map((u) => units(u, 'gold-pack_10')))).toEqual(before.map((v) => v + 1));
  });
});

describe('a signed attempt whose reply was lost', () => {
  const viaProxy = { env: { UDCLI_BASE_URL: '' } };
  beforeAll(() => {
    viaProxy.env.UDCLI_BASE_URL = proxy.url;
  });

  afterEach(() => {
    loses = signedAgiRequest;
    loss = {};
  });

  it('single inc: udcli reads the state, finds it applied, and says so (exit 0); never sent again', async () => {
    const before = await value(CAROL, 'COLLECT_1000_GEMS');
    const from = proxy.seen.length;
    const r = await env.runChecked(['achievements', 'inc', CAROL, 'COLLECT_1000_GEMS', '--by', '5'], viaProxy);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `Resolved: the reply was lost, and reading the state shows the change was applied (before ${before}, now ${before + 5}`,
    );
    const seen = proxy.seen.slice(from);
    expect(seen.filter(signedAgiRequest)).toHaveLength(1);
    // The unsigned request, challenged; the GETs read the state before and after.
    expect(seen.filter((s) => !signedAgiRequest(s) && s.method !== 'GET')).toHaveLength(1);
    expect(await value(CAROL, 'COLLECT_1000_GEMS')).toBe(before + 5);
  });

  it('single give whose request was lost on the way: not applied, so sent once more (exit 0)', async () => {
    const held = await units(CAROL, 'gold-pack_10');
    let signed = 0;
    loses = (req) => signedAgiRequest(req) && ++signed === 1;
    loss = { beforeForwarding: true };
    const from = proxy.seen.length;
    const r = await env.runChecked(['products', 'give', CAROL, 'gold-pack_10', '--qty', '3'], viaProxy);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`the change was not applied (before ${held} units, now ${held} units`);
    expect(proxy.seen.slice(from).filter(signedAgiRequest)).toHaveLength(2);
    expect(await units(CAROL, 'gold-pack_10')).toBe(held + 3);
  });

  it('single inc when someone else changed it meanwhile: unknown (exit 5), both values shown', async () => {
    const before = await value(CAROL, 'COLLECT_1000_GEMS');
    loss = {
      meanwhile: async () => void (await env.run(['achievements', 'inc', CAROL, 'COLLECT_1000_GEMS', '--by', '7'])),
    };
    const r = await env.runChecked(['achievements', 'inc', CAROL, 'COLLECT_1000_GEMS', '--by', '5'], viaProxy);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/^udcli: connection lost during POST \S+ \(.*the request may have been processed\)/);
    expect(r.stderr).toContain(
      `read back: before ${before}, now ${before + 12} (applied would be ${before + 5}), so whether it was applied cannot be told`,
    );
    expect(await value(CAROL, 'COLLECT_1000_GEMS')).toBe(before + 12);
  });

  it('batch inc and give: every lost reply resolved as applied (exit 0), one signed request each, each applied once', async () => {
    const users = [ALICE, BOB];
    const before = await Promise.all(users.map((u) => value(u, 'SECRET_ROOM')));
    let from = proxy.seen.length;
    const inc = await env.run(['achievements', 'inc', usersFile('lost-inc.txt', users), 'SECRET_ROOM'], viaProxy);
    expect(inc.code, inc.stderr).toBe(0);
    expect(ndjson(inc).map((l) => [l.status, l.resolved?.how])).toEqual([
      ['ok', 'applied'],
      ['ok', 'applied'],
    ]);
    expect(inc.stderr).toMatch(/2 items: 0 ok, 2 resolved, 0 failed, 0 unknown, 0 skipped/);
    expect(proxy.seen.slice(from).filter(signedAgiRequest)).toHaveLength(2);
    expect(await Promise.all(users.map((u) => value(u, 'SECRET_ROOM')))).toEqual(before.map((v) => Math.min(1, v + 1)));

    const held = await Promise.all(users.map((u) => units(u, 'xp-boost')));
    from = proxy.seen.length;
    const give = await env.run(['products', 'give', usersFile('lost-give.txt', users), 'xp-boost'], viaProxy);
    expect(give.code, give.stderr).toBe(0);
    expect(ndjson(give).map((l) => [l.status, l.resolved?.how])).toEqual([
      ['ok', 'applied'],
      ['ok', 'applied'],
    ]);
    expect(proxy.seen.slice(from).filter(signedAgiRequest)).toHaveLength(2);
    expect(await Promise.all(users.map((u) => units(u, 'xp-boost')))).toEqual(held.map((v) => v + 1));
  });

  it('batch inc when the state does not tell: unknown with both values (exit 6)', async () => {
    const before = await value(ALICE, 'COLLECT_1000_GEMS');
    loss = {
      meanwhile: async () => void (await env.run(['achievements', 'inc', ALICE, 'COLLECT_1000_GEMS', '--by', '2'])),
    };
    const inc = await env.run(
      ['achievements', 'inc', usersFile('lost-inc-2.txt', [ALICE]), 'COLLECT_1000_GEMS', '--by', '3'],
      viaProxy,
    );
    expect(inc.code).toBe(6);
    const [line] = ndjson(inc);
    expect(line).toMatchObject({ status: 'unknown' });
    expect(line!.error!.message).toContain(
      `read back: before ${before}, now ${before + 5} (applied would be ${before + 3})`,
    );
  });
});
