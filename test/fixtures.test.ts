/** The shared fixtures (test/fixtures.ts) do what tests rely on them for. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO } from '../src/domain/demo.js';
import { beforeAll, describe, expect, test } from './fixtures.js';
import { settled } from './until.js';

let fileSandboxUrl = '';
let earlierConfigDir = '';

describe('the shared fixtures', () => {
  test('sandbox: the demo data on a port of its own; run() is main in-process against it', async ({ sandbox }) => {
    expect(sandbox.sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.sandbox.url).not.toBe(`http://127.0.0.1:${DEMO.port}`);
    const r = await sandbox.runChecked(['user', DEMO.user.username, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { uid: string }).uid).toBe(DEMO.user.uid);
    fileSandboxUrl = sandbox.sandbox.url;
  });

  test('sandbox: one for the whole file', ({ sandbox }) => {
    expect(sandbox.sandbox.url).toBe(fileSandboxUrl);
  });

  test('dirs: a config directory of its own, where commands write', async ({ dirs }) => {
    const r = await dirs.run(['profile', 'add', 'staging', '--base-url', 'https://staging.example.com']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dirs.configDir, 'config.json'), 'utf8'))).toMatchObject({
      profiles: { staging: { base_url: 'https://staging.example.com' } },
    });
    earlierConfigDir = dirs.configDir;
  });

  test('dirs: fresh for each test, the earlier one removed', async ({ dirs }) => {
    expect(dirs.configDir).not.toBe(earlierConfigDir);
    expect(existsSync(earlierConfigDir)).toBe(false);
    const r = await dirs.run(['profile', 'list', '--json']);
    expect((JSON.parse(r.stdout) as Array<{ name: string }>).map((p) => p.name)).toEqual(['sandbox']);
  });

  test('until: the value once the condition holds; a condition that never does fails, naming it', async ({ until }) => {
    let n = 0;
    expect(await until(() => (++n >= 3 ? n : undefined), 'n to reach 3', { intervalMs: 1 })).toBe(3);
    await expect(until(() => false, 'what never happens', { timeoutMs: 50, intervalMs: 5 })).rejects.toThrow(
      'gave up waiting for what never happens',
    );
  });

  test('settled: the first value that holds, or else the last one read, for the assertion to show', async () => {
    let n = 0;
    expect(
      await settled(
        () => ++n,
        (v) => v >= 3,
        { intervalMs: 1 },
      ),
    ).toBe(3);
    expect(
      await settled(
        () => ++n,
        (v) => v < 0,
        { timeoutMs: 30, intervalMs: 5 },
      ),
    ).toBe(n);
    await expect(
      settled(
        () => Promise.reject(new Error('read failed')),
        () => true,
      ),
    ).rejects.toThrow('read failed');
  });
});

describe('another sandbox beside the file’s', () => {
  let bound = '';
  beforeAll(({ sandbox }) => {
    bound = sandbox.sandbox.url;
  });

  test('suite hooks are handed the file’s sandbox', ({ sandbox }) => {
    expect(bound).toBe(sandbox.sandbox.url);
  });

  test('newSandbox: its own port and database, with the options asked for', async ({ sandbox, newSandbox }) => {
    const empty = await newSandbox({ seed: 'none' });
    expect(empty.sandbox.url).not.toBe(sandbox.sandbox.url);
    expect((await empty.run(['user', DEMO.user.uid, '--json'])).code).not.toBe(0);
    expect((await sandbox.run(['user', DEMO.user.uid, '--json'])).code).toBe(0);
    await empty.close();
    await expect(fetch(`${empty.sandbox.url}/_sandbox/requests`)).rejects.toThrow();
  });
});
