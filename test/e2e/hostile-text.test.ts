/**
 * Issue 21 (items 1, 2, 7): nothing that came from outside is printed raw. A username holding a
 * terminal escape and a line break cannot forge a row in a table (on a real terminal, via `script`)
 * or a CSV record; an error quoting the input stays one line; `-v` redacts a parameter whose name
 * only looks secret; the request log writes a secret-looking value's fragments percent-encoded, so
 * its line parses back.
 */
import { Database } from '../sqlite.js';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { printable } from '../../src/printable.js';
import { redactQuery } from '../../src/redact.js';
import { formatRequestLine, parseRequestLine } from '../../src/sandbox/request-line.js';
import { runOnTerminal, type TestEnv } from './harness.js';

const HOSTILE = '\x1b[31mRED\r\nFAKE LINE\u202e';
const HOSTILE_UID = uidForUsername(HOSTILE);
const RAW =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the raw control characters are what it looks for
  /[\u0000-\u0008\u000b\u000c\u000e-\u001a\u001c-\u001f\u007f-\u009f\u202a-\u202e]|\u001b(?!\[[0-9;?]*[A-Za-z])/;

let env: TestEnv;
beforeAll(async ({ sandbox }) => {
  env = sandbox;
  const db = new Database(env.sandbox.dbPath);
  try {
    db.prepare('INSERT INTO users (uid, username, gender, created_on) VALUES (?, ?, ?, ?)').run(
      HOSTILE_UID,
      HOSTILE,
      'unspecified',
      1_700_000_000,
    );
    // First in demo_player's friends order: the earliest friendship.
    db.prepare('INSERT INTO friendships (uid, friend_uid, created_on) VALUES (?, ?, 0), (?, ?, 0)').run(
      DEMO.user.uid,
      HOSTILE_UID,
      HOSTILE_UID,
      DEMO.user.uid,
    );
  } finally {
    db.close();
  }
});

describe('server text on a terminal and in files', () => {
  it('printable() shows controls, DEL, C1 and bidi characters escaped and leaves the rest', () => {
    expect(printable('a\x1bb\r\n\x7f\u009b\u202e\u2066 é ✓')).toBe('a\\x1bb\\x0d\\x0a\\x7f\\x9b\\u202e\\u2066 é ✓');
  });

  it('a username with an escape and a line break cannot forge a row of friends -o table on a terminal', async () => {
    const r = await runOnTerminal(['friends', DEMO.user.uid, '--limit', '2', '-o', 'table'], env.env, {
      prompt: '\u0000',
      input: '',
    });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain(printable(HOSTILE));
    expect(r.stdout).not.toContain('\x1b[31m');
    expect(r.stdout).not.toMatch(/^FAKE LINE/m);
    expect(r.stdout).not.toContain('\u202e');
  });

  it('nor a CSV record', async () => {
    const r = await env.run(['friends', DEMO.user.uid, '--limit', '2', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').filter((l) => l !== '')).toHaveLength(3);
    expect(r.stdout).toContain(printable(HOSTILE));
    expect(r.stdout).not.toMatch(RAW);
    expect(r.stdout).not.toContain('\r');
  });

  it("an error quoting the server's message shows a bidi override escaped, never raw", async () => {
    const r = await env.run(['user', 'gnp.\u202eexe']);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr.split('\n')[0]).toContain('gnp.\\u202eexe');
    expect(r.stderr).not.toContain('\u202e');
  });

  it('-v redacts a parameter whose name only looks secret (my_password), as the sandbox log does', async () => {
    const r = await env.run(['api', 'GET', `users/${DEMO.user.uid}.json`, '-f', 'my_password=hunter2hunter2', '-v']);
    expect(r.code, r.stderr).toBe(0);
    expect(`${r.stdout}${r.stderr}`).not.toContain('hunter2hunter2');
    expect(r.stderr).toContain('my_password=hunt…ter2');
  });
});

describe('the request log', () => {
  const line = (query: string) =>
    formatRequestLine({
      time: '2026-11-23T00:00:00.000Z',
      method: 'GET',
      path: '/services/rest/v1/users/x.json',
      query: redactQuery(query),
      body: '',
      status: 200,
      ms: 1,
      reason: 'why\x1b[K\u202e',
    });

  it('writes a secret-looking value that decodes to escapes with its fragments encoded again, and the reason escaped', () => {
    const text = line('api_key=%0d%1b%5bK%1b%5b8mABCDEFGH&sku=x');
    expect(text).not.toMatch(RAW);
    expect(text).toContain('api_key=%0D%1B%5BK…EFGH&sku=x');
    expect(text.endsWith(' why\\x1b[K\\u202e')).toBe(true);
    expect(parseRequestLine(text)).toMatchObject({ query: 'api_key=%0D%1B%5BK…EFGH&sku=x', status: 200 });
  });

  it('a value with spaces keeps its line readable by `sandbox logs --json`', () => {
    const text = line('session=a+b+c+d+e+f+g+h&qty=1');
    expect(parseRequestLine(text)).toMatchObject({
      path: '/services/rest/v1/users/x.json',
      query: 'session=a%20b%20…%20g%20h&qty=1',
      status: 200,
    });
  });
});

describe('a base URL with userinfo', () => {
  it('doctor and -v never show the password', async () => {
    const url = new URL(env.sandbox.url);
    const withPass = `http://user:s3cr3tpass@${url.host}`;
    const doctor = await env.run(['doctor', '--base-url', withPass]);
    expect(`${doctor.stdout}${doctor.stderr}`).toContain(`http://…@${url.host}`);
    expect(`${doctor.stdout}${doctor.stderr}`).not.toContain('s3cr3tpass');
    const traced = await env.run(['user', DEMO.user.uid, '--base-url', withPass, '-v', '--json']);
    expect(`${traced.stdout}${traced.stderr}`).not.toContain('s3cr3tpass');
  });
});
