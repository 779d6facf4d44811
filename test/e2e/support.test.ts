/**
 * Issue 22, support staff and CI: lost reads before a change are `failed` with `sent: false` and a
 * rerun with the journal sends them (`unknown` only for what was sent); the audit line names the
 * server and the undo reaches it; a failure after sending is reported and audited alike; `give`
 * of a pack gives packs; `doctor` checks the key's game. Needs `npm run build` first.
 */
import { writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, type NewSandbox, type SandboxOptions } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { generatedUsername } from '../../src/sandbox/seed/demo.js';
import { auditLog, json, runPrinted, runInProcess, runOnTerminal, type CliResult, type TestEnv } from './harness.js';
import { signedAgiRequest, startLostReplyProxy } from './lost-reply-proxy.js';
import { fileScratch } from '../scratch.js';

const UID = DEMO.user.uid;
const scratch = fileScratch('udcli-e2e-support-');
let newSandbox: NewSandbox;
beforeAll(({ newSandbox: start }) => {
  newSandbox = start;
});
function sandbox(options: SandboxOptions = {}): Promise<TestEnv> {
  return newSandbox(options);
}

interface Item {
  input: string;
  uid: string | null;
  status: string;
  sent?: boolean;
  error?: { message: string };
}
const items = (r: CliResult): Item[] =>
  r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Item);

function auditLines(env: TestEnv): Array<Record<string, unknown>> {
  return auditLog(env.configDir);
}

async function held(env: TestEnv, uid: string, sku: string): Promise<number> {
  const r = await env.read(['products', 'list', uid, '--sku', sku, '--json']);
  expect(r.code, r.stderr).toBe(0);
  const data = json<Array<{ purchase: { data: unknown } }>>(r)[0]?.purchase.data;
  if (data && typeof data === 'object' && 'quantity' in data) return Number((data as { quantity: number }).quantity);
  return typeof data === 'number' ? data : 0;
}

describe('lost reads before a change (issue 22, point 1)', () => {
  it('products give @fifty.txt gems --journal j under faults: no item unknown that was never sent; a rerun sends the failed ones', async () => {
    // Slow replies only reorder the run (the CLI's timeout is far above them): 200 ms does that
    // as well as seconds would.
    const env = await sandbox({ faults: { spec: 'reset=0.2,html-502=0.1,truncated=0.1,slow=0.1:200ms', seed: 22 } });
    const proxy = await startLostReplyProxy(env.sandbox.url, () => false);
    try {
      const users = Array.from({ length: 50 }, (_, i) => generatedUsername(i + 1));
      const list = join(scratch, 'fifty.txt');
      writeFileSync(list, `${users.join('\n')}\n`);
      const journal = join(scratch, 'fifty.journal');
      const viaProxy = { UDCLI_BASE_URL: proxy.url, UDCLI_SITE_URL: proxy.url };
      // One retry (not the default two) so that, whatever order the fault draws fall in, some reads
      // still fail after their retries: about 8 of 50.
      const first = await runInProcess(
        ['products', 'give', `@${list}`, 'gems', '--journal', journal, '--retries', '1'],
        { ...env.env, ...viaProxy },
      );
      const results = items(first);
      expect(results, first.stderr).toHaveLength(50);
      const signedFor = (uid: string) =>
        proxy.seen.some((s) => signedAgiRequest(s) && s.url.includes(`/products/user/${uid}`));
      for (const item of results.filter((i) => i.status === 'unknown')) {
        expect(item.sent, JSON.stringify(item)).toBe(true);
        expect(signedFor(item.uid!), `unknown ${item.input} was never sent`).toBe(true);
      }
      const notSent = results.filter((i) => i.status === 'failed' && i.sent === false);
      for (const item of notSent) {
        // Nothing reached the server as a change for it.
        if (item.uid) expect(signedFor(item.uid), `${item.input} said not sent: ${JSON.stringify(item)}`).toBe(false);
      }
      // The seed gives some of each: the run shows both kinds apart.
      expect(notSent.length).toBeGreaterThan(0);
      expect(first.code).toBe(6);

      // The rerun (the same faults) sends every item that was not sent, and skips the finished.
      const again = await runInProcess(['products', 'give', `@${list}`, 'gems', '--journal', journal], {
        ...env.env,
        ...viaProxy,
      });
      const second = new Map(items(again).map((i) => [i.input, i]));
      for (const item of notSent) {
        const now = second.get(item.input)!;
        expect(now.status, JSON.stringify(now)).not.toBe('skipped');
        expect(now.error?.message ?? '').not.toMatch(/earlier run/);
      }
      for (const item of results.filter((i) => i.status === 'ok'))
        expect(second.get(item.input)!.status).toBe('skipped');
    } finally {
      await proxy.close();
    }
  }, 240_000);
});

