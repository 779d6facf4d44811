import { spawn } from 'node:child_process';
import { describe, expect, it, fileSandbox } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { BIN, json, type CliResult, type RunOptions } from './harness.js';

const UID = DEMO.user.uid;

interface TokenRecord {
  status: boolean;
  game_id: string;
  uid: string;
  token: string;
  created_on: number;
  expires_on: number;
}

const env = fileSandbox();

/** Every run also asserts that no demo secret appears in its output. */
const udcli = (args: string[], o?: RunOptions): Promise<CliResult> => env.runChecked(args, o);

/** Parses `--export` output into variables. */
function exported(stdout: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of stdout.split('\n')) {
    const m = /^(UDCLI_[A-Z_]+)=(.*)$/.exec(line);
    if (m) vars[m[1]!] = m[2]!;
  }
  return vars;
}

/** Runs a POSIX shell script with the test environment (as a user's terminal would). */
function sh(script: string): Promise<CliResult> {
  const base: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('UDCLI_')) base[k] = v;
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', `udcli() { "$UDCLI_TEST_NODE" "$UDCLI_TEST_BIN" "$@"; }\n${script}`], {
      env: { ...base, ...env.env, NO_COLOR: '1', UDCLI_TEST_NODE: process.execPath, UDCLI_TEST_BIN: BIN },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe('auth token', () => {
  it('--as logs in to the sandbox site and prints the token record', async () => {
    const r = await udcli(['auth', 'token', DEMO.game.id, '--as', DEMO.user.username, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const record = json<TokenRecord>(r);
    expect(record.status).toBe(true);
    expect(record.game_id).toBe(DEMO.game.id);
    expect(record.uid).toBe(UID);
    expect(record.token).toMatch(/^[0-9a-f]{32}$/);
    expect(record.expires_on).toBeGreaterThan(record.created_on);
  });

  it('takes the game from the profile when none is given', async () => {
    const r = await udcli(['auth', 'token', '--as', DEMO.user.username, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(json<TokenRecord>(r).game_id).toBe(DEMO.game.id);
  });

  it('--export prints the variables; auth verify with them succeeds', async () => {
    const r = await udcli(['auth', 'token', DEMO.game.id, '--as', DEMO.user.username, '--export']);
    expect(r.code, r.stderr).toBe(0);
    const vars = exported(r.stdout);
    expect(vars.UDCLI_USER_ID).toBe(UID);
    expect(vars.UDCLI_AUTH_TOKEN).toMatch(/^[0-9a-f]{32}$/);

    const byArgs = await udcli(['auth', 'verify', vars.UDCLI_USER_ID!, vars.UDCLI_AUTH_TOKEN!, '--json']);
    expect(byArgs.code, byArgs.stderr).toBe(0);
    expect(json(byArgs)).toEqual({ uid: UID, username: DEMO.user.username });

    const byEnv = await udcli(['auth', 'verify', '--json'], { env: vars });
    expect(byEnv.code, byEnv.stderr).toBe(0);
    expect(json(byEnv)).toEqual({ uid: UID, username: DEMO.user.username });
  });

  it('eval "$(udcli auth token ... --export)" then udcli auth verify, in a shell', async () => {
    const r = await sh(
      `eval "$(udcli auth token ${DEMO.game.id} --as ${DEMO.user.username} --export)" && udcli auth verify --json`,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ uid: UID, username: DEMO.user.username });
  });

  it('without --as, --cookie or a profile cookie: exit 2', async () => {
    const r = await udcli(['auth', 'token', DEMO.game.id]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--as/);
  });

  it('--as and --cookie together: exit 2', async () => {
    const r = await udcli(['auth', 'token', DEMO.game.id, '--as', 'x', '--cookie', 'y']);
    expect(r.code).toBe(2);
  });

  it('a bad cookie: exit 3 (not logged in to the site)', async () => {
    const r = await udcli(['auth', 'token', DEMO.game.id, '--cookie', 'udcli_session=not-a-session']);
    expect(r.code).toBe(3);
  });
});

describe('auth verify', () => {
  it('a token nobody issued: exit 3 with the server message', async () => {
    const r = await udcli(['auth', 'verify', UID, 'a'.repeat(32)]);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^udcli: not authenticated: invalid token/);
  });

  it('--raw prints the envelope with the null payload and still exits 3', async () => {
    const r = await udcli(['auth', 'verify', UID, 'a'.repeat(32), '--raw']);
    expect(r.code).toBe(3);
    expect(json(r)).toMatchObject({ code: 200, payload: null });
  });

  it("a token of another game does not authenticate with this game's key: exit 3", async () => {
    const rec = json<TokenRecord>(
      await udcli(['auth', 'token', DEMO.secondGame.id, '--as', DEMO.user.username, '--json']),
    );
    const r = await udcli(['auth', 'verify', rec.uid, rec.token]);
    expect(r.code).toBe(3);
  });

  it('a wrong api key: exit 3', async () => {
    const rec = json<TokenRecord>(await udcli(['auth', 'token', DEMO.game.id, '--as', DEMO.user.username, '--json']));
    const r = await udcli(['auth', 'verify', rec.uid, rec.token], { env: { UDCLI_API_KEY: 'b'.repeat(32) } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/api_key/);
  });

  it('malformed ids and missing arguments: exit 2', async () => {
    const bad = await udcli(['auth', 'verify', 'xyz', 'a'.repeat(32)]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('invalid user_id "xyz": expected 32 hex digits');
    const badToken = await udcli(['auth', 'verify', UID, 'short']);
    expect(badToken.code).toBe(2);
    expect(badToken.stderr).toContain('invalid auth_token');
    const missing = await udcli(['auth', 'verify']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('UDCLI_USER_ID');
  });

  it('--verbose never shows the auth token in full', async () => {
    const rec = json<TokenRecord>(await udcli(['auth', 'token', DEMO.game.id, '--as', DEMO.user.username, '--json']));
    const r = await udcli(['auth', 'verify', rec.uid, rec.token, '--verbose', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('/authenticate/user.json');
    expect(r.stderr).not.toContain(rec.token);
    expect(r.stdout).not.toContain(rec.token);
    expect(r.stderr).toContain(`${rec.token.slice(0, 4)}…${rec.token.slice(-4)}`);
  });

  it('--cookie from a site login works; --verbose shows neither the cookie nor the new token in full', async () => {
    const login = await fetch(`${env.sandbox.url}/login?username=${DEMO.user.username}`, { method: 'POST' });
    const setCookie = login.headers.get('set-cookie') ?? '';
    const cookie = setCookie.split(';')[0]!;
    const value = cookie.slice(cookie.indexOf('=') + 1);
    expect(value.length).toBeGreaterThan(8);
    const r = await udcli(['auth', 'token', DEMO.game.id, '--cookie', cookie, '--verbose', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const record = json<TokenRecord>(r);
    expect(record.uid).toBe(UID);
    expect(r.stderr).toContain('/service/user-auth-token-generator/');
    expect(r.stderr).not.toContain(value);
    expect(r.stderr).not.toContain(record.token);
  });
});
