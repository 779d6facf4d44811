/**
 * `--har FILE` / UDCLI_HAR on real commands against a sandbox: every exchange (the read before
 * a change, agi's 401 challenge and the signed retry, each page of --all) lands in the file,
 * which stays a HAR 1.2 across commands, failed ones included, and never holds a secret.
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, fileSandbox } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';

interface Entry {
  request: { method: string; url: string; headers: Array<{ name: string; value: string }> };
  response: { status: number; content: { text?: string } };
}

const env = fileSandbox();
const dir = mkdtempSync(join(tmpdir(), 'har-cli-'));

const entries = (file: string): Entry[] =>
  (JSON.parse(readFileSync(file, 'utf8')) as { log: { entries: Entry[] } }).log.entries;
const path = (e: Entry): string => `${e.request.method} ${new URL(e.request.url).pathname}`;

describe('--har', () => {
  it('records the read before, the challenge and the signed change, then each page of --all, in one file', async () => {
    const file = join(dir, 'session.har');
    const reset = await env.read(['--har', file, 'achievements', 'reset', DEMO.user.uid, 'LEVEL_10', '--yes']);
    expect(reset.code, reset.stderr).toBe(0);
    const afterReset = entries(file);
    expect(afterReset.map((e) => e.response.status)).toEqual(expect.arrayContaining([200, 401]));
    const signed = afterReset.filter((e) => e.request.method === 'POST');
    expect(signed.map((e) => e.response.status)).toEqual([401, 200]);
    expect(new URL(signed[1]!.request.url).searchParams.get('sig')).toMatch(/^redacted-/);
    expect(new URL(signed[1]!.request.url).searchParams.get('session')).toMatch(/^redacted-/);
    // The read before the change comes first.
    expect(afterReset[0]!.request.method).toBe('GET');

    // A hub with more friends than one page holds (500), so --all reads two pages.
    const seeded = await env.read([
      'sandbox',
      'seed',
      '--users',
      '510',
      '--friends',
      '505',
      '--db',
      env.sandbox.dbPath,
      '--json',
    ]);
    expect(seeded.code, seeded.stderr).toBe(0);
    const hub = (JSON.parse(seeded.stdout) as { hub: { uid: string } }).hub.uid;
    const friends = await env.read(['friends', hub, '--all', '-o', 'json'], { env: { UDCLI_HAR: file } });
    expect(friends.code, friends.stderr).toBe(0);
    const pages = entries(file)
      .slice(afterReset.length)
      .filter((e) => path(e).startsWith('GET /services/rest/v1/friends/'));
    expect(pages.length).toBe(2);
    expect(new Set(pages.map((e) => new URL(e.request.url).search)).size).toBe(2);

    // A failed command (404) is recorded too, and the file stays whole.
    const missing = await env.read(['--har', file, 'user', 'ffffffffffffffffffffffffffffffff']);
    expect(missing.code).toBe(4);
    const last = entries(file).at(-1)!;
    expect(last.response.status).toBe(404);

    const text = readFileSync(file, 'utf8');
    for (const secret of [DEMO.game.apiKey, DEMO.game.signingSecret]) expect(text).not.toContain(secret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const har = JSON.parse(text) as { log: { version: string; creator: { name: string } } };
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe('udcli');
  });

  it('a save: the auth token, the site login cookie and the token generator reply become placeholders', async () => {
    const file = join(dir, 'saves.har');
    const set = await env.read(['--har', file, 'saves', 'set', DEMO.user.uid, 'slot1', '{"level":3}', '--yes']);
    expect(set.code, set.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    const recorded = entries(file);
    expect(
      recorded.some(
        (e) => path(e) === `POST /services/rest/v1/gamesave/${DEMO.user.uid}.json` && e.response.status === 200,
      ),
    ).toBe(true);
    for (const e of recorded) {
      const token = new URL(e.request.url).searchParams.get('auth_token');
      if (token !== null) expect(token).toMatch(/^redacted-[0-9a-f]{12}$/);
      for (const h of e.request.headers) if (h.name === 'cookie') expect(h.value).toMatch(/=redacted-/);
    }
    // The generator's token (32 hex digits) appears nowhere in the clear.
    expect(text).not.toMatch(/"auth_token":"[0-9a-f]{32}"/);
    expect(text).not.toMatch(/auth_token=[0-9a-f]{32}/);
  });

  it("players' emails and birthdays become stable placeholders of the same shape; --har-keep-personal keeps them", async () => {
    const file = join(dir, 'personal.har');
    for (const args of [
      ['user', 'alice'],
      ['friends', DEMO.user.uid, '--limit', '50'],
      ['user', DEMO.user.uid],
    ]) {
      const r = await env.read(['--har', file, ...args]);
      expect(r.code, r.stderr).toBe(0);
    }
    const text = readFileSync(file, 'utf8');
    // The demo players' real values (demo-data.ts): alice's, and demo_player's own.
    for (const personal of ['@example.test', '1995-08-23', '1990-04-12']) expect(text).not.toContain(personal);
    const payloads = entries(file).map((e) => (JSON.parse(e.response.content.text!) as { payload: unknown }).payload);
    const alice = payloads[0] as { email: string; birthday: string };
    expect(alice.email).toMatch(/^redacted-[0-9a-f]{12}@example\.invalid$/);
    expect(alice.birthday).toMatch(/^1900-\d\d-\d\d$/);
    // The same player in the friends list: the same placeholders, so a diff still pairs them.
    const asFriend = (payloads[1] as Array<{ username: string; email: string; birthday: string }>).find(
      (f) => f.username === 'alice',
    )!;
    expect([asFriend.email, asFriend.birthday]).toEqual([alice.email, alice.birthday]);
    // Another player, another placeholder; an unknown birthday stays what it says.
    const me = payloads[2] as { email: string };
    expect(me.email).not.toBe(alice.email);
    const unknown = (payloads[1] as Array<{ birthday: string }>).filter((f) => f.birthday === '0000-00-00');
    expect(unknown.length).toBeGreaterThan(0);

    // Such a recording diffs clean against the sandbox it came from.
    const diff = await env.read(['sandbox', 'diff', file, '--json']);
    expect(diff.code, diff.stdout + diff.stderr).toBe(0);

    const kept = join(dir, 'kept.har');
    const r = await env.read(['--har', kept, '--har-keep-personal', 'user', 'alice']);
    expect(r.code, r.stderr).toBe(0);
    const keptUser = (
      JSON.parse(entries(kept)[0]!.response.content.text!) as { payload: { email: string; birthday: string } }
    ).payload;
    expect([keptUser.email, keptUser.birthday]).toEqual(['alice@example.test', '1995-08-23']);
    // The secrets are still replaced.
    expect(readFileSync(kept, 'utf8')).not.toContain(DEMO.game.apiKey);

    // Without a recording to keep them in: said, exit 2.
    const alone = await env.read(['--har-keep-personal', 'user', 'alice']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--har-keep-personal goes with --har FILE/);
    expect(
      (await env.read(['--har-keep-personal', 'user', 'alice'], { env: { UDCLI_HAR: join(dir, 'env.har') } })).code,
    ).toBe(0);
  });

  it('a sandbox reply recorded as it came (redacted in place) still diffs with nothing reported, and imports', async () => {
    const file = join(dir, 'in-place.har');
    for (const args of [
      ['user', 'alice'],
      ['friends', DEMO.user.uid, '--limit', '50'],
      ['achievements', 'list', DEMO.user.uid],
    ]) {
      const r = await env.read(['--har', file, ...args]);
      expect(r.code, r.stderr).toBe(0);
    }
    const diff = await env.read(['sandbox', 'diff', file, '--json']);
    expect(diff.code, diff.stdout + diff.stderr).toBe(0);
    expect(JSON.parse(diff.stdout)).toMatchObject({ differing: 0, differences: [] });
    const imported = await env.read(['sandbox', 'import', file, join(dir, 'in-place.yaml')]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(readFileSync(join(dir, 'in-place.yaml'), 'utf8')).not.toContain('@example.test');
  });

  it('every retry is recorded, each a whole entry (a sandbox whose every reply is a 502 page)', async ({
    newSandbox,
  }) => {
    const faulty = await newSandbox({ faults: { spec: 'html-502=1', seed: 1 } });
    try {
      const file = join(dir, 'retries.har');
      const r = await faulty.read(['--har', file, '--retries', '2', 'user', DEMO.user.uid]);
      expect(r.code).not.toBe(0);
      const recorded = entries(file);
      expect(recorded.map((e) => [path(e), e.response.status])).toEqual([
        [`GET /services/rest/v1/users/${DEMO.user.uid}.json`, 502],
        [`GET /services/rest/v1/users/${DEMO.user.uid}.json`, 502],
        [`GET /services/rest/v1/users/${DEMO.user.uid}.json`, 502],
      ]);
    } finally {
      await faulty.close();
    }
  });
});
