/**
 * Game saves driven exactly as the platform's JavaScript SDK drives its storage methods, written
 * from docs/PLATFORM.md ("Game saves", "Signing", "Errors") and nothing of udcli:
 * retrieveGame (GET api_key and key; the payload's property named key holds JSON text, which the
 * SDK parses, resolving {[key]: value} or false), saveGame (POST with api_key, auth_token and key
 * in the query and the JSON-stringified value in the form body as `data`, signed by the
 * challenge with the body's value among the signed ones) and eraseGame (POST method=delete).
 * The api_key is in upper-case UUID form, as the SDK's examples write it.
 */
import { SDK_DEMO, type SdkReply as Reply, sdkChallenged, sdkSig, sdkSucceeded } from './helpers/sdk-signature.js';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import type { TestSandbox } from './helpers/sandbox.js';

const { PLAYER, API_KEY, GAME } = SDK_DEMO;

type Fields = Record<string, string>;

let sb: TestSandbox;
let authToken: string;

async function send(method: 'GET' | 'POST', path: string, query: Fields, body?: Fields): Promise<Reply> {
  const response = await fetch(`${sb.url}/services/rest/v1/${path}?${new URLSearchParams(query).toString()}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(body ? { body: new URLSearchParams(body).toString() } : {}),
  });
  return { status: response.status, ...((await response.json()) as Omit<Reply, 'status'>) };
}

/** A signed change as the SDK sends it: a POST, its body's values among the signed ones. */
const signedPost = (path: string, query: Fields, body: Fields = {}): Promise<Reply> =>
  sdkChallenged(
    () => send('POST', path, query, body),
    (session, key) => send('POST', path, { ...query, session, sig: sdkSig(path, query, session, key, body) }, body),
  );

/** retrieveGame: resolves {[key]: parsed value}, or false when absent or not JSON. */
async function retrieveGame(key: string): Promise<Record<string, unknown> | false> {
  const r = await send('GET', `gamesave/${PLAYER}.json`, { api_key: API_KEY, key });
  if (!sdkSucceeded(r)) throw new Error(`retrieveGame failed: ${r.message}`);
  const text: unknown = (r.payload as Record<string, unknown>)[key];
  if (typeof text !== 'string') return false;
  try {
    return { [key]: JSON.parse(text) as unknown };
  } catch {
    return false;
  }
}

const saveGame = (key: string, value: unknown, token = authToken) =>
  signedPost(`gamesave/${PLAYER}.json`, { api_key: API_KEY, auth_token: token, key }, { data: JSON.stringify(value) });

const eraseGame = (key: string, token = authToken) =>
  signedPost(`gamesave/${PLAYER}.json`, { api_key: API_KEY, auth_token: token, key, method: 'delete' });

beforeAll(async ({ sb: fileSb }) => {
  sb = fileSb;
  // What the game page hands the game as parent.apiAuth.auth_token: the token generator's.
  const login = await fetch(`${sb.url}/login?username=demo_player`, { method: 'POST' });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  authToken = (
    (await (await fetch(`${sb.url}/service/user-auth-token-generator/${GAME}`, { headers: { cookie } })).json()) as {
      token: string;
    }
  ).token;
});

describe('game saves as the SDK sees them', () => {
  it('retrieveGame resolves false for a key never saved', async () => {
    expect(await retrieveGame('slot1')).toBe(false);
  });

  it('saveGame: the unsigned POST is challenged, the signed retry (data in the body) saves; retrieveGame parses it back', async () => {
    const state = { level: 3, inventory: ['sword', 'gem'], name: 'Zoë & "friends"', ratio: 0.5 };
    const first = await send(
      'POST',
      `gamesave/${PLAYER}.json`,
      { api_key: API_KEY, auth_token: authToken, key: 'slot1' },
      { data: JSON.stringify(state) },
    );
    expect(first.status).toBe(401);
    expect(await retrieveGame('slot1')).toBe(false);
    const r = await saveGame('slot1', state);
    expect(sdkSucceeded(r)).toBe(true);
    expect(r.payload).toEqual({ key: 'slot1', success: 1 });
    expect(await retrieveGame('slot1')).toEqual({ slot1: state });
    // Saved again: replaced.
    expect((await saveGame('slot1', { level: 4 })).payload).toEqual({ key: 'slot1', success: 1 });
    expect(await retrieveGame('slot1')).toEqual({ slot1: { level: 4 } });
  });

  it('saves a 200 KiB state', async () => {
    const state = { map: 'x'.repeat(200 * 1024) };
    expect((await saveGame('big', state)).payload).toEqual({ key: 'big', success: 1 });
    expect(await retrieveGame('big')).toEqual({ big: state });
  });

  it('refuses a body changed after signing (the body is signed), and saves nothing', async () => {
    const path = `gamesave/${PLAYER}.json`;
    const query = { api_key: API_KEY, auth_token: authToken, key: 'slot1' };
    const challenge = await send('POST', path, query, { data: '{"level":99}' });
    const { session, key } = challenge.payload as { session: string; key: string };
    const sig = sdkSig(path, query, session, key, { data: '{"level":99}' });
    const changed = await send('POST', path, { ...query, session, sig }, { data: '{"level":100}' });
    expect(changed.status).toBe(401);
    expect(changed.message).toMatch(/^bad signature/);
    expect(await retrieveGame('slot1')).toEqual({ slot1: { level: 4 } });
  });

  it("fails, with nothing saved, when the auth_token is not the player's: a 403 after the challenge, not retried", async () => {
    const r = await saveGame('slot1', { level: 0 }, 'a'.repeat(32));
    expect(r.status).toBe(403);
    expect(sdkSucceeded(r)).toBe(false);
    expect(r.message).toBe('invalid auth_token (unknown token)');
    expect(await retrieveGame('slot1')).toEqual({ slot1: { level: 4 } });
  });

  it('eraseGame (POST method=delete, signed) erases; retrieveGame then resolves false; erasing again fails with 404', async () => {
    const r = await eraseGame('slot1');
    expect(sdkSucceeded(r)).toBe(true);
    expect(r.payload).toEqual({ slot1: 'deleted' });
    expect(await retrieveGame('slot1')).toBe(false);
    const again = await eraseGame('slot1');
    expect(again.status).toBe(404);
    expect(sdkSucceeded(again)).toBe(false);
  });

  it('retrieveGame resolves false for a value that is not JSON (saved by another client)', async () => {
    const r = await signedPost(
      `gamesave/${PLAYER}.json`,
      { api_key: API_KEY, auth_token: authToken, key: 'raw' },
      { data: 'not json {' },
    );
    expect(sdkSucceeded(r)).toBe(true);
    expect(await retrieveGame('raw')).toBe(false);
  });
});