describe('the audit and the undo name the server (point 2)', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await sandbox();
  });

  it('under UDCLI_BASE_URL: the audit line has the server, the undo --profile and --base-url, and pasted without that variable it undoes on the same server', async () => {
    const before = await held(env, UID, 'gems');
    const give = await env.run(['products', 'give', UID, 'gems:500', '--qty', '2']);
    expect(give.code, give.stderr).toBe(0);
    expect(give.stderr).toContain(
      `Changed: gems:500 of 01e5…: ${before} → ${before + 1000} (give 2 × gems:500 = 1,000 units)`,
    );
    const undo = /^Undo:\s+(.+)$/m.exec(give.stderr)![1]!;
    expect(undo).toBe(`udcli products take ${UID} gems --qty 1000 --profile sandbox --base-url ${env.sandbox.url}`);
    expect(auditLines(env).at(-1)).toMatchObject({ profile: 'sandbox', server: env.sandbox.url, undo });
    expect(await held(env, UID, 'gems')).toBe(before + 1000);

    const { UDCLI_BASE_URL: _gone, ...withoutBaseUrl } = env.env;
    const undone = await runPrinted(undo, withoutBaseUrl);
    expect(undone.code, undone.stderr).toBe(0);
    expect(await held(env, UID, 'gems')).toBe(before);
  });

  it('the audit line keeps no userinfo of the base URL', async () => {
    const withUser = env.sandbox.url.replace('http://', 'http://ops:s3cret@');
    const r = await env.run(['products', 'give', UID, 'gems', '--qty', '1'], { env: { UDCLI_BASE_URL: withUser } });
    expect(r.code, r.stderr).toBe(0);
    const last = auditLines(env).at(-1)!;
    expect(last.server).toBe(env.sandbox.url);
    expect(JSON.stringify(last)).not.toContain('s3cret');
    expect(r.stderr).not.toContain('s3cret');
  });

  it('a signed give answered by an HTML 502 whose state cannot be read back: exit 1 saying "outcome is unknown", audited the same', async () => {
    // In front of the sandbox: the signed change goes through (and is applied), its reply and
    // every later one are an HTML 502, as a gateway failing at that moment answers.
    let broken = false;
    const upstream = new URL(env.sandbox.url);
    const gateway = createServer((req, res) => {
      const signed = /[?&]sig=/.test(req.url ?? '') && /[?&]session=/.test(req.url ?? '');
      if (broken) {
        req.resume();
        res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>');
        return;
      }
      const forward = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (reply) => {
          if (signed) {
            broken = true;
            reply.resume();
            reply.on('end', () =>
              res
                .writeHead(502, { 'content-type': 'text/html' })
                .end('<html><body><h1>502 Bad Gateway</h1></body></html>'),
            );
            return;
          }
          res.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(res);
        },
      );
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    try {
      const r = await env.run(['products', 'give', UID, 'xp-boost', '--retries', '0'], {
        env: { UDCLI_BASE_URL: url, UDCLI_SITE_URL: url },
      });
      expect(r.code).toBe(1);
      const said = r.stderr.split('\n')[0]!;
      expect(said).toMatch(/502.*the change was sent and its outcome is unknown/);
      const last = auditLines(env).at(-1)!;
      expect(last.change).toBe(
        `xp-boost of 01e5…: give 1 unit sent, outcome unknown (${said.replace(/^udcli: /, '')})`,
      );
      expect(last.server).toBe(url);
    } finally {
      gateway.closeAllConnections();
      await new Promise<void>((resolve) => gateway.close(() => resolve()));
    }
  });
});

