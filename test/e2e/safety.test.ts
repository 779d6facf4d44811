/**
 * Support-staff safety, end to end (issue 15): validation before sending, undo commands that
 * land on the same server and actually undo, receipts that say what the server did, an audit
 * line for every mutation, asking before a delete, and batch input that cannot be empty.
 * The built binary against a real sandbox; state is read back from the sandbox after each run.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, fileSandbox } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import {
  addProfile,
  DEMO_CREDENTIAL_FLAGS,
  json,
  runPrinted,
  nowhere,
  runInProcess,
  runOnTerminal,
  type CliResult,
  type RunOptions,
} from './harness.js';
import { fileScratch } from '../scratch.js';

const PLAYER = DEMO.user.uid;
const ALICE = uidForUsername('alice');
const CAROL = uidForUsername('carol');
const DAVE = uidForUsername('dave');

const env = fileSandbox();
const scratch = fileScratch('udcli-e2e-safety-');

const udcli = (args: string[], o?: RunOptions): Promise<CliResult> => env.runChecked(args, o);

interface Row {
  developer_id: string;
  current_value: number;
  state: string;
  id?: number | null;
  completed_date?: string;
}

/** The user's record of one achievement as the sandbox now has it (undefined: none). */
async function achievement(uid: string, developerId: string): Promise<Row | undefined> {
  const r = await env.read(['achievements', 'list', uid, '--developer-id', developerId, '--json']);
  expect(r.code, r.stderr).toBe(0);
  const row = json<Row[]>(r).find((a) => a.developer_id === developerId);
  return row && row.state !== 'Not Started' ? row : undefined;
}

/** Units of a product the user holds, whatever form purchase.data takes. */
async function held(uid: string, sku: string): Promise<number> {
  const r = await env.read(['products', 'list', uid, '--sku', sku, '--json']);
  expect(r.code, r.stderr).toBe(0);
  const entry = json<Array<{ purchase: { success?: boolean; data: unknown }; product: { sku: string } }>>(r).find(
    (e) => e.product.sku === sku,
  );
  const data = entry?.purchase.data;
  if (data && typeof data === 'object' && 'quantity' in data) return Number((data as { quantity: number }).quantity);
  return typeof data === 'number' ? data : 0;
}

/** The audit log's outcome lines (each change's intent, written ahead, left out: it closes nothing). */
function auditLines(): Array<{ command: string; uid: string; change: string; undo: string | null; profile: string }> {
  const path = join(env.configDir, 'audit.log');
  return existsSync(path)
    ? readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .filter((e: { kind?: string }) => e.kind !== 'intent')
    : [];
}

/** The `Undo:` line of a receipt. */
function undoOf(r: CliResult): string {
  const line = r.stderr.split('\n').find((l) => l.startsWith('Undo:'));
  if (!line) throw new Error(`no Undo line (exit ${r.code}):\n${r.stderr}`);
  return line.replace(/^Undo:\s+/, '');
}

