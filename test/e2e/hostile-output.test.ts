/**
 * Issue 31 (defect 4): one escaping rule for every printed byte. A sandbox data file plants a
 * value holding ESC (a colour), OSC 0 (a window title), OSC 8 (a hyperlink), CR, BEL, BS, U+202E,
 * U+2066 and U+009B (the one-byte CSI) as a username, a game's, achievement's and product's name,
 * and as saved values; each command that prints outside data runs in-process through `main` in
 * every output format, and the bytes it wrote (stdout and stderr) hold none of them raw. JSON
 * output still reads back as the very same value. Defect 7: a base-URL password is never shown.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '../fixtures.js';
import { main } from '../../src/cli/main.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { jsonSafe, printable } from '../../src/printable.js';
import { logFilePath } from '../../src/sandbox/paths.js';
import { formatRequestLine } from '../../src/sandbox/request-line.js';
import { fakeIO } from '../output/fake-io.js';
import { writeDetachedPidFile, type CliResult, type TestEnv } from './harness.js';

const ESC = '\x1b[31mRED\x1b[0m';
const OSC0 = '\x1b]0;owned title\x07';
const OSC8 = '\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\';
const HOSTILE = `x${ESC}${OSC0}${OSC8}cr\rbel\x07bs\x08 rlo\u202e lri\u2066 csi\u009b2J`;
/** Each of these, raw, is a defect wherever it is printed. */
const FORBIDDEN: ReadonlyArray<[string, string]> = [
  ['ESC', '\x1b'],
  ['CR', '\r'],
  ['BEL', '\x07'],
  ['BS', '\x08'],
  ['U+202E', '\u202e'],
  ['U+2066', '\u2066'],
  ['U+009B', '\u009b'],
];

const RAW_REQUEST_LINE =
  '2026-11-25T00:00:01.000Z GET /services/rest/v1/users/\u202e\u2066\u009b.json 404 1ms csi\u009b2J\x1b]0;t\x07';
const PLAIN = 'qa_plain';
const PLAIN_UID = uidForUsername(PLAIN);
const HOSTILE_UID = uidForUsername(HOSTILE);
const JSON_SAVE = JSON.stringify({ note: HOSTILE, level: 3 });
const FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
const PASSWORD = 'pa55-w0rd-secret';

let env: TestEnv;
let scratch: string;

