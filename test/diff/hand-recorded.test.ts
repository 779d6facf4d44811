/**
 * `udcli sandbox diff` of recordings written by hand, each reply's text as a PHP-like backend
 * sends it: XML replies compared element by element, a requested order checked (an unrequested
 * one not), a number spelled otherwise reported as `representation`, a page over its limit named
 * as such. Each recording is otherwise what the sandbox answers for the state it shows, so the
 * planted difference is the only one a diff may report.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { readDataFile } from '../../src/sandbox/data/read.js';
import { fakeIO } from '../output/fake-io.js';

const dir = mkdtempSync(join(tmpdir(), 'diff-hand-'));
const KEY = '0123456789abcdef0123456789abcdef';
const UID = 'c3323c76c063636c91d2e8cb8f4dfcaf';
const API = 'https://services.platform.example/services/rest/v1/';

/** One HAR 1.2 entry: a GET of `url` (under the API) answered 200 with `text` as it came. */
function entry(url: string, text: string, mimeType = 'application/json') {
  return {
    startedDateTime: '2026-01-01T10:00:00.000Z',
    time: 12,
    request: {
      method: 'GET',
      url: API + url,
      httpVersion: 'HTTP/1.1',
      headers: [],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'Content-Type', value: mimeType }],
      cookies: [],
      content: { size: Buffer.byteLength(text), mimeType, text },
      redirectURL: '',
      headersSize: -1,
      bodySize: Buffer.byteLength(text),
    },
    cache: {},
    timings: { send: 0, wait: 12, receive: 0 },
  };
}

function har(name: string, entries: unknown[]): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    JSON.stringify({ log: { version: '1.2', creator: { name: 'by hand', version: '1' }, entries } }, null, 2),
  );
  return file;
}

interface Difference {
  entry: number;
  kind: string;
  at: string;
  recorded: unknown;
  sandbox: unknown;
}

async function diff(
  file: string,
  ...more: string[]
): Promise<{ code: number; compared: number; differences: Difference[]; text: string }> {
  const env = { NO_COLOR: '1', UDCLI_CONFIG_DIR: join(dir, 'config'), UDCLI_DATA_DIR: join(dir, 'data') };
  const json = fakeIO({ env });
  const code = await main(['sandbox', 'diff', file, '--json', ...more], json.io);
  expect(json.stderr(), json.stderr()).not.toMatch(/internal error/);
  const text = fakeIO({ env });
  await main(['sandbox', 'diff', file, '-o', 'table', ...more], text.io);
  const report = JSON.parse(json.stdout()) as { compared: number; differences: Difference[] };
  return { code, compared: report.compared, differences: report.differences, text: text.stdout() };
}

const found = (differences: Difference[]) => differences.map((d) => `#${d.entry} ${d.kind} ${d.at}`);

const USER_JSON =
  `{"version":1,"code":200,"message":"OK","payload":{"uid":"${UID}","username":"ana",` +
  `"avatar":"https:\\/\\/img.platform.example\\/a.png?size=96","avatar_med":"https:\\/\\/img.platform.example\\/a.png?size=100",` +
  `"avatar_lg":"https:\\/\\/img.platform.example\\/a.png?size=200","gender":"female","birthday":"0000-00-00",` +
  `"premium":false,"email":"","created_on":"1559381400"}}`;

