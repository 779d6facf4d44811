import { beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import {
  addProfile,
  DEMO_CREDENTIAL_FLAGS,
  json,
  nowhere,
  runOnTerminal,
  type CliResult,
  type RunOptions,
  type TestEnv,
} from './harness.js';

const UID = DEMO.user.uid;

interface Definition {
  id: number;
  developer_id: string;
  name: string;
  start_value: number;
  target_value: number;
  score: number;
  state: string;
}
interface UserAchievement {
  developer_id: string;
  name: string;
  current_value: number;
  target_value: number;
  percent_complete: number;
  state: string;
  completed_date: string | null;
}
interface Update {
  state: string;
  current_value: number;
  percent_complete: number;
  developer_id: string;
}

let env: TestEnv;
let defs: Definition[];
/** An achievement starting at 0 with an even target ≥ 4, so 50% and +2 are exact. */
let counter: Definition;

beforeAll(async ({ sandbox }) => {
  env = sandbox;
  defs = json<Definition[]>(await env.run(['achievements', 'defs', '--json']));
  const found = defs.find((d) => d.start_value === 0 && d.target_value >= 4 && d.target_value % 2 === 0);
  if (!found)
    throw new Error(`the demo seed has no achievement with start 0 and an even target ≥ 4: ${JSON.stringify(defs)}`);
  counter = found;
});

/** Every run also asserts that no demo secret appears in its output. */
const udcli = (args: string[], o?: RunOptions): Promise<CliResult> => env.runChecked(args, o);

async function record(developerId: string): Promise<UserAchievement | undefined> {
  const r = await env.read(['achievements', 'list', UID, '--developer-id', developerId, '--json']);
  expect(r.code, r.stderr).toBe(0);
  // A `Not Started` row is an achievement the user has no record of.
  return json<UserAchievement[]>(r).find((a) => a.developer_id === developerId && a.state !== 'Not Started');
}

/**
 * The counter back at its start, In Progress, for a test whose change a Completed counter would
 * not take (set and inc keep Completed; another test here completes it).
 */
async function restart(): Promise<void> {
  const r = await env.run(['achievements', 'reset', UID, counter.developer_id]);
  expect(r.code, r.stderr).toBe(0);
}

/** The delete prompt answered on a real terminal. */
const onTerminal = (args: string[], input: string): Promise<CliResult> =>
  runOnTerminal(args, env.env, { prompt: '[y/N]', input });

describe('achievements defs', () => {
  it('lists the profile game (UDCLI_GAME_ID) and the same with the game as argument', async () => {
    expect(defs.length).toBeGreaterThan(0);
    const explicit = json<Definition[]>(await udcli(['achievements', 'defs', DEMO.game.id, '--json']));
    expect(explicit.map((d) => d.id)).toEqual(defs.map((d) => d.id));
  });

  it('--aid and --developer-id select one definition', async () => {
    const byAid = json<Definition[]>(await udcli(['achievements', 'defs', '--aid', String(counter.id), '--json']));
    expect(byAid.map((d) => d.developer_id)).toEqual([counter.developer_id]);
    const byKey = json<Definition[]>(
      await udcli(['achievements', 'defs', '--developer-id', counter.developer_id, '--json']),
    );
    expect(byKey.map((d) => d.id)).toEqual([counter.id]);
  });

  it('a table has the id, developer id, name, target, score and state columns', async () => {
    const r = await udcli(['achievements', 'defs', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    const header = r.stdout.split('\n')[0]!.toUpperCase();
    for (const h of ['ID', 'DEVELOPER ID', 'NAME', 'TARGET', 'SCORE', 'STATE']) expect(header).toContain(h);
    expect(r.stdout).toContain(counter.name);
  });

  it("a game other than the api key's own: exit 3, the server says whose key it is", async () => {
    const r = await udcli(['achievements', 'defs', '999999']);
    expect(r.code).toBe(3);
    expect(r.stderr.split('\n')[0]).toBe('udcli: forbidden: this api_key belongs to game 1001');
    expect(r.stderr.split('\n')[1]).toMatch(
      /--game, or the profile's game_id\), or a profile with the other game's api_key/,
    );
  });

  it('no game anywhere: exit 2 before any request', async () => {
    await addProfile(udcli, 'nogame', env.sandbox.url, ...DEMO_CREDENTIAL_FLAGS);
    const noGameEnv = { ...(await nowhere()), UDCLI_GAME_ID: undefined, UDCLI_PROFILE: 'nogame' };
    for (const args of [
      ['achievements', 'defs'],
      ['achievements', 'list', UID],
      ['achievements', 'inc', UID, counter.developer_id],
      ['products', 'list', UID],
    ]) {
      const r = await udcli([...args, '--verbose'], { env: noGameEnv });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/no game: .*game_id in the profile/);
      expect(r.stderr).not.toMatch(/^→ /m); // no request line in the --verbose trace
    }
  });
});

describe('achievements inc / set / reset / delete / list', () => {
  it('reset brings the value back to the start', async () => {
    const r = await udcli(['achievements', 'reset', UID, counter.developer_id, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(json<Update>(r)).toMatchObject({
      developer_id: counter.developer_id,
      current_value: counter.start_value,
      state: 'In Progress',
    });
  });

  it('inc twice raises current_value by 2 (default --by 1)', async () => {
    await restart();
    const before = (await record(counter.developer_id))!.current_value;
    for (let i = 0; i < 2; i++) {
      const r = await udcli(['achievements', 'inc', UID, counter.developer_id, '--json']);
      expect(r.code, r.stderr).toBe(0);
    }
    expect((await record(counter.developer_id))!.current_value).toBe(before + 2);
    const r = await udcli(['achievements', 'inc', UID.toUpperCase(), counter.developer_id, '--by', '1', '--json']);
    expect(json<Update>(r).current_value).toBe(before + 3);
  });

  it('set 50% gives percent_complete 50; the table shows value/target (percent)', async () => {
    await restart();
    const r = await udcli(['achievements', 'set', UID, counter.developer_id, '50%', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const update = json<Update>(r);
    expect(update.percent_complete).toBe(50);
    expect(update.current_value).toBe(counter.target_value / 2);
    const table = await udcli(['achievements', 'list', UID, '-o', 'table']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain(`${counter.target_value / 2}/${counter.target_value} (50%)`);
  });

  it('set 0 and set 1 (Completed, 100%, completed date shown)', async () => {
    const zero = json<Update>(await udcli(['achievements', 'set', UID, counter.developer_id, '0', '--json']));
    expect(zero).toMatchObject({ current_value: counter.start_value, percent_complete: 0 });
    const done = json<Update>(await udcli(['achievements', 'set', UID, counter.developer_id, '1', '--json']));
    expect(done).toMatchObject({ state: 'Completed', percent_complete: 100, current_value: counter.target_value });
    const rec = await record(counter.developer_id);
    expect(rec?.completed_date).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const table = await udcli(['achievements', 'list', UID, '--developer-id', counter.developer_id, '-o', 'table']);
    expect(table.stdout).toContain(`${rec!.completed_date!.replace(' ', 'T')}Z`);
    expect(table.stdout).toContain(`${counter.target_value}/${counter.target_value} (100%)`);
  });

  it('reset after completion: In Progress again, the zero completed date', async () => {
    const done = await udcli(['achievements', 'set', UID, counter.developer_id, '1', '--json']);
    expect(json<Update>(done).state).toBe('Completed');
    const r = await udcli(['achievements', 'reset', UID, counter.developer_id, '--json']);
    expect(json<Update>(r)).toMatchObject({ state: 'In Progress', current_value: counter.start_value });
    expect((await record(counter.developer_id))?.completed_date).toBe('0000-00-00 00:00:00');
  });

  it('the list: filter, order, --all and --fields', async () => {
    const all = json<UserAchievement[]>(await udcli(['achievements', 'list', UID, '--json']));
    expect(all.length).toBeGreaterThan(0);
    const paged = json<UserAchievement[]>(await udcli(['achievements', 'list', UID, '--all', '--json']));
    expect(paged.map((a) => a.developer_id).sort()).toEqual(all.map((a) => a.developer_id).sort());
    // The order is the service's, of the records; the Not Started rows udcli adds come after them.
    const asc = json<UserAchievement[]>(
      await udcli(['achievements', 'list', UID, '--order', 'name', '--sort', 'asc', '--json']),
    );
    expect(asc.length).toBe(all.length);
    const ascStarted = json<UserAchievement[]>(
      await udcli(['achievements', 'list', UID, '--started', '--order', 'name', '--sort', 'asc', '--json']),
    );
    const descStarted = json<UserAchievement[]>(
      await udcli(['achievements', 'list', UID, '--started', '--order', 'name', '--sort', 'DESC', '--json']),
    );
    expect(asc.slice(0, ascStarted.length)).toEqual(ascStarted);
    expect(descStarted.map((a) => a.developer_id)).toEqual([...ascStarted].reverse().map((a) => a.developer_id));
    const started = json<UserAchievement[]>(
      await udcli(['achievements', 'list', UID, '--filter', 'state', '--match', 'In Progress', '--json']),
    );
    expect(started.length).toBeGreaterThan(0);
    expect(started.every((a) => a.state === 'In Progress')).toBe(true);
    const narrow = json<Array<Record<string, unknown>>>(
      await udcli(['achievements', 'list', UID, '--json', '--fields', 'developer_id,state']),
    );
    for (const row of narrow) expect(Object.keys(row)).toEqual(['developer_id', 'state']);
  });

  it('every listed row shows as value/target (percent) in a table', async () => {
    const rows = json<UserAchievement[]>(await udcli(['achievements', 'list', UID, '--json']));
    const table = await udcli(['achievements', 'list', UID, '-o', 'table']);
    for (const a of rows)
      expect(table.stdout).toContain(`${a.current_value}/${a.target_value} (${a.percent_complete}%)`);
  });

  it('delete off a terminal needs --yes (it cannot ask); with it, the list no longer has it', async () => {
    await udcli(['achievements', 'inc', UID, counter.developer_id]);
    const refused = await udcli(['achievements', 'delete', UID, counter.developer_id, '--json'], { input: 'y\n' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/without --yes/);
    expect(await record(counter.developer_id)).toBeDefined();
    const r = await udcli(['achievements', 'delete', UID, counter.developer_id, '--json', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/\[y\/N\]/);
    expect(json<UserAchievement>(r).developer_id).toBe(counter.developer_id);
    expect(await record(counter.developer_id)).toBeUndefined();
    const again = await udcli(['achievements', 'delete', UID, counter.developer_id, '--yes']);
    expect(again.code).toBe(4);
  });

  it('delete on a terminal asks first: "n" cancels and changes nothing, "y" deletes', async () => {
    expect(await record('FIRST_WIN')).toBeDefined();
    const no = await onTerminal(['achievements', 'delete', UID, 'FIRST_WIN'], 'n\n');
    expect(no.stdout).toContain(
      `Delete achievement FIRST_WIN of user ${UID} (1/1 Completed, completed 2024-05-01 10:05:00)? [y/N]`,
    );
    expect(no.stdout).toMatch(/cancelled/);
    expect(no.code).toBe(2);
    expect(await record('FIRST_WIN')).toBeDefined();
    const yes = await onTerminal(['achievements', 'delete', UID, 'FIRST_WIN', '--json'], 'y\n');
    expect(yes.code, yes.stdout).toBe(0);
    expect(await record('FIRST_WIN')).toBeUndefined();
  });

  it('--verbose on a signed PUT shows the request with secrets redacted', async () => {
    const r = await udcli(['achievements', 'inc', UID, counter.developer_id, '--verbose', '--json']);
    expect(r.code, r.stderr).toBe(0);
    // issue 9: under agi, the unsigned POST method=put, its 401 challenge, then the signed one.
    expect(r.stderr).toMatch(/→ POST \S+&method=put\n← 401 /);
    expect(r.stderr).toMatch(
      /→ POST \S+&method=put&session=[0-9a-f]{4}…[0-9a-f]{4}&sig=[0-9a-f]{4}…[0-9a-f]{4}\n← 200 /,
    );
    expect(r.stderr).toContain('0123…cdef');
    expect(r.stderr).not.toMatch(/(sig|session|key)=[0-9a-f]{32}/); // no full signature, session or key
  });
});

describe('a developer_id with a space, a slash and a percent sign', () => {
  const KEY = 'SPEED RUN/100%';
  it('inc, list and reset reach exactly that achievement', async () => {
    expect(defs.map((d) => d.developer_id)).toContain(KEY);
    const inc = await udcli(['achievements', 'inc', UID, KEY, '--by', '5', '--json']);
    expect(inc.code, inc.stderr).toBe(0);
    expect(json<Update>(inc)).toMatchObject({ developer_id: KEY, current_value: 5 });
    expect((await record(KEY))?.current_value).toBe(5);
    const reset = await udcli(['achievements', 'reset', UID, KEY, '--json']);
    expect(json<Update>(reset).current_value).toBe(0);
  });
});

describe('achievements errors', () => {
  it.each([
    [['set', UID, 'X', '1.5'], /invalid progress "1.5"/],
    [['set', UID, 'X', '101%'], /invalid progress "101%"/],
    [['set', UID, 'X', 'half'], /invalid progress/],
    [['inc', UID, 'X', '--by', '0'], /invalid --by "0"/],
    [['inc', UID, 'X', '--by', '1.5'], /invalid --by "1.5"/],
    [['inc', 'abc123', 'X'], /invalid uid "abc123": expected 32 hex digits/], // short hex: neither a uid nor a name
    [['list', UID, '--order', 'score'], /invalid --order "score"/],
    [['list', UID, '--sort', 'up'], /invalid --sort/],
    [['list', UID, '--filter', 'colour', '--match', 'x'], /invalid --filter/],
    [['list', UID, '--match', 'x'], /--match needs --filter/],
    [['list', UID, '--limit', '1001'], /invalid --limit/],
    [['list', UID, '--type', 'App'], /expected Game or Website/],
    [['defs', '--aid', 'one'], /invalid --aid/],
  ])('usage error (exit 2, nothing sent): %j', async (args, message) => {
    const r = await udcli(['achievements', ...args, '--verbose'], { env: await nowhere() });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/^→ /m); // no request line in the --verbose trace
  });

  it('an unknown developer_id: exit 4', async () => {
    const r = await udcli(['achievements', 'inc', UID, 'NO_SUCH_ACHIEVEMENT']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/not found/);
  });

  it('an unknown user: exit 4', async () => {
    const r = await udcli(['achievements', 'list', '0'.repeat(32)]);
    expect(r.code).toBe(4);
  });

  // issue 9: only hmac-sha256-v1 has a secret of ours (agi's key comes from the server's challenge).
  it('hmac-sha256-v1 with a wrong signing secret: exit 3, nothing changes', async () => {
    const before = (await record(counter.developer_id))?.current_value;
    const r = await udcli(['achievements', 'inc', UID, counter.developer_id], {
      env: { UDCLI_SIGNING_SCHEME: 'hmac-sha256-v1', UDCLI_SIGNING_SECRET: 'not-the-secret' },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/signature/);
    expect((await record(counter.developer_id))?.current_value).toBe(before);
  });
});
