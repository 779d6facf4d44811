/**
 * Your game in the sandbox (issue 10), as a studio uses it: a data file for a made-up game loaded
 * into a running sandbox, a game server of the studio (a stub here) that authenticates the token
 * the play page hands its iframe and increments an achievement through the platform's challenge;
 * export → load → export; snapshots, also when a save is killed; and every bad input. Needs
 * `npm run build` first.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '../fixtures.js';
import { agiSignature } from '../../src/domain/agi-signing.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { BIN, json, usersIn, type TestEnv } from './harness.js';

const STUDIO_KEY = '5f0e3b7c9a1d4e2f8b6c0a9d7e5f3b1c';
const QA_FILE = `games:
  - id: "4711"
    name: Orbit Miner
    launchable: true
    content_uri: http://game.invalid/play
    keys:
      - api_key: ${STUDIO_KEY}
    achievements:
      - developer_id: BOSS_1
        name: Boss Slayer
        target_value: 3
        score: 10
    products:
      - sku: gem-pack
        type: consumable
        packs: [10, 50]
        name: Gems
        price: "0.99"
users:
  - username: qa_alice
    created_on: "2024-01-01 00:00:00"   # given, so that exports of two loads at different moments are equal
    friends: [qa_bob]
    plays: ["4711"]
    progress: { "4711": { BOSS_1: 1 } }
    holdings: { "4711": { gem-pack: 30 } }
  - username: qa_bob
    created_on: "2024-01-02 00:00:00"
`;

let env: TestEnv;
let scratch: string;
let dbPath: string;
const file = (name: string, text: string) => {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
};

beforeAll(async ({ sandbox }) => {
  env = sandbox;
  dbPath = join(dirname(env.dataDir), 'sandbox.db');
  scratch = mkdtempSync(join(tmpdir(), 'udcli-e2e-data-'));
});
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * The studio's game server: authenticates the play page's token, then increments BOSS_1 as the platform's SDK would.
 */