describe('bug 1: output options are checked before anything is sent', () => {
  it('products give --fields nosuchfield: exit 2, nothing granted, no audit line', async () => {
    const before = await held(ALICE, 'xp-boost');
    const lines = auditLines().length;
    const r = await udcli(['products', 'give', ALICE, 'xp-boost', '--qty', '1', '--fields', 'nosuchfield']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/unknown field "nosuchfield"/);
    expect(r.stderr).not.toMatch(/^Changed:/m);
    expect(await held(ALICE, 'xp-boost')).toBe(before);
    expect(auditLines()).toHaveLength(lines);
  });

  it('achievements inc --fields bogus: exit 2 and the value is unchanged', async () => {
    const before = (await achievement(PLAYER, 'LEVEL_10'))?.current_value;
    const r = await udcli(['achievements', 'inc', PLAYER, 'LEVEL_10', '--fields', 'bogus']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/unknown field "bogus"/);
    expect((await achievement(PLAYER, 'LEVEL_10'))?.current_value).toBe(before);
  });

  it('a known field of the reply still works after the change', async () => {
    const r = await udcli(['achievements', 'inc', PLAYER, 'LEVEL_10', '--fields', 'current_value,state', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(json<object>(r))).toEqual(['current_value', 'state']);
    await udcli(['achievements', 'set', PLAYER, 'LEVEL_10', '33%']); // back to 4/10
  });

  it('batch mode: --raw and an unknown --fields field are refused before anything is sent (-o and --fields work, issue 22)', async () => {
    const before = await held(ALICE, 'xp-boost');
    for (const extra of [['--fields', 'nosuch'], ['--raw']]) {
      const r = await udcli(['products', 'give', '@-', 'xp-boost', ...extra], { input: 'alice\n' });
      expect(r.code, `${extra.join(' ')}: ${r.stderr}`).toBe(2);
    }
    expect(await held(ALICE, 'xp-boost')).toBe(before);
  });
});

describe('bug 2: the undo lands on the server the change was made on', () => {
  let clean: NodeJS.ProcessEnv;
  beforeAll(async () => {
    await addProfile(udcli, 'prod2', env.sandbox.url, ...DEMO_CREDENTIAL_FLAGS, '--game-id', DEMO.game.id);
    // No UDCLI_BASE_URL & co.: the default (built-in sandbox) profile would reach another
    // server, an embedded sandbox in this data dir, so an undo without --profile misses.
    const closed = await nowhere();
    clean = {
      UDCLI_CONFIG_DIR: env.configDir,
      UDCLI_DATA_DIR: join(scratch, 'data'),
      UDCLI_SANDBOX_PORT: new URL(closed.UDCLI_BASE_URL!).port,
    };
  });

  it('take under --profile prod2 prints an undo with --profile prod2, and running it as printed restores the units', async () => {
    const before = await held(ALICE, 'xp-boost');
    const take = await runInProcess(['--profile', 'prod2', 'products', 'take', ALICE, 'xp-boost', '--qty', '1'], clean);
    expect(take.code, take.stderr).toBe(0);
    expect(undoOf(take)).toBe(`udcli products give ${ALICE} xp-boost --qty 1 --profile prod2`);
    expect(auditLines().at(-1)).toMatchObject({
      profile: 'prod2',
      undo: `udcli products give ${ALICE} xp-boost --qty 1 --profile prod2`,
    });
    expect(await held(ALICE, 'xp-boost')).toBe(before - 1);
    const undo = await runPrinted(undoOf(take), clean);
    expect(undo.code, undo.stderr).toBe(0);
    expect(await held(ALICE, 'xp-boost')).toBe(before);
  }, 60_000);

  it('a developer_id with a space and a percent sign is shell-quoted, so the printed undo runs', async () => {
    expect((await achievement(ALICE, 'SPEED RUN/100%'))?.state).toBe('Completed');
    const reset = await runInProcess(['--profile', 'prod2', 'achievements', 'reset', ALICE, 'SPEED RUN/100%'], clean);
    expect(reset.code, reset.stderr).toBe(0);
    expect(undoOf(reset)).toBe(`udcli achievements set ${ALICE} 'SPEED RUN/100%' 100% --profile prod2`);
    const undo = await runPrinted(undoOf(reset), clean);
    expect(undo.code, undo.stderr).toBe(0);
    expect(await achievement(ALICE, 'SPEED RUN/100%')).toMatchObject({ current_value: 100, state: 'Completed' });
  }, 60_000);

  it('--base-url given as a flag is carried too', async () => {
    const r = await runInProcess(
      ['--base-url', env.sandbox.url, '--profile', 'prod2', 'products', 'give', ALICE, 'xp-boost'],
      clean,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(undoOf(r)).toBe(
      `udcli products take ${ALICE} xp-boost --qty 1 --profile prod2 --base-url ${env.sandbox.url}`,
    );
    expect((await runPrinted(undoOf(r), clean)).code).toBe(0);
  }, 60_000);
});

describe('bug 3: Completed is kept through set', () => {
  it('set 100% from 4/10: the undo is reset then set, and running it brings back 4/10 In Progress', async () => {
    expect(await achievement(PLAYER, 'LEVEL_10')).toMatchObject({ current_value: 4, state: 'In Progress' });
    const r = await udcli(['achievements', 'set', PLAYER, 'LEVEL_10', '100%']);
    expect(r.code, r.stderr).toBe(0);
    const scope = `--profile sandbox --base-url ${env.sandbox.url}`;
    expect(undoOf(r)).toBe(
      `udcli achievements reset ${PLAYER} LEVEL_10 ${scope} && udcli achievements set ${PLAYER} LEVEL_10 33% ${scope}`,
    );
    const undo = await runPrinted(undoOf(r), env.env);
    expect(undo.code, undo.stderr).toBe(0);
    expect(await achievement(PLAYER, 'LEVEL_10')).toMatchObject({ current_value: 4, state: 'In Progress' });
  });

  it('set 50% on a Completed achievement: exit 1, says nothing changed and how to lower it', async () => {
    expect((await achievement(ALICE, 'FIRST_WIN'))?.state).toBe('Completed');
    const done = await udcli(['achievements', 'set', ALICE, 'SPEED RUN/100%', '50%']);
    expect(done.code).toBe(1);
    expect(done.stderr).toContain(
      `udcli: nothing changed: SPEED RUN/100% of ${ALICE.slice(0, 4)}… is Completed (100/100) and set does not lower a completed achievement`,
    );
    const scope = `--profile sandbox --base-url ${env.sandbox.url}`;
    expect(done.stderr).toContain(
      `udcli achievements reset ${ALICE} 'SPEED RUN/100%' ${scope} && udcli achievements set ${ALICE} 'SPEED RUN/100%' 50% ${scope}`,
    );
    expect(await achievement(ALICE, 'SPEED RUN/100%')).toMatchObject({ current_value: 100, state: 'Completed' });
  });
});

describe('bug 4: a reset of a record that does not exist', () => {
  // The contract (from the platform's pages): a reset creates the record when absent, like a
  // submit. The receipt says so, and its undo deletes the record again.
  it('starts the quest at its start value; the receipt says it did not exist, the undo deletes it', async () => {
    expect(await achievement(CAROL, 'FIRST_WIN')).toBeUndefined();
    const r = await udcli(['achievements', 'reset', CAROL, 'FIRST_WIN']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Changed: FIRST_WIN of ${CAROL.slice(0, 4)}…: (none) → 0/1 In Progress`);
    expect(r.stderr).toMatch(new RegExp(`^Undo:\\s+udcli achievements delete ${CAROL} FIRST_WIN `, 'm'));
    expect(await achievement(CAROL, 'FIRST_WIN')).toMatchObject({
      state: 'In Progress',
      current_value: 0,
      completed_date: '0000-00-00 00:00:00',
    });
    expect(auditLines().at(-1)).toMatchObject({ uid: CAROL, undo: expect.stringMatching(/achievements delete/) });
  });

  it('a batch reports the same for each such user', async () => {
    const r = await udcli(['achievements', 'reset', '@-', 'SECRET_ROOM'], { input: 'carol\ndave\n' });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { uid: string; result: { change: string; undo: unknown } });
    expect(lines.map((l) => l.uid).sort()).toEqual([CAROL, DAVE].sort());
    for (const l of lines)
      expect(l.result).toMatchObject({
        change: expect.stringMatching(/\(none\) → 0\/1 In Progress/),
        undo: expect.stringMatching(/achievements delete/),
      });
  });
});

describe('bug 5: every mutation is in the audit log', () => {
  it('inc and give, single and batch', async () => {
    const count = (pattern: RegExp) => auditLines().filter((e) => pattern.test(e.command)).length;
    const inc = count(/^udcli achievements inc /);
    const give = count(/^udcli products give /);
    expect((await udcli(['achievements', 'inc', PLAYER, 'COLLECT_1000_GEMS'])).code).toBe(0);
    expect((await udcli(['products', 'give', PLAYER, 'xp-boost'])).code).toBe(0);
    expect((await udcli(['achievements', 'inc', '@-', 'COLLECT_1000_GEMS'], { input: 'alice\nbob\n' })).code).toBe(0);
    expect((await udcli(['products', 'give', '@-', 'xp-boost', '--post'], { input: 'alice\nbob\n' })).code).toBe(0);
    expect(count(/^udcli achievements inc /)).toBe(inc + 3);
    expect(count(/^udcli products give /)).toBe(give + 3);
    const last = auditLines().at(-1)!;
    expect(last.command).toMatch(/--post/);
    expect(last.undo).toMatch(
      /^udcli products take \w+ xp-boost --qty 1 --profile sandbox --base-url http:\/\/127\.0\.0\.1:\d+$/,
    );
  });
});

describe('bug 7: delete asks, or needs --yes', () => {
  const deleteFirstWinOnTerminal = (o: { input: string; stdinFromDevNull?: boolean }) =>
    runOnTerminal(['achievements', 'delete', PLAYER, 'FIRST_WIN'], env.env, { prompt: '[y/N]', ...o });
  it('off a terminal without --yes: exit 2, nothing deleted', async () => {
    expect(await achievement(PLAYER, 'COLLECT_1000_GEMS')).toBeDefined();
    const r = await udcli(['achievements', 'delete', PLAYER, 'COLLECT_1000_GEMS'], { input: 'y\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--yes/);
    expect(await achievement(PLAYER, 'COLLECT_1000_GEMS')).toBeDefined();
  });

  it('on a terminal with stdin from /dev/null: exit 2, nothing deleted', async () => {
    const r = await deleteFirstWinOnTerminal({ input: 'y\n', stdinFromDevNull: true });
    expect(r.code, r.stdout).toBe(2);
    expect(r.stdout).toMatch(/--yes/);
    expect(await achievement(PLAYER, 'FIRST_WIN')).toBeDefined();
  });

  it('the prompt shows what will be lost; Ctrl-D ends its line before "cancelled"', async () => {
    const r = await deleteFirstWinOnTerminal({ input: '\u0004' });
    expect(r.stdout).toContain(`Delete achievement FIRST_WIN of user ${PLAYER} (1/1 Completed`);
    expect(r.stdout).toMatch(/^udcli: cancelled/m);
    expect(r.code).toBe(2);
    expect(await achievement(PLAYER, 'FIRST_WIN')).toBeDefined();
  });

  it('--yes deletes off a terminal', async () => {
    const r = await udcli(['achievements', 'delete', PLAYER, 'DAILY_STREAK_7', '--yes']);
    expect([0, 4]).toContain(r.code); // 4 when the user never had a record of it
    await udcli(['achievements', 'inc', PLAYER, 'DAILY_STREAK_7']);
    const again = await udcli(['achievements', 'delete', PLAYER, 'DAILY_STREAK_7', '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(await achievement(PLAYER, 'DAILY_STREAK_7')).toBeUndefined();
  });
});

describe('bug 8: batch input that holds no users', () => {
  it('an empty @FILE, or one of comments only, or empty stdin: exit 2 "no users in ..."', async () => {
    const empty = join(scratch, 'empty.txt');
    writeFileSync(empty, '');
    const comments = join(scratch, 'comments.txt');
    writeFileSync(comments, '# testers\n\n   \n# none yet\n');
    for (const [spec, name] of [
      [`@${empty}`, 'empty.txt'],
      [`@${comments}`, 'comments.txt'],
    ] as const) {
      const r = await udcli(['achievements', 'reset', spec, 'FIRST_WIN']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`udcli: no users in ${name}`);
      expect(r.stdout).toBe('');
    }
    const stdin = await udcli(['products', 'give', '@-', 'xp-boost'], { input: '# nobody\n' });
    expect(stdin.code, stdin.stderr).toBe(2);
    expect(stdin.stderr).toContain('udcli: no users in standard input');
  });

  it('udcli user @file says batch input is not supported there', async () => {
    const r = await udcli(['user', '@testers.txt'], { env: await nowhere() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/batch input \(@FILE\) is not supported by `udcli user`/);
  });
});

describe('bug 6: a server that is not the service', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><body><h1>404 Not Found</h1></body></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('doctor fails reachability and the key check (exit 1)', async () => {
    const r = await udcli(['doctor', '-o', 'json'], { env: { UDCLI_BASE_URL: url, UDCLI_SITE_URL: url } });
    expect(r.code, r.stderr).toBe(1);
    const checks = json<Array<{ check: string; status: string; detail: string }>>(r);
    expect(checks.find((c) => c.check === 'server')).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/not the service's envelope/),
    });
    expect(checks.find((c) => c.check === 'api key')?.status).not.toBe('ok');
  });

  it('a data command against it exits 1, not 4', async () => {
    const r = await udcli(['user', 'demo_player'], { env: { UDCLI_BASE_URL: url, UDCLI_SITE_URL: url } });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/HTTP 404/);
    expect(r.stderr).toMatch(/base_url/);
  });

  it('doctor still passes against the sandbox', async () => {
    const r = await udcli(['doctor', '-o', 'json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const checks = json<Array<{ check: string; status: string }>>(r);
    expect(checks.find((c) => c.check === 'server')?.status).toBe('ok');
    expect(checks.find((c) => c.check === 'api key')?.status).toBe('ok');
  });
});

describe('polish: arguments that look wrong', () => {
  it('swapped <uid> and <developer_id>: says so, shows the right order, sends nothing', async () => {
    const r = await udcli(['achievements', 'inc', 'LEVEL_10', PLAYER], { env: await nowhere() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `udcli: arguments look swapped: "${PLAYER}" is a uid and "LEVEL_10" looks like the developer_id`,
    );
    expect(r.stderr).toContain(`udcli achievements inc ${PLAYER} LEVEL_10`);
    const take = await udcli(['products', 'take', 'xp-boost', PLAYER], { env: await nowhere() });
    expect(take.code).toBe(2);
    expect(take.stderr).toMatch(/arguments look swapped/);
  });

  it('an unknown developer_id or sku: the closest known one and where to list them', async () => {
    const ach = await udcli(['achievements', 'inc', PLAYER, 'LEVEL_1O']);
    expect(ach.code).toBe(4);
    expect(ach.stderr).toContain('did you mean LEVEL_10? list them with: udcli achievements defs 1001');
    const sku = await udcli(['products', 'give', PLAYER, 'xp-bost']);
    expect(sku.code).toBe(4);
    expect(sku.stderr).toContain(`did you mean xp-boost? list them with: udcli products list ${PLAYER}`);
    const far = await udcli(['products', 'take', PLAYER, 'zzzzzzzzzz']);
    expect(far.code).toBe(4);
    expect(far.stderr).not.toMatch(/did you mean/);
    expect(far.stderr).toContain(`list them with: udcli products list ${PLAYER}`);
  });
});
