#!/usr/bin/env node
/**
 * The reference of the har-diff bench row: a sandbox started as the diff starts its scratch one
 * (a temporary database, a free loopback port), and the recording's requests sent to it
 * directly, in order, each agi-signed change after a fresh challenge; no reading, seeding or
 * comparing. Why it is the fair floor: a diff must at least replay every recorded request
 * against a sandbox; what `sandbox diff` takes above this is reading the recording, seeding and
 * comparing the replies (reported, not judged).
 *   node bench/har-replay-ref.js TEMPLATE.json ENTRIES
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';

const [templateFile, count] = process.argv.slice(2);
const template = JSON.parse(readFileSync(String(templateFile), 'utf8'));
const n = Number(count);
const [{ startSandbox }, { DEMO }, { agiSignature }] = await Promise.all([
  import('../dist/sandbox/server.js'),
  import('../dist/domain/demo.js'),
  import('../dist/domain/agi-signing.js'),
]);
const dir = mkdtempSync(join(tmpdir(), 'udcli-bench-ref-'));
const sandbox = await startSandbox({
  port: 0,
  host: '127.0.0.1',
  dbPath: join(dir, 'ref.db'),
  seed: 'demo',
  log: () => undefined,
});
const encode = (/** @type {Array<[string, string]>} */ pairs) =>
  pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
try {
  for (let i = 0; i < n; i++) {
    const entry = template[i % template.length];
    const url = new URL(entry.request.url);
    const query = /** @type {Array<[string, string]>} */ (
      [...url.searchParams]
        .filter(([k]) => k !== 'sig' && k !== 'session')
        .map(([k, v]) => [k, k === 'api_key' ? DEMO.game.apiKey : v])
    );
    const headers = { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' };
    const send = async (/** @type {Array<[string, string]>} */ pairs) => {
      const res = await request(`${sandbox.url}${url.pathname}?${encode(pairs)}`, {
        method: entry.request.method,
        headers,
      });
      return { status: res.statusCode, text: await res.body.text() };
    };
    const first = await send(query);
    if (url.searchParams.has('sig') && first.status === 401) {
      const { session, key } = JSON.parse(first.text).payload;
      await send([...query, ['session', session], ['sig', agiSignature({ session, key, path: url.pathname, query })]]);
    }
  }
} finally {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
}
