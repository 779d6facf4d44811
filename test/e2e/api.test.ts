import { beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { json, nowhere, type CliResult, type RunOptions, type TestEnv } from './harness.js';

const UID = DEMO.user.uid;
const ACH_PATH = `achievements/user/${UID}.json`;

interface Envelope<T = unknown> {
  version: number;
  code: number;
  message: string;
  payload: T;
}
interface UserAchievement {
  developer_id: string;
  current_value: number;
}

let env: TestEnv;
/** An achievement of the demo game that is not yet complete after a reset. */
let developerId: string;

beforeAll(async ({ sandbox }) => {
  env = sandbox;
  const defs = json<Array<{ developer_id: string; start_value: number; target_value: number }>>(
    await env.run(['achievements', 'defs', '--json']),
  );
  const def = defs.find((d) => d.target_value - d.start_value >= 3);
  if (!def) throw new Error('the demo seed has no achievement with a target 3 above its start');
  developerId = def.developer_id;
  const reset = await env.run(['achievements', 'reset', UID, developerId]);
  if (reset.code !== 0) throw new Error(reset.stderr);
});

/** Every run also asserts that no demo secret appears in its output. */
const udcli = (args: string[], o?: RunOptions): Promise<CliResult> => env.runChecked(args, o);

async function currentValue(): Promise<number | undefined> {
  const r = await env.read(['achievements', 'list', UID, '--developer-id', developerId, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return json<UserAchievement[]>(r).find((a) => a.developer_id === developerId)?.current_value;
}

/** The -f fields of a signed increment of `developerId`. */
function putFields(): string[] {
  return ['-f', 'type=Game', '-f', `pid=${DEMO.game.id}`, '-f', `developer_id=${developerId}`, '-f', 'increment=1'];
}

describe('udcli api', () => {
  it('GET users/<uid>.json prints the envelope', async () => {
    const r = await udcli(['api', 'GET', `users/${UID}.json`]);
    expect(r.code, r.stderr).toBe(0);
    const envelope = json<Envelope<{ uid: string; username: string; gender?: string }>>(r);
    expect(envelope).toMatchObject({ version: 1, code: 200, message: 'OK' });
    expect(envelope.payload.uid).toBe(UID);
    expect(envelope.payload.gender).toBeDefined(); // the api key was sent
  });

  it('accepts a lower-case method, a leading slash, a full service path and -f fields', async () => {
    const a = await udcli(['api', 'get', `/users/${DEMO.user.username}.json`, '-f', 'username=1']);
    expect(a.code, a.stderr).toBe(0);
    expect(json<Envelope<{ uid: string }>>(a).payload.uid).toBe(UID);
    const b = await udcli(['api', 'GET', `/services/rest/v1/users/${DEMO.user.username}.json?username=true`]);
    expect(b.code, b.stderr).toBe(0);
    expect(json<Envelope<{ uid: string }>>(b).payload.uid).toBe(UID);
  });

  // issue 9: agi is the default; the canonical string is hmac-sha256-v1's (agi: test/e2e/agi.test.ts).
  const HMAC = { env: { UDCLI_SIGNING_SCHEME: 'hmac-sha256-v1' } };

  it('hmac: PUT --sign --dry-run prints the request and the canonical string, secrets redacted, and sends nothing', async () => {
    const before = await currentValue();
    const r = await udcli(['api', 'PUT', ACH_PATH, ...putFields(), '--sign', '--dry-run'], HMAC);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n').map((l) => l.trim());
    expect(lines[0]).toMatch(
      new RegExp(`^PUT http://127\\.0\\.0\\.1:\\d+/services/rest/v1/${ACH_PATH.replaceAll('.', '\\.')}\\?`),
    );
    expect(lines[0]).toContain('api_key=0123…cdef');
    expect(lines[0]).toMatch(/signature=[0-9a-f]{4}…[0-9a-f]{4}/);
    // The canonical string: method, path, then the sorted query without the signature.
    const at = lines.indexOf(`/services/rest/v1/${ACH_PATH}`);
    expect(at).toBeGreaterThan(0);
    expect(lines[at - 1]).toBe('PUT');
    expect(lines[at + 1]).toMatch(
      new RegExp(
        `^api_key=0123…cdef&developer_id=${developerId}&increment=1&nonce=[A-Za-z0-9_-]{22}&pid=${DEMO.game.id}&timestamp=\\d+&type=Game$`,
      ),
    );
    expect(await currentValue()).toBe(before);
  });

  it('hmac: --dry-run --json prints the prepared request as an object', async () => {
    const r = await udcli(['api', 'PUT', ACH_PATH, ...putFields(), '--sign', '--dry-run', '--json'], HMAC);
    expect(r.code, r.stderr).toBe(0);
    const shown = json<{ method: string; url: string; canonical: string }>(r);
    expect(shown.method).toBe('PUT');
    expect(shown.canonical.split('\n')[0]).toBe('PUT');
    expect(shown.canonical).toContain('api_key=0123…cdef');
  });

  it('PUT --sign sends a signed increment', async () => {
    const before = (await currentValue()) ?? 0;
    const r = await udcli(['api', 'PUT', ACH_PATH, ...putFields(), '--sign']);
    expect(r.code, r.stderr).toBe(0);
    const envelope = json<Envelope<{ current_value: number }>>(r);
    expect(envelope.code).toBe(200);
    expect(envelope.payload.current_value).toBe(before + 1);
    expect(await currentValue()).toBe(before + 1);
  });

  it('an unsigned PUT: the challenge envelope on stdout, exit 3, nothing changes', async () => {
    const before = await currentValue();
    const r = await udcli(['api', 'PUT', ACH_PATH, ...putFields()]);
    expect(r.code).toBe(3);
    // issue 9: under agi the sandbox answers an unsigned change with the 401 challenge (was 403).
    expect(json<Envelope>(r)).toMatchObject({
      code: 401,
      payload: { session: expect.stringMatching(/^[0-9a-f]{32}$/), key: expect.stringMatching(/^[0-9a-f]{32}$/) },
    });
    expect(r.stderr).toMatch(/signature required/);
    expect(await currentValue()).toBe(before);
  });

  it('an unknown user: the 404 envelope on stdout, exit 4', async () => {
    const r = await udcli(['api', 'GET', `friends/${'0'.repeat(32)}.json`]);
    expect(r.code).toBe(4);
    expect(json<Envelope>(r)).toMatchObject({ code: 404, payload: null });
  });

  it('a wrong api key given with -f replaces the profile key: exit 3', async () => {
    const r = await udcli(['api', 'GET', `friends/${UID}.json`, '-f', `api_key=${'c'.repeat(32)}`, '--verbose']);
    expect(r.code).toBe(3);
    expect(json<Envelope>(r)).toMatchObject({ code: 401 });
    expect(r.stderr).not.toContain('c'.repeat(32));
  });

  it.each([
    [['FETCH', 'users/x.json'], /invalid method "FETCH"/],
    [['GET', 'https://example.com/users/x.json'], /relative to the base URL/],
    [['GET', 'users/x.json', '-f', 'novalue'], /expected name=value/],
    [['GET', '../secret'], /\.\./],
  ])('usage error (exit 2, nothing sent): %j', async (args, message) => {
    const r = await udcli(['api', ...args, '--verbose'], { env: await nowhere() });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/^→ /m); // no request line in the --verbose trace
  });
});