function gameServer(sandboxUrl: string): Promise<{ url: string; server: Server }> {
  const api = `${sandboxUrl}/services/rest/v1`;
  const server = createServer((req, res) => {
    void (async () => {
      const q = new URL(req.url ?? '/', 'http://x').searchParams;
      const auth = await fetch(
        `${api}/authenticate/user.json?${new URLSearchParams({ user_id: q.get('user_id') ?? '', auth_token: q.get('auth_token') ?? '', api_key: STUDIO_KEY })}`,
      );
      const who = ((await auth.json()) as { payload: { uid: string } | null }).payload;
      if (!who) return res.writeHead(403).end('not authenticated');
      const path = `/services/rest/v1/achievements/user/${who.uid}.json`;
      const query: Array<[string, string]> = [
        ['api_key', STUDIO_KEY],
        ['pid', '4711'],
        ['developer_id', 'BOSS_1'],
        ['increment', '1'],
        ['method', 'put'],
      ];
      const post = (pairs: Array<[string, string]>) =>
        fetch(`${sandboxUrl}${path}?${new URLSearchParams(pairs)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
      const challenge = ((await (await post(query)).json()) as { payload: { session: string; key: string } }).payload;
      const signed = await post([
        ...query,
        ['session', challenge.session],
        ['sig', agiSignature({ ...challenge, path, query })],
      ]);
      res.writeHead(signed.status, { 'content-type': 'application/json' }).end(await signed.text());
    })();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }),
    ),
  );
}

describe('your game in the sandbox', () => {
  it('load a data file into the running sandbox; a game server authenticates a play-page token and increments through it', async () => {
    const load = await env.run(['sandbox', 'load', file('qa.yaml', QA_FILE), '--db', dbPath]);
    expect(load.code, load.stderr).toBe(0);
    expect(load.stdout).toContain('1 game, 2 users, 1 friendship');

    // The player logs in on the sandbox site and opens the game's play page.
    const login = await fetch(`${env.sandbox.url}/login?username=qa_alice`, { method: 'POST', redirect: 'manual' });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const page = await (await fetch(`${env.sandbox.url}/play/4711`, { headers: { cookie } })).text();
    const src = /<iframe\b[^>]*\bsrc="([^"]*)"/.exec(page)![1]!.replaceAll('&amp;', '&');
    // The game is served by the sandbox's game host, at the game's own name (issue 40): its content URI
    // (http://game.invalid/play) proxied.
    expect(src).toMatch(
      /^http:\/\/g4711\.sandbox\.localhost:\d+\/play\/4711\/game\/play\?user_id=[0-9a-f]{32}&auth_token=[0-9a-f]{32}$/,
    );
    expect(new URL(src).origin).not.toBe(new URL(env.sandbox.url).origin);

    const studio = await gameServer(env.sandbox.url);
    try {
      const r = await fetch(`${studio.url}/${new URL(src, env.sandbox.url).search}`);
      expect(r.status).toBe(200);
      expect(((await r.json()) as { payload: unknown }).payload).toMatchObject({
        developer_id: 'BOSS_1',
        current_value: 2,
        state: 'In Progress',
      });
    } finally {
      studio.server.close();
    }
    const studioEnv = { UDCLI_API_KEY: STUDIO_KEY, UDCLI_GAME_ID: '4711' };
    const list = await env.run(['achievements', 'list', uidForUsername('qa_alice'), '--json'], { env: studioEnv });
    expect(json<Array<{ developer_id: string; current_value: number }>>(list)).toMatchObject([
      { developer_id: 'BOSS_1', current_value: 2 },
    ]);
    const products = await env.run(['products', 'list', uidForUsername('qa_alice'), '--json'], { env: studioEnv });
    expect(
      json<Array<{ product: { sku: string }; purchase: { data: unknown } }>>(products).map((e) => [
        e.product.sku,
        e.purchase.data,
      ]),
    ).toEqual([
      ['gem-pack:10', 30],
      ['gem-pack:50', 30],
    ]);
  });

  it('export → load into an empty sandbox → export gives the same file, YAML and JSON', async () => {
    for (const ext of ['yaml', 'json']) {
      const first = join(scratch, `first.${ext}`);
      expect((await env.run(['sandbox', 'export', first, '--db', dbPath])).code).toBe(0);
      const empty = join(scratch, `empty-${ext}.db`);
      const load = await env.run(['sandbox', 'load', first, '--db', empty]);
      expect(load.code, load.stderr).toBe(0);
      const second = await env.run(['sandbox', 'export', '--db', empty, '--format', ext]);
      expect(second.stdout).toBe(readFileSync(first, 'utf8'));
    }
  });

  it('snapshot save, change, restore: the running sandbox answers as before the change', async () => {
    const alice = uidForUsername('qa_alice');
    const studioEnv = { UDCLI_API_KEY: STUDIO_KEY, UDCLI_GAME_ID: '4711' };
    const value = async () =>
      json<Array<{ current_value: number }>>(
        await env.run(['achievements', 'list', alice, '--json'], { env: studioEnv }),
      )[0]!.current_value;
    const before = await value();
    expect((await env.run(['sandbox', 'snapshot', 'save', 'before', '--db', dbPath])).code).toBe(0);
    expect((await env.run(['achievements', 'inc', alice, 'BOSS_1'], { env: studioEnv })).code).toBe(0);
    expect(await value()).toBe(before + 1);
    const restore = await env.run(['sandbox', 'snapshot', 'restore', 'before', '--db', dbPath]);
    expect(restore.code, restore.stderr).toBe(0);
    expect(await value()).toBe(before);
    const list = json<Array<{ name: string }>>(await env.run(['sandbox', 'snapshot', 'list', '--json']));
    expect(list.map((s) => s.name)).toContain('before');
  });

  it('a snapshot save killed with SIGKILL leaves the earlier snapshots whole and readable', async () => {
    const big = join(scratch, 'big.db');
    expect((await env.run(['sandbox', 'seed', '--users', '30000', '--friends', '20000', '--db', big], {})).code).toBe(
      0,
    );
    expect((await env.run(['sandbox', 'snapshot', 'save', 'keep', '--db', big])).code).toBe(0);
    const keep = join(env.dataDir, 'snapshots', 'keep.db');
    const expected = usersIn(keep);
    for (const delayMs of [20, 80, 160, 320]) {
      const child = spawn(process.execPath, [BIN, 'sandbox', 'snapshot', 'save', 'keep', '--db', big], {
        env: { ...process.env, ...env.env },
        stdio: 'ignore',
      });
      const closed = new Promise((r) => child.once('close', r));
      await new Promise((r) => setTimeout(r, delayMs));
      child.kill('SIGKILL');
      await closed;
      expect(usersIn(keep), `killed after ${delayMs} ms`).toBe(expected);
    }
    const restore = await env.run(['sandbox', 'snapshot', 'restore', 'keep', '--db', big]);
    expect(restore.code, restore.stderr).toBe(0);
  }, 120_000);
});

describe('starting from a data file, and back to it', () => {
  it('sandbox start --data serves the file instead of the demo data; reset returns to the file', async () => {
    const db = join(scratch, 'started.db');
    const qa = file('start.yaml', QA_FILE);
    const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--data', qa, '--db', db, '--port', '0'], {
      env: { ...process.env, ...env.env, UDCLI_DATA_DIR: join(scratch, 'start-data') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const closed = new Promise((r) => child.once('close', r));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          const line = /^(http:\/\/\S+)\n/.exec(out);
          if (line) resolve(line[1]!);
        });
        child.once('close', () => reject(new Error(`sandbox exited: ${out}`)));
      });
      const studio = { UDCLI_BASE_URL: url, UDCLI_API_KEY: STUDIO_KEY, UDCLI_GAME_ID: '4711' };
      const list = await env.run(['achievements', 'list', uidForUsername('qa_alice'), '--json'], { env: studio });
      expect(json<Array<{ current_value: number }>>(list)).toMatchObject([{ current_value: 1 }]);
      const demo = await env.run(['user', 'demo_player'], { env: studio });
      expect(demo.code).toBe(4); // no demo data
      expect((await env.run(['achievements', 'inc', uidForUsername('qa_alice'), 'BOSS_1'], { env: studio })).code).toBe(
        0,
      );
    } finally {
      child.kill('SIGTERM');
      await closed;
    }
    const changed = (await env.run(['sandbox', 'export', '--db', db])).stdout;
    const reset = await env.run(['sandbox', 'reset', '--db', db]);
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stderr).toContain(`from ${qa}`);
    const fresh = join(scratch, 'fresh.db');
    expect((await env.run(['sandbox', 'load', qa, '--db', fresh])).code).toBe(0);
    const afterReset = (await env.run(['sandbox', 'export', '--db', db])).stdout;
    expect(afterReset).not.toBe(changed);
    // Load stamps the times a file leaves out (progress, friendships); the exported file carries none of them.
    expect(afterReset).toBe((await env.run(['sandbox', 'export', '--db', fresh])).stdout);
  });

  it("sandbox exec --data runs the command with the file's game and key; --snapshot starts from a snapshot", async () => {
    // The binary: exec hands its own stdout to the command, which only a process of its own has.
    const qa = file('exec.yaml', QA_FILE);
    // One sandbox for both commands (each exec is a process, a sandbox and a load): the environment it
    // gives, printed on a line of its own, then udcli itself run with that environment.
    const probe = 'process.stdout.write([process.env.UDCLI_GAME_ID, process.env.UDCLI_API_KEY].join(" ") + "\\n")';
    const r = await env.runBinary([
      'sandbox',
      'exec',
      '--data',
      qa,
      '--',
      'sh',
      '-c',
      '"$0" -e "$1" && "$0" "$2" achievements list "$3" --json',
      process.execPath,
      probe,
      BIN,
      uidForUsername('qa_alice'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const [seen, ...listed] = r.stdout.split('\n');
    expect(seen).toBe(`4711 ${STUDIO_KEY}`);
    const inner = { ...r, stdout: listed.join('\n') };
    expect(json<Array<{ developer_id: string }>>(inner).map((a) => a.developer_id)).toEqual(['BOSS_1']);
    // The snapshot holds the demo data and the loaded qa users: a fresh demo sandbox has no qa_alice.
    const fromSnapshot = await env.runBinary([
      'sandbox',
      'exec',
      '--snapshot',
      'before',
      '--',
      process.execPath,
      BIN,
      'user',
      'qa_alice',
      '--json',
    ]);
    expect(fromSnapshot.code, fromSnapshot.stderr).toBe(0);
    expect(json<{ uid: string }>(fromSnapshot).uid).toBe(uidForUsername('qa_alice'));
    const plain = await env.runBinary(['sandbox', 'exec', '--', process.execPath, BIN, 'user', 'qa_alice']);
    expect(plain.code).toBe(4);
  });

  it('--data with --seed, and a bad file at start: exit 2 before anything listens', async () => {
    const both = await env.run(['sandbox', 'start', '--data', 'x.yaml', '--seed', 'demo', '--port', '0']);
    expect(both).toMatchObject({
      code: 2,
      stderr: 'udcli: --data and --seed cannot be used together: the data file replaces the demo data\n',
    });
    const bad = file('bad-start.yaml', 'games:\n  - id: "1"\n');
    const r = await env.run(['sandbox', 'start', '--data', bad, '--port', '0', '--db', join(scratch, 'never.db')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`udcli: ${bad}: games[0]: name is missing (line 2)\n`);
  });
});

describe('bad input', () => {
  it('a bad data file: exit 2, one line naming file, path and line; nothing is loaded', async () => {
    const bad = file('bad.yaml', QA_FILE.replace('target_value: 3', 'target_value: 0').replace('"4711"', '"4712"'));
    const r = await env.run(['sandbox', 'load', bad, '--db', dbPath]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`udcli: ${bad}: games[0].achievements[0].target_value: must be >= 1 (line 11)\n`);
    const games = await env.run(['sandbox', 'game', 'show', '4712', '--db', dbPath]);
    expect(games.code).toBe(2);
  });

  it('a missing file, a broken YAML file: exit 2, one line', async () => {
    const missing = await env.run(['sandbox', 'load', join(scratch, 'nope.yaml'), '--db', dbPath]);
    expect(missing).toMatchObject({
      code: 2,
      stderr: `udcli: cannot read the data file ${join(scratch, 'nope.yaml')}: no such file\n`,
    });
    const broken = await env.run(['sandbox', 'load', file('broken.yaml', 'games: [\n'), '--db', dbPath]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/^udcli: \S+broken\.yaml: not valid YAML: .*\(line \d+\)\n$/);
  });

  it('an unknown snapshot: exit 2 with the known ones', async () => {
    const r = await env.run(['sandbox', 'snapshot', 'restore', 'nope', '--db', dbPath]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^udcli: no snapshot named "nope"\nknown snapshots: before, keep\n$/);
  });

  it('sandbox init writes a starter that loads as it stands, and never overwrites', async () => {
    const starter = join(scratch, 'starter.yaml');
    expect((await env.run(['sandbox', 'init', starter])).code).toBe(0);
    expect((await env.run(['sandbox', 'load', starter, '--db', join(scratch, 'starter.db')])).code).toBe(0);
    const again = await env.run(['sandbox', 'init', starter]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/exists; not overwritten/);
    const schema = json<{ $id: string }>(await env.run(['sandbox', 'schema']));
    expect(schema.$id).toMatch(/sandbox-data-1\.json$/);
    // Beside the starter, the schema its first line points editors at.
    expect(readFileSync(starter, 'utf8').split('\n')[0]).toBe(
      '# yaml-language-server: $schema=./sandbox-data.schema.json',
    );
    expect(JSON.parse(readFileSync(join(scratch, 'sandbox-data.schema.json'), 'utf8'))).toEqual(schema);
  });

  it('sandbox init never replaces an existing schema file either: exit 2, nothing written; --force replaces both', async () => {
    const dir = mkdtempSync(join(scratch, 'init-'));
    const schemaPath = join(dir, 'sandbox-data.schema.json');
    writeFileSync(schemaPath, '{"mine": true}\n');
    const r = await env.run(['sandbox', 'init', join(dir, 'qa.yaml')]);
    expect(r).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `udcli: ${schemaPath} exists; not overwritten\npass --force to replace it, or name another file\n`,
    });
    expect(readFileSync(schemaPath, 'utf8')).toBe('{"mine": true}\n');
    expect(existsSync(join(dir, 'qa.yaml'))).toBe(false);
    const forced = await env.run(['sandbox', 'init', join(dir, 'qa.yaml'), '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(readFileSync(schemaPath, 'utf8'))).toHaveProperty('$id');
    expect(existsSync(join(dir, 'qa.yaml'))).toBe(true);
  });
});
