/**
 * `udcli sandbox clock now | advance | set` end to end (issue 11): the built binary moves the
 * running sandbox's virtual clock, and expiry follows at once: a token is expired after
 * `advance 901s`, an agi challenge after `advance 301s`. It finds the sandbox by --port, inside
 * `sandbox exec`, or by the pid file of `sandbox start`. Bad input: exit 2, one line, nothing sent.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { agiSignature } from '../../src/domain/agi-signing.js';
import { DEMO } from '../../src/domain/demo.js';
import { API_PREFIX } from '../../src/domain/types.js';
import { BIN, closedPort, json, nowhere, runCli, runInProcess, type TestEnv } from './harness.js';
import { until } from '../until.js';
import { fileScratch } from '../scratch.js';

let env: TestEnv;
let port: string;
const scratch = fileScratch('udcli-e2e-clock-');
beforeAll(async ({ sandbox }) => {
  env = sandbox;
  port = String(env.sandbox.port);
});

interface ClockJson {
  now: string;
  unix: number;
  offset_seconds: number;
}

const clock = (args: string[]) => env.runChecked(['sandbox', 'clock', ...args, '--port', port]);

function exported(stdout: string): Record<string, string> {
  return Object.fromEntries(
    stdout.split('\n').flatMap((line) => {
      const m = /^(UDCLI_[A-Z_]+)=(.*)$/.exec(line);
      return m ? [[m[1]!, m[2]!]] : [];
    }),
  );
}

describe('sandbox clock', () => {
  it('now, advance and set: the new time on stdout (or --json); going back is allowed and said', async () => {
    // The time shown is the real time, plus the offset, of a moment between the two readings around it.
    const before = Math.floor(Date.now() / 1000);
    const now = json<ClockJson>(await clock(['now', '--json']));
    const after = Math.ceil(Date.now() / 1000);
    expect(now.unix - now.offset_seconds).toBeGreaterThanOrEqual(before - 1);
    expect(now.unix - now.offset_seconds).toBeLessThanOrEqual(after + 1);

    const advanced = await clock(['advance', '15m']);
    expect(advanced.code, advanced.stderr).toBe(0);
    expect(advanced.stdout).toMatch(
      new RegExp(
        `^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z \\(offset \\+${now.offset_seconds + 900} s\\)\\n$`,
      ),
    );

    const back = await clock(['set', '2020-01-01T00:00:00Z', '--json']);
    expect(back.code, back.stderr).toBe(0);
    // The clock runs on from the time set: a millisecond may pass before the reply reads it.
    expect(json<ClockJson>(back)).toMatchObject({
      now: expect.stringMatching(/^2020-01-01T00:00:00\.\d{3}Z$/),
      unix: 1577836800,
    });
    expect(back.stderr).toMatch(
      /^udcli: the clock went back \d+ s: tokens, sessions and challenges issued since then last that much longer\n$/,
    );

    // Back to the real time for the other tests: the offset is at most the time the command took, behind.
    const setAt = Date.now();
    const reset = await clock(['set', new Date(setAt).toISOString(), '--json']);
    const took = Math.ceil((Date.now() - setAt) / 1000);
    expect(json<ClockJson>(reset).offset_seconds).toBeLessThanOrEqual(1);
    expect(json<ClockJson>(reset).offset_seconds).toBeGreaterThanOrEqual(-took - 1);
  });

  it('a token expires after `clock advance 901s`, without waiting', async () => {
    const issued = await env.runChecked(['auth', 'token', DEMO.game.id, '--as', DEMO.user.username, '--export']);
    expect(issued.code, issued.stderr).toBe(0);
    const vars = exported(issued.stdout);
    expect((await env.runChecked(['auth', 'verify'], { env: vars })).code).toBe(0);

    expect((await clock(['advance', '901s'])).code).toBe(0);
    const expired = await env.runChecked(['auth', 'verify'], { env: vars });
    expect(expired.code).toBe(3);
    expect(expired.stderr).toMatch(/^udcli: not authenticated: token expired\n/);
  });

  it('an agi challenge expires after `clock advance 301s`', async () => {
    const path = `${API_PREFIX}/achievements/user/${DEMO.user.uid}.json`;
    const query: Array<[string, string]> = [
      ['api_key', DEMO.secondGame.apiKey],
      ['type', 'Game'],
      ['pid', DEMO.secondGame.id],
      ['developer_id', 'X'],
      ['reset', '1'],
    ];
    const send = (q: Array<[string, string]>) =>
      fetch(`${env.sandbox.url}${path}?${new URLSearchParams(q).toString()}`, { method: 'PUT' });
    const first = (await (await send(query)).json()) as { code: number; payload: { session: string; key: string } };
    expect(first.code).toBe(401);
    expect((await clock(['advance', '301s'])).code).toBe(0);
    const challenge = first.payload;
    const signed = await send([
      ...query,
      ['session', challenge.session],
      ['sig', agiSignature({ ...challenge, path, query })],
    ]);
    expect(signed.status).toBe(401);
    expect(((await signed.json()) as { message: string }).message).toMatch(/^stale session/);
  });

  it.each([
    [
      ['advance', '5x'],
      'udcli: invalid duration "5x": expected seconds or a number with s, m, h or d, e.g. 901s or 15m (to go back, use set)\n',
    ],
    [['set', 'notadate'], 'udcli: invalid date-time "notadate": expected ISO 8601 like 2030-01-01T12:00:00Z\n'],
  ])('%j: exit 2, one line, nothing sent', async (args, stderr) => {
    const r = await runInProcess(['sandbox', 'clock', ...args], { ...env.env, ...(await nowhere()) });
    expect(r).toEqual({ code: 2, stdout: '', stderr });
  });

  it('no sandbox on the port: exit 1, one line and a hint', async () => {
    const r = await runInProcess(['sandbox', 'clock', 'now', '--port', String(await closedPort())], env.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^udcli: no sandbox answers at http:\/\/127\.0\.0\.1:\d+\n/);
  });

  it("inside `sandbox exec`: the command's own sandbox", async () => {
    // The binary: exec hands its own stdout to the command, which only a process of its own has.
    const r = await runCli(
      ['sandbox', 'exec', '--', process.execPath, BIN, 'sandbox', 'clock', 'advance', '1d', '--json'],
      {
        UDCLI_DATA_DIR: join(scratch, 'exec-data'),
        UDCLI_CONFIG_DIR: join(scratch, 'exec-config'),
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(json<ClockJson>(r).offset_seconds).toBe(86_400);
  });

  it('without --port: the sandbox `sandbox start` recorded in its pid file', async () => {
    const dirs = { UDCLI_DATA_DIR: join(scratch, 'start-data'), UDCLI_CONFIG_DIR: join(scratch, 'start-config') };
    const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', '--db', ':memory:'], {
      env: { PATH: process.env.PATH, NO_COLOR: '1', ...dirs },
    });
    const closed = new Promise((resolve) => child.on('close', resolve));
    try {
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      await until(() => stdout.includes('\n'), 'the URL of the sandbox');
      const r = await runInProcess(['sandbox', 'clock', 'advance', '2h', '--json'], dirs);
      expect(r.code, r.stderr).toBe(0);
      expect(json<ClockJson>(r).offset_seconds).toBe(7200);
      // The first line is the URL; request lines follow it.
      const shown = await fetch(`${stdout.split('\n')[0]}/_sandbox/clock`);
      expect(((await shown.json()) as ClockJson).offset_seconds).toBe(7200);
    } finally {
      child.kill('SIGTERM');
      await closed;
    }
  });
});