/** The user's XML reply, element by element as the sandbox writes it but for `fields` replaced. */
function userXml(fields: Record<string, string | undefined>): string {
  const all: Record<string, string | undefined> = {
    uid: UID,
    username: 'ana',
    avatar: 'https://img.platform.example/a.png?size=96',
    avatar_med: 'https://img.platform.example/a.png?size=100',
    avatar_lg: 'https://img.platform.example/a.png?size=200',
    gender: 'female',
    birthday: '0000-00-00',
    premium: 'false',
    email: '',
    created_on: '1559381400',
    ...fields,
  };
  const inner = Object.entries(all)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<${k}>${v!.replaceAll('&', '&amp;')}</${k}>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<response><version>1</version><code>200</code><message>OK</message><payload>${inner}</payload></response>\n`;
}

/** A user's quest record as the sandbox lists it; `raw` replaces the JSON text of a field's value. */
function quest(developerId: string, name: string, value: number, raw: Record<string, string> = {}): string {
  const fields: Record<string, string> = {
    id: '7',
    uid: `"${UID}"`,
    achievement_id: '3',
    parent_id: '"1001"',
    current_value: String(value),
    percent_complete: String(value),
    state: '"In Progress"',
    started_date: '"2024-01-01 00:00:00"',
    completed_date: '"0000-00-00 00:00:00"',
    updated_date: '"2024-01-01 00:00:00"',
    developer_id: `"${developerId}"`,
    type: '"Game"',
    name: `"${name}"`,
    target_value: '100',
    ...raw,
  };
  return `{${Object.entries(fields)
    .map(([k, v]) => `"${k}":${v}`)
    .join(',')}}`;
}
const quests = (...records: string[]) => `{"version":1,"code":200,"message":"OK","payload":[${records.join(',')}]}`;
/** A read that names the game (`pid`), so the recorded key maps to it. */
const GAME_READ = entry(
  `achievements/user/${UID}.json?api_key=${KEY}&pid=1001&type=Game`,
  quests(quest('A', 'Alpha', 10)),
);

describe('sandbox diff of a recording written by hand', () => {
  it('a recording as the sandbox answers diffs clean, its XML read included', async () => {
    const file = har('clean.har', [
      GAME_READ,
      entry(`users/${UID}.json?api_key=${KEY}`, USER_JSON),
      entry(`users/${UID}.xml?api_key=${KEY}`, userXml({}), 'application/xml'),
    ]);
    const r = await diff(file);
    expect(found(r.differences)).toEqual([]);
    expect(r.compared).toBe(3);
    expect(r.code).toBe(0);
  });

  it('XML: an element changed, one only in the recording and one only in the sandbox, each at its path', async () => {
    const file = har('xml.har', [
      GAME_READ,
      entry(`users/${UID}.json?api_key=${KEY}`, USER_JSON),
      entry(
        `users/${UID}.xml?api_key=${KEY}`,
        userXml({ username: 'anna', gender: undefined, country: 'FI' }),
        'text/xml; charset=utf-8',
      ),
    ]);
    const r = await diff(file);
    expect(found(r.differences).sort()).toEqual([
      '#2 extra payload.gender',
      '#2 missing payload.country',
      '#2 value payload.username',
    ]);
    expect(r.differences.find((d) => d.kind === 'value')).toMatchObject({ recorded: 'anna', sandbox: 'ana' });
    expect(r.code).toBe(1);
    expect(r.text).toMatch(/ {2}value +payload\.username: recorded "anna", sandbox "ana"/);
  });

  it('a requested order (order=, sort=) is compared; the order of a list no request ordered is not', async () => {
    const reversed = quests(quest('C', 'Gamma', 30), quest('B', 'Beta', 20), quest('A', 'Alpha', 10));
    const file = har('order.har', [
      entry(`achievements/user/${UID}.json?api_key=${KEY}&pid=1001&type=Game`, reversed),
      entry(`achievements/user/${UID}.json?api_key=${KEY}&pid=1001&type=Game&order=name&sort=asc`, reversed),
    ]);
    const r = await diff(file);
    expect(found(r.differences)).toEqual(['#1 order payload']);
    expect(r.differences[0]).toMatchObject({ recorded: ['C', 'B', 'A'], sandbox: ['A', 'B', 'C'] });
    expect(r.code).toBe(1);
    expect(r.text).toMatch(/ {2}order +payload: recorded \["C","B","A"\], sandbox \["A","B","C"\]/);
  });

  it('a number spelled otherwise (55.0 for 55) is `representation`, apart from `type`', async () => {
    const file = har('spelling.har', [
      entry(
        `achievements/user/${UID}.json?api_key=${KEY}&pid=1001&type=Game`,
        quests(quest('A', 'Alpha', 55, { current_value: '55.0' }), quest('B', 'Beta', 20)),
      ),
    ]);
    const r = await diff(file);
    expect(found(r.differences)).toEqual(['#0 representation payload[].current_value']);
    expect(r.differences[0]).toMatchObject({ recorded: '55.0', sandbox: '55' });
    expect(r.code).toBe(1);
    expect(r.text).toMatch(/representation payload\[\]\.current_value: recorded 55\.0, sandbox 55\n/);
  });

  it('a page larger than its limit is named as such, not as items missing from the sandbox', async () => {
    const friend = (uid: string, name: string) =>
      `{"uid":"${uid}","username":"${name}","avatar":"https:\\/\\/img.platform.example\\/f.png","avatar_med":"https:\\/\\/img.platform.example\\/f.png","avatar_lg":"https:\\/\\/img.platform.example\\/f.png","gender":"male","birthday":"0000-00-00","premium":false,"email":"","created_on":"1559381400"}`;
    const page = `{"version":1,"code":200,"message":"OK","payload":[${[
      friend('9b2c5a1de0f3c4b7a8e9d0c1b2a3f4e5', 'bo'),
      friend('1b2c5a1de0f3c4b7a8e9d0c1b2a3f4e5', 'cy'),
      friend('2b2c5a1de0f3c4b7a8e9d0c1b2a3f4e5', 'di'),
    ].join(',')}]}`;
    const file = har('limit.har', [GAME_READ, entry(`friends/${UID}.json?api_key=${KEY}&limit=2`, page)]);
    const r = await diff(file);
    expect(found(r.differences)).toEqual(['#1 limit payload']);
    expect(r.differences[0]).toMatchObject({ recorded: '3 items for a limit of 2', sandbox: '2 items' });
    expect(r.code).toBe(1);
  });

  it('the bytes as sent are read: a byte order mark is `representation` of the body and still seeds', async () => {
    const file = har('bom.har', [GAME_READ, entry(`users/${UID}.json?api_key=${KEY}`, `\uFEFF${USER_JSON}`)]);
    const r = await diff(file);
    expect(found(r.differences)).toEqual(['#1 representation ']);
    expect(r.differences[0]).toMatchObject({ recorded: 'a byte order mark, then JSON', sandbox: 'JSON' });
  });
});

describe('sandbox import of a recording written by hand', () => {
  it('reads an XML reply as it reads a JSON one', async () => {
    const file = har('import-xml.har', [
      GAME_READ,
      entry(`users/${UID}.xml?api_key=${KEY}`, userXml({ username: 'ana_xml', gender: 'male' }), 'application/xml'),
    ]);
    const out = join(dir, 'case.yaml');
    const f = fakeIO({
      env: { NO_COLOR: '1', UDCLI_CONFIG_DIR: join(dir, 'config'), UDCLI_DATA_DIR: join(dir, 'data') },
    });
    const code = await main(['sandbox', 'import', file, out, '--force'], f.io);
    expect(code, f.stderr()).toBe(0);
    const user = readDataFile(out).users!.find((u) => u.uid === UID)!;
    expect([user.username, user.gender]).toEqual(['ana_xml', 'male']);
  });
});
