/**
 * src/har: the recorder keeps a valid HAR 1.2 with placeholders; the reader streams entries and refuses what is not a
 * whole HAR.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHar, HarFileError } from '../../src/har/reader.js';
import { openHarRecorder } from '../../src/har/writer.js';
import { harEntry, type RecordedExchange } from '../../src/har/entry.js';
import { Redactor } from '../../src/har/redaction.js';

// biome-ignore lint/suspicious/noExplicitAny: a parsed HAR, read field by field
type Entry = Record<string, any>;
const KEY = '0123456789abcdef0123456789abcdef';
const TOKEN = 'fedcba9876543210fedcba9876543210';

function exchange(over: Partial<RecordedExchange> = {}): RecordedExchange {
  return {
    startedMs: Date.UTC(2026, 0, 2, 3, 4, 5),
    elapsedMs: 12,
    method: 'POST',
    url: `http://127.0.0.1:9/services/rest/v1/gamesave/aa.json?api_key=${KEY}&auth_token=${TOKEN}&key=slot&session=abcdefabcdefabcdef&sig=0011223344556677`,
    requestHeaders: {
      Accept: 'application/json',
      Cookie: 'sid=secretcookievalue1',
      Authorization: 'Bearer sometokenvalue123',
    },
    requestBody: 'data=%7B%22a%22%3A1%7D',
    response: {
      status: 401,
      statusText: 'Unauthorized',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'set-cookie': 'sid=anothercookie99; Path=/; HttpOnly',
      },
      bodyText: JSON.stringify({
        version: 1,
        code: 401,
        message: 'signature required',
        payload: { session: 'cafebabecafebabecafebabecafebabe', key: 'deadbeefdeadbeefdeadbeefdeadbeef' },
      }),
      bytes: 120,
    },
    ...over,
  };
}

async function entriesOf(path: string, chunkBytes?: number): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  await readHar(path, (e) => void out.push(e), chunkBytes ? { chunkBytes } : {});
  return out;
}

describe('--har recording', () => {
  it('writes HAR 1.2 with every required field, 0600, secrets as stable placeholders, earlier entries kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'har-'));
    const file = join(dir, 'rec.har');
    const first = openHarRecorder(file, { creator: { name: 'udcli', version: '9.9.9' }, secrets: [KEY] });
    first.record(exchange());
    first.flush();
    const second = openHarRecorder(file, { creator: { name: 'udcli', version: '9.9.9' } });
    second.record(exchange({ response: undefined, failure: 'timeout after 15000 ms' }));
    second.flush();

    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    for (const secret of [
      KEY,
      TOKEN,
      'secretcookievalue1',
      'sometokenvalue123',
      'anothercookie99',
      'cafebabecafebabecafebabecafebabe',
      'deadbeefdeadbeefdeadbeefdeadbeef',
      'abcdefabcdefabcdef',
      '0011223344556677',
    ]) {
      expect(text).not.toContain(secret);
    }
    const har = JSON.parse(text) as {
      log: { version: string; creator: { name: string; version: string }; entries: Array<Entry> };
    };
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual({ name: 'udcli', version: '9.9.9' });
    expect(har.log.entries).toHaveLength(2);
    for (const entry of har.log.entries) {
      expect(Object.keys(entry)).toEqual(
        expect.arrayContaining(['startedDateTime', 'time', 'request', 'response', 'cache', 'timings']),
      );
      expect(Object.keys(entry.request)).toEqual(
        expect.arrayContaining([
          'method',
          'url',
          'httpVersion',
          'cookies',
          'headers',
          'queryString',
          'headersSize',
          'bodySize',
        ]),
      );
      expect(Object.keys(entry.response)).toEqual(
        expect.arrayContaining([
          'status',
          'statusText',
          'httpVersion',
          'cookies',
          'headers',
          'content',
          'redirectURL',
          'headersSize',
          'bodySize',
        ]),
      );
      expect(Object.keys(entry.timings)).toEqual(expect.arrayContaining(['send', 'wait', 'receive']));
      expect(entry.startedDateTime).toBe('2026-01-02T03:04:05.000Z');
    }
    // The same key in both commands' entries: the same placeholder (the salt is kept in the file).
    const keyOf = (e: Entry) =>
      (e.request.queryString as Array<{ name: string; value: string }>).find((p) => p.name === 'api_key')!.value;
    expect(keyOf(har.log.entries[0]!)).toMatch(/^redacted-[0-9a-f]{12}$/);
    expect(keyOf(har.log.entries[1]!)).toBe(keyOf(har.log.entries[0]!));
    expect(har.log.entries[0]!.request.postData).toEqual({
      mimeType: 'application/x-www-form-urlencoded',
      text: 'data=%7B%22a%22%3A1%7D',
    });
    expect(har.log.entries[1]!.response.status).toBe(0);
    // The save's key name is not a secret.
    expect(har.log.entries[0]!.request.url).toContain('key=slot');
  });

  it("replaces players' emails and birthdays in JSON and XML replies, and the same email anywhere else in the entry", () => {
    const email = 'jane.doe@mail.example';
    const json = JSON.stringify({
      version: 1,
      code: 200,
      message: `OK ${email}`,
      payload: [{ uid: 'a'.repeat(32), email, birthday: '1984-02-29', note: null }],
    });
    const xml = `<?xml version="1.0"?><response><payload><email>${email}</email><birthday>1984-02-29</birthday></payload></response>`;
    const redactor = new Redactor('0'.repeat(32));
    const fromJson = JSON.stringify(
      harEntry(
        exchange({
          response: {
            status: 200,
            statusText: 'OK',
            headers: { 'content-type': 'application/json' },
            bodyText: json,
            bytes: json.length,
          },
        }),
        redactor,
      ),
    );
    const fromXml = JSON.stringify(
      harEntry(
        exchange({
          response: {
            status: 200,
            statusText: 'OK',
            headers: { 'content-type': 'text/xml' },
            bodyText: xml,
            bytes: xml.length,
          },
        }),
        redactor,
      ),
    );
    for (const text of [redactor.scrub(fromJson), redactor.scrub(fromXml)]) {
      expect(text).not.toContain(email);
      expect(text).not.toContain('1984-02-29');
      expect(text).toMatch(/redacted-[0-9a-f]{12}@example\.invalid/);
      expect(text).toMatch(/1900-\d\d-\d\d/);
    }
    // One salt, one value: one placeholder in both replies.
    const placeholderIn = (text: string) => /redacted-[0-9a-f]{12}@example\.invalid/.exec(text)![0];
    expect(placeholderIn(fromJson)).toBe(placeholderIn(fromXml));
    const kept = new Redactor('0'.repeat(32), { keepPersonal: true });
    const plain = JSON.stringify({ email, birthday: '1984-02-29' });
    expect(kept.body(plain, 'application/json')).toBe(plain);
  });

  it.each([
    ['a challenge cut inside its key', `{"code":401,"payload":{"session":"${'c'.repeat(32)}","key":"${'d'.repeat(20)}`],
    ['an address spelled with JSON escapes', '{"note":"write to jane.doe\\u0040mail.example"}'],
    ['an address percent-encoded in a form', 'next=%2Fhome&contact=jane.doe%40mail.example'],
    ['an address as an XML character reference', '<p>jane.doe&#64;mail.example</p>'],
    ['a namespaced XML element', '<u:user><u:Birth_Date>1984-02-29</u:Birth_Date></u:user>'],
    ['a birthday as an attribute', '<user birthday="1984-02-29" name="jane"/>'],
    ['a birthday written as a number', '{"dob": 19840229}'],
    ['a birthday by month name, in the cell after its label', '<td>Birthday:</td> <td>Feb 29, 1984</td>'],
    ['a birthday day first, after a label in plain text', 'X-Player-DOB: 29 February 1984'],
    ['a million levels of nesting', `${'['.repeat(1_000_000)}{"email":"jane.doe@mail.example","birthday":"1984-02-29"`],
  ])('redacts in place whatever the shape: %s', (_name, text) => {
    const redactor = new Redactor('0'.repeat(32));
    const shown = redactor.body(text, 'application/octet-stream');
    for (const leak of ['jane.doe', '1984', '19840229', 'c'.repeat(32), 'd'.repeat(20)])
      expect(shown).not.toContain(leak);
    // Only the redacted spans changed: the text around them is as it came.
    expect(shown.slice(0, 2)).toBe(text.slice(0, 2));
  });

  it('leaves what only looks near a birthday alone, and keeps a number a number', () => {
    const redactor = new Redactor('0'.repeat(32));
    const text = '{"dob":null,"note":"a > 5","version":"1.2.3","at":"v1@build"}';
    expect(redactor.body(text, 'application/json')).toBe(text);
    const xml = '<user><birthday></birthday><created>2020-01-01</created><birthday/><at>2021-02-03</at></user>';
    expect(redactor.body(xml, 'text/xml')).toBe(xml);
    expect(JSON.parse(redactor.body('{"dob": 19840229}', 'application/json'))).toEqual({
      dob: expect.any(Number) as number,
    });
  });

  it('adds to its own file without rewriting it, and takes in what another command wrote meanwhile', () => {
    const dir = mkdtempSync(join(tmpdir(), 'har-'));
    const file = join(dir, 'shared.har');
    let clock = 0;
    // Each record a second apart: every one is written at once (no gathering).
    const now = () => (clock += 1000);
    const urls = (): string[] =>
      (JSON.parse(readFileSync(file, 'utf8')) as { log: { entries: Entry[] } }).log.entries.map((e) =>
        String(e.request.url).replace(/\?.*$/, ''),
      );
    const a = openHarRecorder(file, { creator: { name: 'udcli', version: '1' }, now });
    a.record(exchange({ url: 'http://h/services/rest/v1/users/1.json' }));
    a.record(exchange({ url: 'http://h/services/rest/v1/users/2.json' }));
    expect(urls()).toEqual(['http://h/services/rest/v1/users/1.json', 'http://h/services/rest/v1/users/2.json']);
    const b = openHarRecorder(file, { creator: { name: 'udcli', version: '1' }, now });
    b.record(exchange({ url: 'http://h/services/rest/v1/users/3.json' }));
    a.record(exchange({ url: 'http://h/services/rest/v1/users/4.json' }));
    expect(urls()).toEqual([1, 2, 3, 4].map((n) => `http://h/services/rest/v1/users/${n}.json`));
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses to add to a file that is not a HAR, and leaves it as it was', () => {
    const dir = mkdtempSync(join(tmpdir(), 'har-'));
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'my notes');
    expect(() => openHarRecorder(file, { creator: { name: 'udcli', version: '1' } })).toThrow(/not a HAR/);
    expect(readFileSync(file, 'utf8')).toBe('my notes');
  });
});

describe('reading a HAR as a stream', () => {
  const har = {
    log: {
      version: '1.2',
      creator: { name: 'WebInspector', version: '537.36' },
      pages: [{ id: 'p', title: 'with "entries": [ inside {' }],
      entries: [
        { request: { method: 'GET', url: 'http://a/x?s="]}' }, response: { status: 200 } },
        { request: { method: 'GET', url: 'http://a/\\"y' }, response: { status: 0 }, _n: [1, 2.5e3, true, null] },
      ],
    },
  };

  it('hands over every entry in order, whatever the chunk boundaries', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'har-'));
    const file = join(dir, 'x.har');
    writeFileSync(file, JSON.stringify(har, null, 2));
    for (const chunk of [1, 3, 7, 64, 1 << 20]) {
      expect(await entriesOf(file, chunk)).toEqual(har.log.entries);
    }
    const { head, entries } = await readHar(file, () => undefined);
    expect(head).toEqual({ version: '1.2', creator: { name: 'WebInspector', version: '537.36' } });
    expect(entries).toBe(2);
  });

  it.each([
    ['not json at all', /not a HAR: the file is not a JSON object/],
    ['', /empty/],
    ['{"log": {"version": "1.2", "entries": [{"a": 1}, {"b"', /cut short/],
    ['{"other": 1}', /no log object/],
    ['{"log": {"version": "1.2"}}', /no log.entries/],
    ['{"log": {"entries": [1]}}', /entry 0 is not an object/],
    ['{"log": {"entries": [{"a": tru}]}}', /entry 0 is not valid JSON/],
  ])('refuses %j with one line naming the file', async (text, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'har-'));
    const file = join(dir, 'bad.har');
    writeFileSync(file, text);
    const error = await readHar(file, () => undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarFileError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message.startsWith(file)).toBe(true);
    expect((error as Error).message).not.toContain('\n');
  });
});
