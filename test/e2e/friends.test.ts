import { describe, expect, it, fileSandbox } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { json, nowhere, type CliResult, type RunOptions } from './harness.js';

const UID = DEMO.user.uid;
/** The demo player's friend count in the demo seed (more than two pages of 500). */
const DEMO_FRIENDS = 1200;

const env = fileSandbox();

/** Every run also asserts that no demo secret appears in its output. */
const udcli = (args: string[], o?: RunOptions): Promise<CliResult> => env.runChecked(args, o);

interface Friend {
  uid: string;
  username: string;
  gender?: string;
  plays_game?: string;
}

describe('udcli friends', () => {
  it('prints one page as a JSON array (server default 500)', async () => {
    const r = await udcli(['friends', UID, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const friends = json<Friend[]>(r);
    expect(friends).toHaveLength(500);
    for (const f of friends) expect(f.uid).toMatch(/^[0-9a-f]{32}$/);
  });

  it('--page N is the same as --offset (N-1)*limit', async () => {
    const byPage = json<Friend[]>(await udcli(['friends', UID, '--limit', '7', '--page', '3', '--json']));
    const byOffset = json<Friend[]>(await udcli(['friends', UID, '--limit', '7', '--offset', '14', '--json']));
    expect(byPage).toHaveLength(7);
    expect(byPage.map((f) => f.uid)).toEqual(byOffset.map((f) => f.uid));
    const first = json<Friend[]>(await udcli(['friends', UID, '--limit', '7', '--json']));
    expect(first.map((f) => f.uid)).not.toEqual(byPage.map((f) => f.uid));
  });

  it('--all -o ndjson streams every friend, one object a line', async () => {
    const r = await udcli(['friends', UID, '--all', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(DEMO_FRIENDS);
    const uids = new Set(lines.map((l) => (JSON.parse(l) as Friend).uid));
    expect(uids.size).toBe(DEMO_FRIENDS);
  });

  it('--all -o csv has a header and a row per friend', async () => {
    const r = await udcli(['friends', UID, '--all', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split(/\r?\n/);
    expect(lines[0]!.toLowerCase()).toContain('uid');
    expect(lines).toHaveLength(DEMO_FRIENDS + 1);
  });

  it('--all prints the pages in order, as one JSON array with --json, the same friends in every format', async () => {
    const pages = await Promise.all(
      ['0', '500', '1000'].map(async (offset) =>
        json<Friend[]>(await udcli(['friends', UID, '--offset', offset, '--json'])),
      ),
    );
    const expected = pages.flat().map((f) => f.uid);
    expect(expected).toHaveLength(DEMO_FRIENDS);
    const all = await udcli(['friends', UID, '--all', '--json']);
    expect(all.code, all.stderr).toBe(0);
    expect(json<Friend[]>(all).map((f) => f.uid)).toEqual(expected);
    const ndjson = await udcli(['friends', UID, '--all', '-o', 'ndjson', '--fields', 'uid']);
    expect(ndjson.stdout).toBe(expected.map((uid) => `${JSON.stringify({ uid })}\n`).join(''));
    const table = await udcli(['friends', UID, '--all', '-o', 'table']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.trimEnd().split('\n')).toHaveLength(DEMO_FRIENDS + 1);
    expect(table.stderr).toContain('1,200 friends, every page (500 a page)');
  });

  it('a table shows the columns uid, username, gender, plays game', async () => {
    const r = await udcli(['friends', UID, '--limit', '3', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    const header = r.stdout.split('\n')[0]!.toUpperCase();
    for (const h of ['UID', 'USERNAME', 'GENDER', 'PLAYS GAME']) expect(header).toContain(h);
    const friends = json<Friend[]>(await udcli(['friends', UID, '--limit', '3', '--json']));
    for (const f of friends) expect(r.stdout).toContain(f.username);
  });

  it.each([
    [['--offset', '5', '--page', '2'], /--offset and --page cannot be used together/],
    [['--limit', '0'], /invalid --limit "0"/],
    [['--limit', '501'], /invalid --limit "501"/],
    [['--page', '0'], /invalid --page "0"/],
    [['--offset', '-1'], /--offset/],
    [['--all', '--limit', '10'], /--all/],
  ])('usage error (exit 2, nothing sent): %j', async (extra, message) => {
    const r = await udcli(['friends', UID, ...extra, '--verbose'], { env: await nowhere() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/^→ /m); // no request line in the --verbose trace
  });

  it('a username in place of a uid is looked up (issue 12); input that is neither is exit 2', async () => {
    const byName = await udcli(['friends', DEMO.user.username, '--limit', '3', '--json']);
    expect(byName.code, byName.stderr).toBe(0);
    expect(json(byName)).toEqual(json(await udcli(['friends', UID, '--limit', '3', '--json'])));
    const r = await udcli(['friends', 'deadbeef']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('invalid uid "deadbeef": expected 32 hex digits');
  });

  it('a wrong api key: exit 3', async () => {
    const r = await udcli(['friends', UID], { env: { UDCLI_API_KEY: 'f'.repeat(32) } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/api_key/);
    expect(r.stderr).not.toContain('f'.repeat(32));
  });

  it('an unknown user: exit 4', async () => {
    const r = await udcli(['friends', '0'.repeat(32)]);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/not found/);
  });

  it('--verbose shows the requests of every page, api key redacted', async () => {
    const r = await udcli(['friends', UID, '--all', '-o', 'ndjson', '--verbose']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.match(/\/friends\//g)?.length ?? 0).toBeGreaterThanOrEqual(3);
    expect(r.stderr).toContain('0123…cdef');
  });
});
