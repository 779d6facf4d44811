/**
 * The CLI and the sandbox read one contract (src/domain/contract.ts): what the CLI refuses before
 * sending is exactly what the sandbox refuses when it arrives, at the limit and one over. The
 * limits are written here from docs/SERVICE.md's words (a save key is 1–64 characters of
 * `A-Z a-z 0-9 _ . -`; a value is at most 256 KiB), not read from the module, so a change of the
 * module's value that the spec does not make fails here too. The same for the list's orders and
 * filters, named in docs/SERVICE.md.
 *
 * The CLI runs in-process (`main` with an injected IO) against a real sandbox on port 0; the
 * sandbox is also asked directly over HTTP, unsigned: it checks parameters before the signature
 * (pipeline.ts), so a value it accepts gets the signing challenge (401), one it refuses a 400.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, fileSandbox } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { API_PREFIX } from '../../src/domain/types.js';
import { withDb } from '../e2e/harness.js';
import { until } from '../until.js';
import { fileScratch } from '../scratch.js';

const PLAYER = DEMO.user.uid;
const KEY_MAX = 64;
const VALUE_MAX_BYTES = 256 * 1024;

const env = fileSandbox();
const scratch = fileScratch('udcli-contract-');

function stored(key: string): string | null {
  return withDb(env, (db) => {
    const row = db
      .prepare('SELECT value FROM game_saves WHERE uid = ? AND game_id = ? AND key = ?')
      .get(PLAYER, DEMO.game.id, key) as { value: string } | undefined;
    return row?.value ?? null;
  });
}

/**
 * The sandbox's answer to an unsigned save of `data` under `key` (a well-formed token: it is judged after the
 * signature).
 */
async function sandboxSave(key: string, data: string): Promise<{ status: number; message: string }> {
  const query = new URLSearchParams({ api_key: DEMO.game.apiKey, key, auth_token: 'a'.repeat(32) });
  const r = await fetch(`${env.sandbox.url}${API_PREFIX}/gamesave/${PLAYER}.json?${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ data }).toString(),
  });
  const body = (await r.json()) as { message: string };
  return { status: r.status, message: body.message };
}

interface Logged {
  path: string;
  query: string;
}

/**
 * The requests the sandbox logged up to a marker request made after the CLI ran: the log is
 * written once the reply has gone, so the marker's entry is waited for, never a time.
 */
async function loggedUntilMarker(): Promise<Logged[]> {
  const marker = `marker${Date.now()}`;
  await fetch(
    `${env.sandbox.url}${API_PREFIX}/gamesave/${PLAYER}.json?${new URLSearchParams({ api_key: DEMO.game.apiKey, key: marker })}`,
  );
  return until(
    async () => {
      const r = await fetch(`${env.sandbox.url}/_sandbox/requests`);
      const { requests } = (await r.json()) as { requests: Logged[] };
      return requests.some((q) => q.query.includes(marker)) && requests;
    },
    'the marker request in the log',
    { intervalMs: 10 },
  );
}

async function cliSave(key: string, value: string): Promise<{ code: number; stderr: string }> {
  const file = join(scratch, `${key.slice(0, 20)}-${value.length}.txt`);
  writeFileSync(file, value);
  return env.read(['saves', 'set', PLAYER, key, `@${file}`]);
}

describe('save bounds: the CLI refuses exactly what the sandbox refuses', () => {
  it(`a value of ${VALUE_MAX_BYTES} bytes of UTF-8 is saved by both; one byte more is refused by both, and the CLI sends nothing`, async () => {
    // Two-byte characters: the bound counts UTF-8 bytes, not characters.
    const atLimit = 'é'.repeat(VALUE_MAX_BYTES / 2);
    const over = `${atLimit}a`;
    expect(Buffer.byteLength(atLimit)).toBe(VALUE_MAX_BYTES);

    expect(await sandboxSave('full', atLimit)).toMatchObject({
      status: 401,
      message: expect.stringMatching(/^signature required/),
    });
    expect(await sandboxSave('full', over)).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^invalid parameter: data/),
    });

    const saved = await cliSave('fullbycli', atLimit);
    expect(saved.code, saved.stderr).toBe(0);
    expect(stored('fullbycli')).toBe(atLimit);

    const refused = await cliSave('toolarge', over);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/too large/);
    const logged = await loggedUntilMarker();
    expect(logged.some((q) => q.query.includes('key=fullbycli'))).toBe(true);
    expect(logged.some((q) => q.query.includes('key=toolarge'))).toBe(false);
    expect(stored('toolarge')).toBeNull();
  });

  it(`a key of ${KEY_MAX} characters is taken by both; ${KEY_MAX + 1} is refused by both, and the CLI sends nothing`, async () => {
    const atLimit = 'k'.repeat(KEY_MAX);
    const over = 'q'.repeat(KEY_MAX + 1);

    expect(await sandboxSave('j'.repeat(KEY_MAX), 'v')).toMatchObject({ status: 401 });
    expect(await sandboxSave(over, 'v')).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^invalid parameter: key/),
    });

    const saved = await cliSave(atLimit, 'v');
    expect(saved.code, saved.stderr).toBe(0);
    expect(stored(atLimit)).toBe('v');

    // Another key of that length than the one sent directly above, so the log tells them apart.
    const overByCli = 'r'.repeat(KEY_MAX + 1);
    const refused = await cliSave(overByCli, 'v');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/invalid key/);
    const logged = await loggedUntilMarker();
    expect(logged.some((q) => q.query.includes(atLimit))).toBe(true);
    expect(logged.some((q) => q.query.includes(overByCli))).toBe(false);
  });
});

/** The sandbox's answer to the user's achievements list with these parameters (a read: unsigned). */
async function sandboxList(params: Record<string, string>): Promise<{ status: number; message: string }> {
  const query = new URLSearchParams({ api_key: DEMO.game.apiKey, pid: DEMO.game.id, ...params });
  const r = await fetch(`${env.sandbox.url}${API_PREFIX}/achievements/user/${PLAYER}.json?${query}`);
  const body = (await r.json()) as { message: string };
  return { status: r.status, message: body.message };
}

describe('list orders and filters: the CLI takes exactly what the sandbox takes', () => {
  // docs/SERVICE.md, GET user achievements: `order` and `filter`, in its words.
  const ORDERS = ['started_date', 'completed_date', 'state', 'parent_id', 'percent_complete', 'name'];
  const FILTERS = ['parent', 'name', 'percent_complete', 'state', 'parent_id'];

  it.each(ORDERS)('order %s: taken by both', async (order) => {
    expect(await sandboxList({ order })).toMatchObject({ status: 200 });
    const r = await env.read(['achievements', 'list', PLAYER, '--started', '--order', order, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
  });

  it.each(FILTERS)('filter %s: taken by both', async (filter) => {
    const match = filter === 'percent_complete' ? '>=0' : 'a';
    expect(await sandboxList({ filter, match })).toMatchObject({ status: 200 });
    const r = await env.read(['achievements', 'list', PLAYER, '--filter', filter, '--match', match, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
  });

  it('an order or a filter the spec does not name is refused by both', async () => {
    expect(await sandboxList({ order: 'score' })).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^invalid parameter: order/),
    });
    expect(await sandboxList({ filter: 'score', match: '1' })).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^invalid parameter: filter/),
    });
    expect((await env.read(['achievements', 'list', PLAYER, '--started', '--order', 'score'])).code).toBe(2);
    expect((await env.read(['achievements', 'list', PLAYER, '--filter', 'score', '--match', '1'])).code).toBe(2);
  });
});
