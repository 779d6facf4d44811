/**
 * `--har` without `--har-keep-personal` against a server whose replies are not plain JSON: a
 * player's email and birthday, and the secrets beside them, reach no part of the recording, the
 * headers included, whatever shape the reply has; and a reply is recorded as the server sent it,
 * byte for byte, but for the spans redacted. The server is a node:http one on port 0: the sandbox
 * answers clean JSON or XML only.
 */
import { createServer, type OutgoingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { runInProcess } from '../e2e/harness.js';

const EMAIL = 'jane.doe@mail.example';
const BIRTHDAY = '1984-02-29';
/** In a header only, never in the body. */
const HEADER_EMAIL = 'j.other+qa@corp.example';
/** In the status line only. */
const STATUS_EMAIL = 'status.only@corp.example';
const TOKEN = 'fedcba9876543210fedcba9876543210';
const UID = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

interface Reply {
  status?: number;
  statusText?: string;
  headers?: OutgoingHttpHeaders;
  body: string;
}

interface Entry {
  request: { url: string; headers: Array<{ name: string; value: string }> };
  response: { status: number; headers: Array<{ name: string; value: string }>; content: { text?: string } };
}

let server: Server;
let base: string;
let reply: Reply = { body: '' };
const dir = mkdtempSync(join(tmpdir(), 'har-awkward-'));

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    const body = Buffer.from(reply.body, 'utf8');
    res.writeHead(reply.status ?? 200, reply.statusText ?? 'OK', {
      'content-type': 'application/json; charset=utf-8',
      'content-length': body.length,
      ...reply.headers,
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** `udcli --har FILE user UID` against the server answering `shape`; the file's text and entries. */
async function record(name: string, shape: Reply, extra: string[] = []): Promise<{ text: string; entries: Entry[] }> {
  reply = shape;
  const file = join(dir, `${name}.har`);
  await runInProcess(['--har', file, '--retries', '0', ...extra, 'user', UID], {
    UDCLI_CONFIG_DIR: join(dir, 'config'),
    UDCLI_DATA_DIR: join(dir, 'data'),
    UDCLI_BASE_URL: base,
    UDCLI_SITE_URL: base,
    UDCLI_API_KEY: DEMO.game.apiKey,
    UDCLI_SIGNING_SECRET: DEMO.game.signingSecret,
    UDCLI_GAME_ID: DEMO.game.id,
  });
  const text = readFileSync(file, 'utf8');
  return { text, entries: (JSON.parse(text) as { log: { entries: Entry[] } }).log.entries };
}

const player = (fields: string): string =>
  `{"version":1,"code":200,"message":"OK","payload":{"uid":"${UID}","username":"jane",${fields},"premium":false}}`;
const PLAIN = player(`"email":"${EMAIL}","birthday":"${BIRTHDAY}","auth_token":"${TOKEN}"`);
const deep = (levels: number, inner: string): string => '{"a":'.repeat(levels) + inner + '}'.repeat(levels);

const SHAPES: Array<[string, Reply, string[]?]> = [
  [
    'a reply cut short after the personal fields, every retry recorded',
    { body: PLAIN.slice(0, PLAIN.indexOf('"premium"') - 4) },
    ['--retries', '2'],
  ],
  ['a reply starting with a BOM', { body: `\uFEFF${PLAIN}` }],
  [`a reply behind an )]}' guard`, { body: `)]}',\n${PLAIN}` }],
  [
    'XML with CDATA',
    {
      headers: { 'content-type': 'text/xml' },
      body: `<?xml version="1.0"?><response><code>200</code><payload><uid>${UID}</uid><email><![CDATA[${EMAIL}]]></email><birthday><![CDATA[${BIRTHDAY}]]></birthday><auth_token><![CDATA[${TOKEN}]]></auth_token></payload></response>`,
    },
  ],
  [
    'XML with an attribute on the tag and a space before its >',
    {
      headers: { 'content-type': 'application/xml' },
      body: `<response><payload><email type="primary">${EMAIL}</email><birthday >${BIRTHDAY}</birthday ><auth_token kind="site">${TOKEN}</auth_token></payload></response>`,
    },
  ],
  [
    'keys spelled Email, e_mail and Birthday',
    { body: player(`"Email":"${EMAIL}","e_mail":"${EMAIL}","Birthday":"${BIRTHDAY}","Auth_Token":"${TOKEN}"`) },
  ],
  [
    'values nested deeper than 64 levels',
    {
      body: player(`"extra":${deep(70, `{"email":"${EMAIL}","birthday":"${BIRTHDAY}","auth_token":"${TOKEN}"}`)}`),
    },
  ],
  [
    'headers and the status line carrying an email the body does not',
    {
      statusText: `OK for ${STATUS_EMAIL}`,
      headers: { 'x-player': HEADER_EMAIL, link: `<mailto:${HEADER_EMAIL}>; rel="author"` },
      body: player(`"birthday":"0000-00-00"`),
    },
  ],
];

describe('--har: personal fields and secrets in awkward replies', () => {
  it.each(SHAPES)('%s', async (name, shape, extra = []) => {
    const { text, entries } = await record(name.replace(/\W+/g, '-'), shape, extra);
    expect(entries.length).toBe(extra.includes('--retries') ? 3 : 1);
    for (const leak of [EMAIL, BIRTHDAY, HEADER_EMAIL, STATUS_EMAIL, TOKEN, DEMO.game.apiKey])
      expect(text).not.toContain(leak);
    for (const e of entries) {
      expect(e.response.status).toBe(200);
      // Redacted in place, not dropped: the body is there, its personal fields placeholders.
      const body = e.response.content.text!;
      expect(body.length).toBeGreaterThan(0);
      if (shape.body.includes(EMAIL)) expect(body).toMatch(/redacted-[0-9a-f]{12}@example\.invalid/);
      if (shape.body.includes(BIRTHDAY)) expect(body).toMatch(/1900-\d\d-\d\d/);
    }
    if (shape.headers?.['x-player'])
      expect(entries[0]!.response.headers.find((h) => h.name === 'x-player')!.value).toMatch(
        /^redacted-[0-9a-f]{12}@example\.invalid$/,
      );
  });
});

describe('--har: a reply is recorded as it was sent', () => {
  it('keeps every byte of a JSON reply but the redacted spans: escapes, number spellings, key order, spaces', async () => {
    const body =
      '{ "message" : "OK",\n  "code":200 ,"version":1,\n' +
      `  "payload" : {"uid":"${UID}", "avatar":"https:\\/\\/img.example\\/a\\/b.png", "score":55.0, "big":1E2,\n` +
      `\t"email" :  "${EMAIL}" , "username":"jane\\u00e9", "birthday":"${BIRTHDAY}", "zeta":-0.50e-1 }\n}\n`;
    const { entries } = await record('bytes', { body });
    expect(entries.length).toBe(1);
    const recorded = entries[0]!.response.content.text!;
    const email = /redacted-[0-9a-f]{12}@example\.invalid/.exec(recorded)![0];
    const birthday = /1900-\d\d-\d\d/.exec(recorded)![0];
    expect(recorded).toBe(body.replace(EMAIL, email).replace(BIRTHDAY, birthday));
  });
});