describe('products give with a pack (point 4)', () => {
  it('a pack sku gives and takes packs by the signed PUT, a base sku units; a batch too', async () => {
    const env = await sandbox();
    const alice = uidForUsername('alice');
    const start = await held(env, alice, 'gems');
    const pack = await env.run(['products', 'give', alice, 'gems:100', '--qty', '3']);
    expect(pack.code, pack.stderr).toBe(0);
    expect(pack.stderr).toContain('(give 3 × gems:100 = 300 units)');
    expect(await held(env, alice, 'gems')).toBe(start + 300);
    const base = await env.run(['products', 'give', alice, 'gems', '--qty', '25']);
    expect(base.stderr).toContain('(give 25 units)');
    expect(await held(env, alice, 'gems')).toBe(start + 325);
    const take = await env.run(['products', 'take', alice, 'gems', '--qty', '25']);
    expect(take.code, take.stderr).toBe(0);
    expect(take.stderr).toContain('(take 25 units)');
    expect(await held(env, alice, 'gems')).toBe(start + 300);
    // Issue 52: a take naming a pack takes packs, as a give naming it gives them.
    const packs = await env.run(['products', 'take', alice, 'gems:100', '--qty', '3']);
    expect(packs.code, packs.stderr).toBe(0);
    expect(packs.stderr).toContain('(take 3 × gems:100 = 300 units)');
    expect(await held(env, alice, 'gems')).toBe(start);
    expect((await env.run(['products', 'give', alice, 'gems:100', '--qty', '3'])).code).toBe(0);
    const batch = await env.run(['products', 'give', '@-', 'gems:500'], { input: 'alice\n' });
    expect(batch.code, batch.stderr).toBe(0);
    expect(await held(env, alice, 'gems')).toBe(start + 800);
    const tooMany = await env.run(['products', 'give', alice, 'gems:500', '--qty', '2000001']);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toMatch(/^udcli: invalid --qty: 2,000,001 × gems:500 = 1,000,000,500 units/);
  });
});

describe("doctor checks the key's game (point 5)", () => {
  it('UDCLI_GAME_ID=1002 with the key of game 1001: the game check fails and says which is which; the right game passes', async () => {
    const env = await sandbox();
    const wrong = await env.run(['doctor', '-o', 'json'], { env: { UDCLI_GAME_ID: '1002' } });
    expect(wrong.code).toBe(1);
    const game = json<Array<{ check: string; status: string; detail: string }>>(wrong).find((c) => c.check === 'game')!;
    expect(game.status).toBe('fail');
    expect(game.detail).toMatch(
      /the key belongs to game 1001, the profile's game_id is 1002 \(from env UDCLI_GAME_ID\)/,
    );
    const right = await env.run(['doctor', '-o', 'json']);
    expect(right.code, right.stdout).toBe(0);
    expect(json<Array<{ check: string; status: string }>>(right).find((c) => c.check === 'game')).toMatchObject({
      status: 'ok',
    });
  });
});

