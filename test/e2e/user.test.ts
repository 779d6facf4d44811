import { describe, expect, it, fileSandbox } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { closedPort, json, type CliResult, type RunOptions } from './harness.js';

const UID = DEMO.user.uid;

const env = fileSandbox();

/** Runs the CLI and checks that no secret appears in full in anything it printed. */
/** Every run also asserts that no demo secret appears in its output. */
const udcli = (args: string[], o?: RunOptions): Promise<CliResult> => env.runChecked(args, o);

interface User {
  uid: string;
  username: string;
  avatar: string;
  gender?: string;
  created_on?: string;
  plays_game?: string;
}

describe('udcli user', () => {
  it('looks a username up and prints the user as JSON', async () => {
    const r = await udcli(['user', DEMO.user.username, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const user = json<User>(r);
    expect(user.uid).toBe(UID);
    expect(user.username).toBe(DEMO.user.username);
    expect(typeof user.gender).toBe('string');
    expect(user.created_on).toMatch(/^\d+$/);
  });

  it('takes a uid in upper case', async () => {
    const r = await udcli(['user', UID.toUpperCase(), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(json<User>(r).username).toBe(DEMO.user.username);
  });

  it('--public asks without the api key and gets the reduced user', async () => {
    const r = await udcli(['user', DEMO.user.username, '--public', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const user = json<Record<string, unknown>>(r);
    expect(user.uid).toBe(UID);
    expect(
      Object.keys(user)
        .filter((k) => k !== 'plays_game')
        .sort(),
    ).toEqual(['avatar', 'uid', 'username']);
  });

  it('--username looks a 32-hex argument up as a username (none here: exit 4)', async () => {
    const r = await udcli(['user', UID, '--username']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/not found/);
  });

  it('prints a table with an ISO creation date', async () => {
    const data = json<User>(await udcli(['user', UID, '--json']));
    const r = await udcli(['user', UID, '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(DEMO.user.username);
    const iso = new Date(Number(data.created_on) * 1000).toISOString().slice(0, 19);
    expect(r.stdout).toContain(iso);
  });

  it('--fields narrows the JSON to the named keys', async () => {
    const r = await udcli(['user', UID, '--json', '--fields', 'uid,username']);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toEqual({ uid: UID, username: DEMO.user.username });
  });

  it('--raw prints the envelope exactly as received', async () => {
    const r = await udcli(['user', UID, '--raw']);
    expect(r.code, r.stderr).toBe(0);
    const envelope = json<{ version: number; code: number; message: string; payload: User }>(r);
    expect(envelope).toMatchObject({ version: 1, code: 200, message: 'OK' });
    expect(envelope.payload.uid).toBe(UID);
  });

  it('unknown user: exit 4 with a one-line error', async () => {
    const r = await udcli(['user', 'no_such_player_here']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^udcli: .*not found/);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    const byUid = await udcli(['user', '0'.repeat(32)]);
    expect(byUid.code).toBe(4);
  });

  it('--verbose traces the request on stderr with the api key redacted', async () => {
    const r = await udcli(['user', UID, '--json', '--verbose']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`/users/${UID}.json`);
    expect(r.stderr).toContain('0123…cdef');
  });

  it('nothing listening: exit 5', async () => {
    const port = await closedPort();
    const r = await udcli(['user', UID], {
      env: { UDCLI_BASE_URL: `http://127.0.0.1:${port}`, UDCLI_SITE_URL: `http://127.0.0.1:${port}` },
    });
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^udcli: /);
  });
});
