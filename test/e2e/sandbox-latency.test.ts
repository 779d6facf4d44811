/**
 * `--latency` (issue 24): the sandbox holds every /services/rest reply that long, as a network
 * round trip would; a bad value is one line on stderr and exit 2, with nothing started. The
 * built binary runs the sandboxes (main in-process for status and bad values). Only lower bounds: a held reply takes at
 * least the latency
 * (a test never asserts how fast anything is).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/domain/demo.js';
import { BIN, json, runCli, runInProcess } from './harness.js';
import { until } from '../until.js';
import { fileScratch } from '../scratch.js';

const scratch = fileScratch('udcli-e2e-latency-');

const LATENCY_MS = 300;
/** libuv's timers count whole milliseconds: a reply may go out up to 1 ms before the wall clock says. */
const CLOCK_SLACK_MS = 2;
const USER_PATH = `/services/rest/v1/users/${DEMO.user.uid}.json?api_key=${DEMO.game.apiKey}`;

/** Milliseconds from sending a request to having its whole reply. */
async function timed(url: string, init: RequestInit = {}): Promise<{ ms: number; status: number; text: string }> {
  const started = performance.now();
  const response = await fetch(url, init);
  const text = await response.text();
  return { ms: performance.now() - started, status: response.status, text };
}

/** A foreground `sandbox start ARGS`, until stop() (SIGTERM). */
async function startSandbox(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', '--db', ':memory:', ...args], {
    env: { PATH: process.env.PATH, NO_COLOR: '1', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  // The exit code, or the signal that ended it (a crash on the way out says which).
  const closed = new Promise<number | string>((resolve) =>
    child.on('close', (code, signal) => resolve(code ?? `signal ${signal}`)),
  );
  // The URL on stdout and the banner's last line on stderr: two pipes, read in either order.
  const ready = () => stdout.includes('\n') && stderr.includes('Press Ctrl-C to stop.');
  await until(() => ready() || child.exitCode !== null, 'the sandbox to print its URL and banner', {
    timeoutMs: 15_000,
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return {
    url: stdout.split('\n')[0] ?? '',
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return closed;
    },
  };
}

describe('sandbox --latency (e2e)', () => {
  it(`start --latency ${LATENCY_MS}ms: every API reply takes at least that long, errors and the challenge included; status and the banner say so`, async () => {
    const env = { UDCLI_DATA_DIR: join(scratch, 'start-data') };
    const sb = await startSandbox(['--latency', `${LATENCY_MS}ms`], env);
    try {
      expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(sb.stderr()).toContain(`holding every /services/rest reply ${LATENCY_MS} ms (--latency)`);

      const ok = await timed(`${sb.url}${USER_PATH}`);
      expect(ok.status).toBe(200);
      expect(ok.ms).toBeGreaterThanOrEqual(LATENCY_MS - CLOCK_SLACK_MS);
      const missing = await timed(`${sb.url}/services/rest/v1/no/such.json`);
      expect(missing.status).toBe(404);
      expect(missing.ms).toBeGreaterThanOrEqual(LATENCY_MS - CLOCK_SLACK_MS);
      // The agi challenge of an unsigned increment, as the platform's SDK sends it.
      const challenge = await timed(
        `${sb.url}/services/rest/v1/achievements/user/${DEMO.user.uid}.json?api_key=${DEMO.game.apiKey}&type=Game&pid=${DEMO.game.id}&developer_id=COLLECT_1000_GEMS&increment=1&method=put`,
        { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      );
      expect(challenge.status).toBe(401);
      expect(challenge.ms).toBeGreaterThanOrEqual(LATENCY_MS - CLOCK_SLACK_MS);

      const status = await runInProcess(['sandbox', 'status', '--json'], env);
      expect(status.code, status.stderr).toBe(0);
      expect(json<{ latency_ms: number; url: string }>(status)).toMatchObject({ latency_ms: LATENCY_MS, url: sb.url });
      const text = await runInProcess(['sandbox', 'status'], env);
      expect(text.stdout).toContain(`latency ${LATENCY_MS} ms on every /services/rest reply`);
    } finally {
      expect(await sb.stop(), sb.stderr()).toBe(0);
    }
  }, 60_000);

  it('exec --latency 2s: the command sees the held replies', async () => {
    const script = `const t = performance.now(); fetch(process.env.UDCLI_BASE_URL + ${JSON.stringify(USER_PATH)}).then((r) => r.text()).then(() => console.log(Math.floor(performance.now() - t)));`;
    // The binary: exec hands its own stdout to the command, which only a process of its own has.
    const r = await runCli(
      ['sandbox', 'exec', '--latency', '2s', '--', process.execPath, '-e', script],
      { UDCLI_DATA_DIR: join(scratch, 'exec-data') },
      { timeoutMs: 60_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('holding every /services/rest reply 2000 ms (--latency)');
    expect(Number(r.stdout.trim())).toBeGreaterThanOrEqual(2000 - CLOCK_SLACK_MS);
  }, 60_000);

  it('--latency 0 is no latency: accepted, no banner line', async () => {
    const sb = await startSandbox(['--latency', '0'], { UDCLI_DATA_DIR: join(scratch, 'zero-data') });
    try {
      expect((await timed(`${sb.url}${USER_PATH}`)).status).toBe(200);
      expect(sb.stderr()).not.toContain('--latency');
    } finally {
      expect(await sb.stop(), sb.stderr()).toBe(0);
    }
  }, 60_000);

  it.each([
    ['sandbox', 'start', '--port', '0', '--db', ':memory:', '--latency', 'fast'],
    ['sandbox', 'start', '--port', '0', '--db', ':memory:', '--latency', '11s'],
    ['sandbox', 'start', '--port', '0', '--db', ':memory:', '--latency', '-40ms'],
    ['sandbox', 'start', '--detach', '--port', '0', '--db', ':memory:', '--latency', '40 min'],
    ['sandbox', 'exec', '--latency', '1h', '--', process.execPath, '-e', '0'],
    ['sandbox', 'play', '--no-open', '--latency', 'x'],
  ])('a bad value (%s %s ...): one line on stderr, exit 2, nothing started', async (...args) => {
    const dataDir = join(scratch, `bad-${args.join('-').replace(/[^a-z0-9]+/gi, '')}`);
    const r = await runInProcess(args, { UDCLI_DATA_DIR: dataDir });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^udcli: invalid --latency ".*": expected a duration like 40ms or 2s, from 0 to 10s$/);
    expect(existsSync(join(dataDir, 'sandbox.pid'))).toBe(false);
  });
});