describe('batches that read well on a terminal (point 3)', () => {
  let env: TestEnv;
  let list: string;
  const never = { prompt: '\u0000never', input: '' };
  beforeAll(async () => {
    env = await sandbox();
    list = join(scratch, 'three.txt');
    writeFileSync(list, 'alice\nghost_nobody\nbob\n');
  });

  it('on a terminal: a progress bar on stderr, then a table of what was not a plain success and a one-line summary; no raw JSON', async () => {
    const r = await runOnTerminal(['products', 'give', `@${list}`, 'xp-boost'], env.env, never);
    expect(r.code, r.stdout).toBe(6);
    expect(r.stdout).toMatch(/\[[#.]{20}\] \d\/3 · \d ok, \d failed, 0 unknown/);
    expect(r.stdout).not.toContain('{"input"');
    // As the terminal shows it: a carriage return starts the line again, \x1b[K clears the rest.
    const lines = r.stdout.split(/\r\n|\n|\r/).map((l) => l.replaceAll('\x1b[K', ''));
    const header = lines.findIndex((l) => /^LINE\s+INPUT\s+STATUS\s+SENT\s+DETAIL/.test(l));
    expect(header, r.stdout).toBeGreaterThanOrEqual(0);
    expect(lines[header + 1]).toMatch(/^2\s+ghost_nobody\s+failed\s+no\s+/);
    // alice and bob were plain successes: not in the table.
    expect(lines.slice(header + 1).join('\n')).not.toMatch(/alice|bob/);
    expect(r.stdout).toMatch(/batch: 3 items: 2 ok, 1 failed, 0 unknown, 0 skipped/);
  });

  it('-o ndjson on a terminal: the lines, each on its own line (the progress bar steps aside)', async () => {
    const r = await runOnTerminal(['products', 'give', `@${list}`, 'xp-boost', '-o', 'ndjson'], env.env, never);
    expect(r.code, r.stdout).toBe(6);
    expect(r.stdout.match(/\{"input"/g)).toHaveLength(3);
    expect(r.stdout).not.toMatch(/(ETA \S+|\/s|unknown)\{"input"/);
  });

  it('piped: NDJSON as before; -o csv and --fields work; -o json is one array; an unknown field is exit 2 before anything is sent', async () => {
    const piped = await env.run(['products', 'give', `@${list}`, 'xp-boost']);
    expect(items(piped).map((i) => i.status)).toEqual(expect.arrayContaining(['ok', 'failed', 'ok']));
    const csv = await env.run([
      'products',
      'give',
      `@${list}`,
      'xp-boost',
      '-o',
      'csv',
      '--fields',
      'line,input,status,sent',
    ]);
    expect(csv.stdout.split('\n').filter(Boolean).sort()).toEqual(
      ['1,alice,ok,true', '2,ghost_nobody,failed,false', '3,bob,ok,true', 'line,input,status,sent'].sort(),
    );
    const fields = await env.run(['products', 'give', `@${list}`, 'xp-boost', '--fields', 'input,status']);
    expect(
      fields.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual(
      expect.arrayContaining([
        { input: 'alice', status: 'ok' },
        { input: 'ghost_nobody', status: 'failed' },
        { input: 'bob', status: 'ok' },
      ]),
    );
    const array = await env.run(['products', 'give', `@${list}`, 'xp-boost', '-o', 'json']);
    expect(json<unknown[]>(array)).toHaveLength(3);
    const before = await held(env, uidForUsername('alice'), 'xp-boost');
    const bad = await env.run(['products', 'give', `@${list}`, 'xp-boost', '--fields', 'nosuch']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^udcli: unknown field "nosuch" for --fields; available: line, input, uid, status, sent/,
    );
    expect(await held(env, uidForUsername('alice'), 'xp-boost')).toBe(before);
  });
});

describe('udcli audit fits the terminal and takes usernames (point 2)', () => {
  it('--user demo_player finds the changes to its uid; on a 100-column terminal no line is wider; -o json keeps the whole entries', async () => {
    const env = await sandbox();
    expect((await env.run(['products', 'give', 'demo_player', 'xp-boost'])).code).toBe(0);
    expect((await env.run(['achievements', 'set', 'alice', 'LEVEL_10', '50%'])).code).toBe(0);
    const mine = await env.run(['audit', '--user', 'demo_player', '-o', 'json']);
    expect(mine.code, mine.stderr).toBe(0);
    const entries = json<Array<{ uid: string; server: string; command: string }>>(mine);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ uid: UID, server: env.sandbox.url });
    const unknown = await env.run(['audit', '--user', 'nobody_by_that_name']);
    expect(unknown.code).toBe(4);

    const table = await runOnTerminal(['audit'], { ...env.env, COLUMNS: '100' }, { prompt: '\u0000never', input: '' });
    expect(table.code, table.stdout).toBe(0);
    const lines = table.stdout.replace(/\r/g, '').split('\n').filter(Boolean);
    expect(lines[0]).toMatch(/^TIME\s+RUN\s+OPERATOR\s+PROFILE\s+SERVER\s+USER\s+STATE\s+CHANGE$/);
    expect(lines).toHaveLength(3);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(100);
    expect(table.stdout).toContain('…');
  });
});

describe('the smaller ones (point 6)', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await sandbox();
  });

  it('--dry-run for a single user prints the request and the expected change, and changes nothing', async () => {
    const before = await held(env, UID, 'gems');
    const r = await env.runChecked([
      'products',
      'give',
      'demo_player',
      'gems:500',
      '--qty',
      '2',
      '--dry-run',
      '-o',
      'table',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^Request: {2}POST http:\/\/127\.0\.0\.1:\d+\/services\/rest\/v1\/products\/user\/01e528d59829836fd23b09085b56edab\.json\?\S*qty=1000&increment=true&method=put/m,
    );
    expect(r.stdout).toContain(
      `Expected: gems:500 of 01e5…: ${before} → ${before + 1000} (give 2 × gems:500 = 1,000 units)`,
    );
    expect(await held(env, UID, 'gems')).toBe(before);
    const inc = await env.run(['achievements', 'inc', UID, 'LEVEL_10', '--by', '2', '--dry-run']);
    expect(inc.code, inc.stderr).toBe(0);
    expect(json<{ expected: string }>(inc).expected).toBe('LEVEL_10 of 01e5…: 4/10 In Progress → 6/10 In Progress');
    expect(auditLines(env)).toEqual([]);
    const refused = await env.run(['products', 'give', UID, 'gems', '--journal', 'j']);
    expect(refused.code).toBe(2);
  });

  it('friends: a full page says there may be more; --all says how many it fetched', async () => {
    const page = await env.run(['friends', 'demo_player', '-o', 'ndjson']);
    expect(page.stdout.split('\n').filter(Boolean)).toHaveLength(500);
    expect(page.stderr).toContain(
      '500 friends shown, one page: there may be more (--all fetches every one, --offset 500 the next page)',
    );
    const all = await env.run(['friends', 'demo_player', '--all', '-o', 'ndjson']);
    expect(all.stdout.split('\n').filter(Boolean)).toHaveLength(1200);
    expect(all.stderr).toContain('1,200 friends, every page');
  });

  it('the data-file loader lists every problem, each with its path and line; nothing is loaded', async () => {
    const bad = join(scratch, 'bad.yaml');
    writeFileSync(bad, 'users:\n  - { username: ann, friends: [nobody] }\n  - { username: ann }\n');
    const r = await env.run(['sandbox', 'load', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${bad}: 2 problems:\n  users[1].username: duplicate username "ann" (also users[0]) (line 3)\n  users[0].friends[0]: no user named "nobody" in the file (line 2)`,
    );
  });

  it('the user table shows birthday and premium; products list shows each pack with its name and price', async () => {
    const user = await runOnTerminal(['user', 'demo_player'], env.env, { prompt: '\u0000never', input: '' });
    expect(user.stdout).toMatch(/^BIRTHDAY\s+\d{4}-\d\d-\d\d/m);
    expect(user.stdout).toMatch(/^PREMIUM\s+(yes|no)/m);
    const products = await runOnTerminal(['products', 'list', 'demo_player'], env.env, {
      prompt: '\u0000never',
      input: '',
    });
    expect(products.stdout).toMatch(/^gems:100\s+Pouch of 100 Gems\s+consumable\s+\d+\s+0\.99/m);
    expect(products.stdout).toMatch(/^gems:500\s+Chest of 500 Gems\s+consumable\s+\d+\s+3\.99/m);
  });
});
