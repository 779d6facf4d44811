/**
 * What `sandbox diff` reads: recordings as browsers and Playwright write them (base64 bodies,
 * `postData.params`, CORS preflights, entries without a reply, other hosts' entries), and bad
 * or hostile input (one line naming the file, exit 2, nothing started; escapes escaped).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import type { TestEnv } from '../e2e/harness.js';

// biome-ignore lint/suspicious/noExplicitAny: a HAR as JSON, edited field by field
type Json = any;

let env: TestEnv;
const dir = mkdtempSync(join(tmpdir(), 'diff-inputs-'));
let recorded: Json;
beforeAll(async ({ sandbox }) => {
  env = sandbox;
  const har = join(dir, 'udcli.har');
  for (const args of [
    ['user', DEMO.user.uid],
    ['achievements', 'inc', DEMO.user.uid, 'COLLECT_1000_GEMS'],
    ['saves', 'set', DEMO.user.uid, 'slot9', '{"x":1}', '--yes'],
  ]) {
    const r = await env.read(['--har', har, ...args]);
    expect(r.code, r.stderr).toBe(0);
  }
  recorded = JSON.parse(readFileSync(har, 'utf8'));
});

function write(name: string, content: string | Json): string {
  const file = join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const entry = (method: string, url: string, status: number, text = '', mimeType = 'application/json'): Json => ({
  startedDateTime: '2026-01-01T00:00:00.000Z',
  time: 1,
  request: {
    method,
    url,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: [],
    queryString: [],
    headersSize: -1,
    bodySize: 0,
  },
  response: {
    status,
    statusText: '',
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: [],
    content: { size: text.length, mimeType, text },
    redirectURL: '',
    headersSize: -1,
    bodySize: -1,
  },
  cache: {},
  timings: { send: 0, wait: 1, receive: 0 },
});

describe('sandbox diff reads what browsers and Playwright write', () => {
  it('base64 bodies, form params, preflights, entries without a reply and other hosts: skipped or decoded, and clean', async () => {
    const har = structuredClone(recorded);
    for (const e of har.log.entries) {
      e.request.url = e.request.url.replace(/^http:\/\/[^/]+/, 'https://services.platform.example');
      if (e.response.content.text !== undefined) {
        e.response.content.text = Buffer.from(e.response.content.text).toString('base64');
        e.response.content.encoding = 'base64';
      }
      if (e.request.postData) {
        const params = [...new URLSearchParams(e.request.postData.text)].map(([name, value]) => ({ name, value }));
        e.request.postData = { mimeType: 'application/x-www-form-urlencoded', params };
      }
    }
    har.log.entries.unshift(entry('OPTIONS', 'https://services.platform.example/services/rest/v1/users/x.json', 204));
    har.log.entries.push(
      entry('GET', `https://services.platform.example/services/rest/v1/users/${DEMO.user.uid}.json`, 0),
    );
    har.log.entries.push(entry('GET', 'https://cdn.example/game.js', 200, 'void 0', 'text/javascript'));
    const diff = await env.read(['sandbox', 'diff', write('chrome.har', har), '--json']);
    const report = JSON.parse(diff.stdout) as {
      differences: unknown[];
      skipped: number;
      compared: number;
      skips: Array<{ entry: number; reason: string; host?: string }>;
    };
    expect(report.differences).toEqual([]);
    expect(diff.code, diff.stderr).toBe(0);
    // The preflight, the entry without a reply, the other host, and udcli's site exchanges (login, token generator).
    const site = (recorded.log.entries as Json[]).filter(
      (e) => !String(e.request.url).includes('/services/rest/v1/'),
    ).length;
    expect(report.skipped).toBe(3 + site);
    expect(report.compared).toBeGreaterThan(5);
    // Every one of them listed with its reason.
    const last = har.log.entries.length - 1;
    expect(report.skips).toHaveLength(report.skipped);
    expect(report.skips).toEqual(
      expect.arrayContaining([
        { file: expect.any(String), entry: 0, reason: 'a CORS preflight', host: 'services.platform.example' },
        {
          file: expect.any(String),
          entry: last - 1,
          reason: 'no reply was recorded (status 0)',
          host: 'services.platform.example',
        },
        { file: expect.any(String), entry: last, reason: 'not a platform path', host: 'cdn.example' },
      ]),
    );
    // On a terminal: one line per reason, with the entries and hosts.
    const text = await env.read(['sandbox', 'diff', join(dir, 'chrome.har')]);
    expect(text.stdout).toContain('skipped #0: a CORS preflight (services.platform.example)');
    expect(text.stdout).toMatch(
      new RegExp(`skipped ${site + 1} (#\\d+ )+#${last}: not a platform path \\(.*cdn\\.example`),
    );
  });

  it('an entry of an unknown game with no key to map is skipped with its reason, and counted', async () => {
    const ok = (payload: unknown) => JSON.stringify({ version: 1, code: 200, message: 'OK', payload });
    const base = 'https://p.example/services/rest/v1';
    const har = {
      log: {
        version: '1.2',
        creator: { name: 'test', version: '1' },
        entries: [
          entry('GET', `${base}/achievements/11.json?api_key=${'a'.repeat(32)}`, 200, ok([])),
          entry('GET', `${base}/achievements/12.json?api_key=${'b'.repeat(32)}`, 200, ok([])),
          entry(
            'GET',
            `${base}/users/${DEMO.user.uid}.json?api_key=${'c'.repeat(32)}`,
            200,
            ok({ uid: DEMO.user.uid, username: 'x', avatar: 'https://a/b.png' }),
          ),
        ],
      },
    };
    const diff = await env.read(['sandbox', 'diff', write('two-games.har', har), '--json']);
    const report = JSON.parse(diff.stdout) as { skipped: number; skips: Array<{ entry: number; reason: string }> };
    expect(report.skipped).toBe(1);
    expect(report.skips).toEqual([expect.objectContaining({ entry: 2, reason: 'an unknown game and no key to map' })]);
  });
});

describe('bad input: one line naming the file, exit 2, nothing started', () => {
  it.each([
    ['not-json.har', 'this is not json', /not-json\.har: not a HAR: the file is not a JSON object/],
    ['truncated.har', '{"log":{"version":"1.2","entries":[{"request":{}}', /truncated\.har: cut short/],
    ['not-har.har', '{"hello":"world"}', /not-har\.har: not a HAR: no log object/],
  ])('%s', async (name, text, message) => {
    const diff = await env.read(['sandbox', 'diff', write(name, text)]);
    expect(diff.code).toBe(2);
    expect(diff.stderr).toMatch(message);
    expect(diff.stderr.trim().split('\n')).toHaveLength(1);
    expect(diff.stdout).toBe('');
  });

  it('a recording with no platform exchange says which hosts it held', async () => {
    const har = {
      log: {
        version: '1.2',
        creator: { name: 't', version: '1' },
        entries: [entry('GET', 'https://www.example.com/', 200, '<html></html>', 'text/html')],
      },
    };
    const diff = await env.read(['sandbox', 'diff', write('web.har', har)]);
    expect(diff.code).toBe(2);
    expect(diff.stderr).toMatch(/no platform exchange .*its hosts: www\.example\.com/);
  });

  it('--data that is not a data file: exit 2 before anything starts', async () => {
    const r = await env.read(['sandbox', 'diff', join(dir, 'udcli.har'), '--data', join(dir, 'missing.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing\.yaml/);
    expect(r.stdout).toBe('');
  });

  it('no file, or a file that is not there', async () => {
    expect((await env.read(['sandbox', 'diff'])).code).toBe(2);
    const missing = await env.read(['sandbox', 'diff', join(dir, 'nope.har')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.har: cannot read it: no such file/);
  });

  it('hostile text is escaped in the report, and deep nesting neither hangs nor crashes', async () => {
    const nested = '['.repeat(100_000) + ']'.repeat(100_000);
    const body = `{"version":1,"code":200,"message":"OK \\u001b[2J\\u202e","payload":{"uid":"${DEMO.user.uid}","username":"demo_player","avatar":"https://x/y.png","deep":${nested}}}`;
    const har = {
      log: {
        version: '1.2',
        creator: { name: 't', version: '1' },
        entries: [
          entry('GET', `https://p.example/services/rest/v1/users/${DEMO.user.uid}.json?public=\u001b%5B31m`, 200, body),
        ],
      },
    };
    const diff = await env.read(['sandbox', 'diff', write('hostile.har', har), '-o', 'table']);
    expect(diff.code).toBe(1);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the point: no raw escape reaches the terminal
    expect(diff.stdout).not.toMatch(/[\u001b\u202e]/);
    expect(diff.stdout).toContain('\\u202e');
    expect(diff.stdout).toMatch(/missing payload\.deep: recorded "\[1 items\]"/);
  });
});