beforeAll(async ({ newSandbox }) => {
  scratch = mkdtempSync(join(tmpdir(), 'udcli-hostile-output-'));
  // The demo game's id and keys (what the test env signs with), everything it names hostile.
  const data = {
    games: [
      {
        id: DEMO.game.id,
        name: `Game ${HOSTILE}`,
        launchable: true,
        signing: 'both',
        keys: [{ api_key: DEMO.game.apiKey, signing_secret: DEMO.game.signingSecret }],
        achievements: [{ developer_id: 'BOSS_1', name: `Boss ${HOSTILE}`, description: HOSTILE, target_value: 3 }],
        products: [
          {
            sku: 'gems',
            type: 'consumable',
            packs: [10],
            name: `Gems ${HOSTILE}`,
            description: HOSTILE,
            price: '0.99',
          },
        ],
      },
    ],
    users: [
      { username: HOSTILE, friends: [PLAIN], plays: [DEMO.game.id] },
      {
        username: PLAIN,
        plays: [DEMO.game.id],
        progress: { [DEMO.game.id]: { BOSS_1: 1 } },
        holdings: { [DEMO.game.id]: { gems: 30 } },
        saves: { [DEMO.game.id]: { text: HOSTILE, json: JSON_SAVE } },
      },
    ],
  };
  const file = join(scratch, 'hostile.json');
  writeFileSync(file, JSON.stringify(data));
  env = await newSandbox({ data: file });
  // `sandbox info`/`status` trust a pid file whose process answers on its URL: this one.
  writeDetachedPidFile(env.env, env.sandbox);
  // The request log: a request line whose path, query and reason are hostile, and a line the
  // process printed itself.
  const log = logFilePath(env.env);
  mkdirSync(dirname(log), { recursive: true });
  const request = formatRequestLine({
    time: '2026-11-25T00:00:00.000Z',
    method: 'GET',
    path: `/services/rest/v1/users/\u202e\u2066\u009b.json`,
    query: 'uid=\u009b2J',
    body: '',
    status: 404,
    ms: 1,
    reason: HOSTILE,
  });
  // ...and one written raw, as no sandbox writes it (the log is a file: anything may be in it).
  writeFileSync(log, `${request}\n${HOSTILE}\n${RAW_REQUEST_LINE}\n`);
  // A profile whose base URL carries a password and whose cookie is hostile.
  const host = new URL(env.sandbox.url).host;
  mkdirSync(env.configDir, { recursive: true });
  writeFileSync(
    join(env.configDir, 'config.json'),
    JSON.stringify({
      profiles: {
        hostile: {
          base_url: `http://qa:${PASSWORD}@${host}`,
          site_url: `http://qa:${PASSWORD}@${host}`,
          game_id: DEMO.game.id,
          cookie: `\x1b]0;\u202e\u2066${'c'.repeat(8)}\u009b\x07\x08\x1b`,
        },
      },
    }),
    { mode: 0o600 },
  );
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** Stands for the test sandbox's database file in an argument list (known only once it starts). */
const DB = '<the test database>';

/** `main` in this process with injected IO, the test env's environment, no colour. */
async function udcli(
  args: string[],
  options: { tty?: boolean; stderrTTY?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  const f = fakeIO({
    env: { NO_COLOR: '1', ...env.env, ...options.env },
    tty: options.tty ?? false,
    stderrTTY: options.stderrTTY ?? false,
  });
  const code = await main(
    args.map((a) => (a === DB ? env.sandbox.dbPath : a)),
    f.io,
  );
  return { code, stdout: f.stdout(), stderr: f.stderr() };
}

function expectNothingRaw(r: CliResult, what: string): void {
  for (const [name, ch] of FORBIDDEN) {
    expect(r.stdout.includes(ch), `${name} raw on stdout of ${what}:\n${JSON.stringify(r.stdout)}`).toBe(false);
    expect(r.stderr.includes(ch), `${name} raw on stderr of ${what}:\n${JSON.stringify(r.stderr)}`).toBe(false);
  }
}

/** Every command that prints outside data, and what of the planted text its output must show. */
const COMMANDS: ReadonlyArray<{ args: string[]; shows: string; exit?: number }> = [
  { args: ['user', HOSTILE_UID], shows: 'rlo' },
  { args: ['friends', PLAIN_UID], shows: 'rlo' },
  { args: ['friends', PLAIN_UID, '--all'], shows: 'rlo' },
  { args: ['achievements', 'list', PLAIN_UID], shows: 'Boss' },
  { args: ['products', 'list', PLAIN_UID], shows: 'Gems' },
  { args: ['saves', 'get', PLAIN_UID, 'text'], shows: 'rlo' },
  { args: ['saves', 'get', PLAIN_UID, 'json'], shows: 'rlo' },
  { args: ['saves', 'list', PLAIN_UID], shows: 'json' },
  { args: ['api', 'GET', `users/${HOSTILE_UID}.json`], shows: 'rlo' },
  { args: ['api', 'GET', `users/${HOSTILE_UID}.json`, '--raw'], shows: 'rlo' },
  { args: ['api', 'GET', `users/${HOSTILE_UID}.xml`], shows: 'rlo' },
  { args: ['sandbox', 'info'], shows: 'Game' },
  { args: ['sandbox', 'status'], shows: 'Game' },
  { args: ['profile', 'show', 'hostile'], shows: 'cookie' },
  { args: ['profile', 'list'], shows: 'hostile' },
  { args: ['sandbox', 'logs', '-n', 'all'], shows: '2026-11-25' },
  { args: ['sandbox', 'export', '-', '--db', DB], shows: 'rlo' },
  { args: ['sandbox', 'export', '-', '--format', 'json', '--db', DB], shows: 'rlo' },
  // errors: the service's message quoting the input, and the CLI's own about a bad argument
  { args: ['user', 'gnp.\u202e\u2066exe'], shows: 'gnp.', exit: 4 },
  { args: ['user', `gnp.${HOSTILE}`], shows: 'gnp.', exit: 2 },
  { args: ['saves', 'get', PLAIN_UID, HOSTILE], shows: 'key', exit: 2 },
];

describe('every command that prints outside data, in every output format', () => {
  for (const command of COMMANDS) {
    for (const format of FORMATS) {
      it(`${printable(command.args.join(' '))} -o ${format}`, async () => {
        const r = await udcli([...command.args, '-o', format]);
        expect(r.code, r.stderr).toBe(command.exit ?? 0);
        expect(r.stdout + r.stderr).toContain(command.shows);
        expectNothingRaw(r, `${command.args.join(' ')} -o ${format}`);
      });
    }
  }

  it('the same on a terminal, in the default format (a table)', async () => {
    for (const command of COMMANDS) {
      // stderr no terminal: the spinner's own escapes are ours, not the data's.
      const r = await udcli(command.args, { tty: true, stderrTTY: false });
      expect(r.code, r.stderr).toBe(command.exit ?? 0);
      expectNothingRaw(r, `${command.args.join(' ')} on a terminal`);
    }
  });
});

describe('escaped, the value is still there', () => {
  it('JSON and NDJSON escape C1 and bidi as \\u sequences and read back as the very same value', async () => {
    const json = await udcli(['user', HOSTILE_UID, '-o', 'json']);
    expect(json.stdout).toContain('\\u202e');
    expect(json.stdout).toContain('\\u009b');
    expect((JSON.parse(json.stdout) as { username: string }).username).toBe(HOSTILE);
    for (const paging of [[], ['--all']]) {
      const ndjson = await udcli(['friends', PLAIN_UID, ...paging, '-o', 'ndjson']);
      expect(ndjson.stdout).toContain('\\u202e');
      expect((JSON.parse(ndjson.stdout.split('\n')[0]!) as { username: string }).username).toBe(HOSTILE);
    }
    const raw = await udcli(['api', 'GET', `users/${HOSTILE_UID}.json`]);
    expect((JSON.parse(raw.stdout) as { payload: { username: string } }).payload.username).toBe(HOSTILE);
  });

  it('api GET of an .xml reply writes them as character references', async () => {
    const xml = await udcli(['api', 'GET', `users/${HOSTILE_UID}.xml`]);
    expect(xml.stdout).toContain('rlo&#x202e; lri&#x2066; csi&#x9b;2J');
  });

  it('saves get: -o json gives the exact value, a JSON save stays the same JSON value, the table shows the text escaped', async () => {
    expect(JSON.parse((await udcli(['saves', 'get', PLAIN_UID, 'text', '-o', 'json'])).stdout)).toBe(HOSTILE);
    expect(JSON.parse((await udcli(['saves', 'get', PLAIN_UID, 'json'])).stdout)).toEqual(JSON.parse(JSON_SAVE));
    expect((await udcli(['saves', 'get', PLAIN_UID, 'text', '-o', 'table'])).stdout).toBe(`${printable(HOSTILE)}\n`);
    const csv = await udcli(['saves', 'get', PLAIN_UID, 'text', '-o', 'csv']);
    expect(csv.stdout.split('\n')).toEqual(['key,value', `text,${printable(HOSTILE)}`, '']);
  });

  it('sandbox info and status show the game name and the username escaped; --json keeps them whole', async () => {
    const info = await udcli(['sandbox', 'info']);
    expect(info.stdout).toContain(`Game ${printable(HOSTILE)}`);
    expect(info.stdout).toContain(printable(HOSTILE));
    const status = await udcli(['sandbox', 'status', '--json']);
    const parsed = JSON.parse(status.stdout) as { games: Array<{ name: string }>; users: Array<{ username: string }> };
    expect(parsed.games[0]!.name).toBe(`Game ${HOSTILE}`);
    expect(parsed.users.map((u) => u.username)).toContain(HOSTILE);
  });

  it('sandbox logs: the request line and the printed line escaped; --json reads the request back, escaped as JSON', async () => {
    const text = await udcli(['sandbox', 'logs', '-n', 'all']);
    expect(text.stdout.split('\n')).toHaveLength(4);
    expect(text.stdout).toContain(printable(HOSTILE));
    const json = await udcli(['sandbox', 'logs', '-n', 'all', '--json']);
    const records = json.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { path: string; reason: string });
    expect(records.map((r) => r.path)).toEqual([
      printable('/services/rest/v1/users/\u202e\u2066\u009b.json'),
      '/services/rest/v1/users/\u202e\u2066\u009b.json',
    ]);
    expect(records[1]!.reason).toBe('csi\u009b2J\x1b]0;t\x07');
  });

  it('sandbox export - (YAML and JSON) loads back as the same data', async () => {
    const { parse } = await import('yaml');
    const yaml = await udcli(['sandbox', 'export', '-', '--db', DB]);
    const json = await udcli(['sandbox', 'export', '-', '--format', 'json', '--db', DB]);
    const fromYaml = parse(yaml.stdout) as {
      games: Array<{ name: string }>;
      users: Array<{ username: string; saves?: Record<string, Record<string, string>> }>;
    };
    const fromJson = JSON.parse(json.stdout) as typeof fromYaml;
    expect(fromYaml.games).toEqual(fromJson.games);
    expect(fromYaml.users).toEqual(fromJson.users);
    expect(fromYaml.games[0]!.name).toBe(`Game ${HOSTILE}`);
    expect(fromYaml.users.map((u) => u.username)).toContain(HOSTILE);
    expect(fromYaml.users.find((u) => u.username === PLAIN)!.saves![DEMO.game.id]).toEqual({
      text: HOSTILE,
      json: JSON_SAVE,
    });
  });

  it('jsonSafe leaves valid JSON valid and its value unchanged, line breaks kept', () => {
    const text = JSON.stringify({ [HOSTILE]: [HOSTILE, 'é ✓\u2028'] }, null, 2);
    const safe = jsonSafe(text);
    expect(JSON.parse(safe)).toEqual(JSON.parse(text));
    expect(safe.split('\n')).toHaveLength(text.split('\n').length);
    for (const [, ch] of FORBIDDEN) expect(safe.includes(ch)).toBe(false);
  });
});

/** The hostile profile's own URLs, not the test env's. */
const PROFILE_ONLY: NodeJS.ProcessEnv = { UDCLI_BASE_URL: undefined, UDCLI_SITE_URL: undefined };

describe('a base URL with a password (defect 7)', () => {
  it('profile show, profile list and config get show the URL with its userinfo redacted, in every format', async () => {
    const host = new URL(env.sandbox.url).host;
    for (const format of FORMATS) {
      for (const args of [
        ['profile', 'show', 'hostile'],
        ['profile', 'list'],
        ['--profile', 'hostile', 'config', 'get', 'base_url'],
        ['--profile', 'hostile', 'config', 'get', 'site_url'],
      ]) {
        const r = await udcli([...args, '-o', format], { env: PROFILE_ONLY });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout + r.stderr, `${args.join(' ')} -o ${format}`).not.toContain(PASSWORD);
        expect(r.stdout, `${args.join(' ')} -o ${format}`).toContain(`http://…@${host}`);
      }
    }
  });

  it('neither do errors, -v traces, doctor, a dry run, --public-url or a game content URI', async () => {
    for (const args of [
      ['--profile', 'hostile', 'user', 'nobody_at_all', '-v'],
      ['--profile', 'hostile', 'doctor'],
      ['--profile', 'hostile', 'api', 'GET', 'users/x.json', '--dry-run'],
      ['--base-url', `ftp://qa:${PASSWORD}@example.invalid/`, 'user', DEMO.user.uid],
      ['--base-url', `http://qa:${PASSWORD}@127.0.0.1:1`, 'user', DEMO.user.uid, '-v', '--retries', '0'],
      ['--base-url', `http://qa:${PASSWORD}@127.0.0.1:1/?x`, 'user', DEMO.user.uid],
      // refused before anything starts
      ['sandbox', 'start', '--public-url', `http://qa:${PASSWORD}@sandbox.example.com`, '--allow-remote'],
      ['sandbox', 'game', 'set-uri', DEMO.game.id, `http://qa:${PASSWORD}@`, '--db', DB],
      ['sandbox', 'game', 'set-uri', DEMO.game.id, `http://qa:${PASSWORD}@game.invalid/play`, '--db', DB],
      ['sandbox', 'game', 'show', DEMO.game.id, '--db', DB],
      ['sandbox', 'game', 'show', DEMO.game.id, '--db', DB, '--json'],
    ]) {
      const r = await udcli(args, { env: PROFILE_ONLY });
      expect(r.stdout + r.stderr, args.join(' ')).not.toContain(PASSWORD);
    }
  });
});

describe('the request log (defect 7)', () => {
  it('an absolute-form target with userinfo is written with it redacted, and reads back', () => {
    const line = formatRequestLine({
      time: '2026-11-25T00:00:00.000Z',
      method: 'GET',
      path: `http://qa:${PASSWORD}@127.0.0.1:1/y`,
      query: '',
      body: '',
      status: 400,
      ms: 1,
      reason: 'bad request',
    });
    expect(line).not.toContain(PASSWORD);
    expect(line).toContain('GET http://…@127.0.0.1:1/y 400');
  });
});

describe('-v traces', () => {
  it("a server's reason phrase holding C1 and its envelope holding escapes: the trace and the output show them escaped", async () => {
    // A hostile server, as no real sandbox is: a reason phrase of obs-text bytes (U+009B and U+202E in UTF-8).
    const body = Buffer.from(
      JSON.stringify({ version: 1, code: 200, message: 'OK', payload: { uid: HOSTILE_UID, username: HOSTILE } }),
    );
    const server = createServer((socket) => {
      socket.once('data', () => {
        const head = Buffer.from(`HTTP/1.1 200 O`, 'latin1');
        const tail = Buffer.from(
          `K\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`,
          'latin1',
        );
        socket.end(Buffer.concat([head, Buffer.from('\u009b2J\u202e', 'utf8'), tail, body]));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const r = await udcli(['user', HOSTILE_UID, '-v', '-o', 'table', '--base-url', `http://127.0.0.1:${port}`]);
      expect(r.stderr).toContain('\\x9b2J\\u202e');
      expectNothingRaw(r, 'user -v against a hostile server');
    } finally {
      server.close();
    }
  });
});

describe('our own colour', () => {
  it('doctor on a colour terminal: its status symbols coloured (by the output, not the command), nothing shown escaped', async () => {
    const r = await udcli(['doctor', '-o', 'table'], { env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(r.stdout).toContain('\x1b[32m✓\x1b[39m');
    expect(r.stdout).not.toContain('\\x1b');
  });
});
