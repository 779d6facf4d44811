/**
 * Issue 40, 4: the HAR reader is bounded everywhere in the file, not only inside the entries. A
 * 20 MB file of nested brackets outside `log.entries` made the reader hold a frame per bracket
 * (1.5 GB). Now `sandbox import` and `sandbox diff` refuse it with one line, exit 2, and the
 * process's peak memory stays under 300 MB. The built binary: the process's memory is the
 * subject (measured by the process itself at exit, through NODE_OPTIONS). Needs `npm run build`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, readHar } from '../../src/har/reader.js';
import { runCli } from '../e2e/harness.js';
import { fileScratch } from '../scratch.js';

const dir = fileScratch('har-bounded-');

const MB = 1024 * 1024;
/** Writes the process's peak resident memory (KiB) to $UDCLI_TEST_RSS_FILE as it exits. */
const probe = join(dir, 'rss-probe.mjs');
writeFileSync(
  probe,
  "import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(process.env.UDCLI_TEST_RSS_FILE, String(process.resourceUsage().maxRSS)));\n",
);

/** A HAR whose `log.pages` holds `bytes` of nested brackets: the entries are empty and fine. */
function bracketBomb(name: string, bytes: number): string {
  const half = bytes / 2;
  const file = join(dir, name);
  writeFileSync(
    file,
    `{"log":{"version":"1.2","creator":{"name":"x","version":"1"},"entries":[],"pages":${'['.repeat(half)}${']'.repeat(half)}}}`,
  );
  return file;
}

async function measured(args: string[], name: string): Promise<{ code: number; stderr: string; peakMb: number }> {
  const rssFile = join(dir, `${name}.rss`);
  const env = {
    UDCLI_CONFIG_DIR: join(dir, 'config'),
    UDCLI_DATA_DIR: join(dir, 'data'),
    NODE_OPTIONS: `--import=${probe}`,
    UDCLI_TEST_RSS_FILE: rssFile,
  };
  const r = await runCli(args, env, { timeoutMs: 60_000 });
  return { code: r.code, stderr: r.stderr, peakMb: Number(readFileSync(rssFile, 'utf8')) / 1024 };
}

describe('a file of nested brackets outside the entries', () => {
  const bomb = bracketBomb('brackets.har', 20 * MB);

  it('sandbox import: one line naming the file, exit 2, nothing written, at most 300 MB of memory', async () => {
    const out = join(dir, 'imported.yaml');
    const r = await measured(['sandbox', 'import', bomb, out], 'import');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`udcli: ${bomb}: nested more than ${MAX_DEPTH} levels deep: not a recording\n`);
    expect(() => readFileSync(out)).toThrow();
    expect(r.peakMb).toBeLessThanOrEqual(300);
  }, 90_000);

  it('sandbox diff: the same line, exit 2, at most 300 MB of memory', async () => {
    const r = await measured(['sandbox', 'diff', bomb], 'diff');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`udcli: ${bomb}: nested more than ${MAX_DEPTH} levels deep: not a recording\n`);
    expect(r.peakMb).toBeLessThanOrEqual(300);
  }, 90_000);
});

describe('a body of nested brackets (a string in the file, JSON to its readers)', () => {
  it('sandbox import: one line naming the entry and the body, exit 2, at most 300 MB of memory; base64 alike', async () => {
    const n = 10 * MB - 16;
    const entry = (text: string, encoding?: string) => ({
      startedDateTime: '2026-01-01T00:00:00Z',
      request: {
        method: 'GET',
        url: `https://p.example/services/rest/v1/users/${'c3'.repeat(16)}.json?api_key=${'01'.repeat(16)}`,
        headers: [],
      },
      response: {
        status: 200,
        headers: [],
        content: { mimeType: 'application/json', text, ...(encoding ? { encoding } : {}) },
      },
    });
    const nested = `{"code":200,"message":"OK","payload":${'['.repeat(n)}${']'.repeat(n)}}`;
    for (const [name, e] of [
      ['body.har', entry(nested)],
      ['body64.har', entry(Buffer.from(nested).toString('base64'), 'base64')],
    ] as const) {
      const file = join(dir, name);
      writeFileSync(
        file,
        JSON.stringify({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [e] } }),
      );
      const r = await measured(['sandbox', 'import', file, join(dir, `${name}.yaml`)], name);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `udcli: ${file}: entry 0: its response body is nested more than 1,000,000 levels deep: not a recording\n`,
      );
      expect(r.peakMb).toBeLessThanOrEqual(300);
    }
  }, 90_000);

  it('a body nested 100,000 levels deep (as sandbox diff is shown comparing) reads whole', async () => {
    const file = join(dir, 'deep-body.har');
    const text = `{"payload":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    writeFileSync(
      file,
      JSON.stringify({
        log: { version: '1.2', entries: [{ request: { postData: { text } }, response: { content: { text } } }] },
      }),
    );
    await expect(readHar(file, () => undefined)).resolves.toMatchObject({ entries: 1 });
  });
});

describe('the depth bound', () => {
  it('holds inside an entry too; a recording nested up to the bound reads whole', async () => {
    const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    // The file, log, entries and the entry are 4 levels; `_deep` adds the rest.
    const within = join(dir, 'within.har');
    writeFileSync(within, `{"log":{"version":"1.2","entries":[{"_deep":${deep(MAX_DEPTH - 4)}}]}}`);
    const seen: unknown[] = [];
    await expect(readHar(within, (entry) => void seen.push(entry))).resolves.toMatchObject({ entries: 1 });
    expect(seen).toHaveLength(1);

    const beyond = join(dir, 'beyond.har');
    writeFileSync(beyond, `{"log":{"version":"1.2","entries":[{"_deep":${deep(MAX_DEPTH - 3)}}]}}`);
    await expect(readHar(beyond, () => undefined)).rejects.toThrow(
      `${beyond}: nested more than ${MAX_DEPTH} levels deep: not a recording`,
    );
  });
});
