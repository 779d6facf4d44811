/**
 * The SQLite driver under forced garbage collection (issue 39). better-sqlite3 12 on Node
 * 24.19–24.21 aborted the process (exit 134, `Assertion failed: (env) != nullptr` in
 * `Statement::~Statement`) whenever the GC freed a prepared statement: the sandbox died within
 * seconds or at a reset, and one-shot commands at random. Here each udcli process runs with
 * `--expose-gc` and a preload that collects every 50 ms and once more as it exits, so
 * every statement a reset, a load or a command prepares and drops is freed while the process
 * still runs. The process is the subject (an abort is a process dying), so the built binary.
 * Needs `npm run build` first, like every e2e test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/domain/demo.js';
import { API_PREFIX } from '../../src/domain/types.js';
import { until } from '../until.js';
import { BIN, commandEnv } from './harness.js';

/**
 * Collects garbage every 50 ms, and once more on the way out (a one-shot command's statements die
 * there). A statement dropped is freed within 50 ms while the process still runs, which is all
 * the abort needed; every 10 ms, collecting took most of each process's CPU.
 */
const FORCED_GC = `data:text/javascript,${encodeURIComponent(
  "setInterval(() => globalThis.gc(), 50).unref(); process.on('exit', () => globalThis.gc());",
)}`;
const NODE_ARGS = ['--expose-gc', '--import', FORCED_GC, BIN];

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

let scratch: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'udcli-gc-'));
  env = commandEnv({ UDCLI_DATA_DIR: join(scratch, 'data'), UDCLI_CONFIG_DIR: join(scratch, 'config') });
  writeFileSync(
    join(scratch, 'racers.yaml'),
    'games:\n  - id: "8080"\n    name: Racers\n    keys:\n      - api_key: 8080abcdef0123456789abcdef012345\n        signing_secret: s3cret-racers\nusers:\n  - username: speedy\n    plays: ["8080"]\n',
  );
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function start(args: string[]): { child: ChildProcess; ended: Promise<Ended>; out: () => string; err: () => string } {
  const child = spawn(process.execPath, [...NODE_ARGS, ...args], {
    cwd: scratch,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const ended = new Promise<Ended>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, ended, out: () => stdout, err: () => stderr };
}

/** A one-shot command under forced GC: it must end by itself, with its own exit code, not a signal. */
async function oneShot(args: string[]): Promise<Ended> {
  const { child, ended } = start(args);
  // Only a hang ends here; a passing command is long done.
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const r = await ended;
  clearTimeout(timer);
  return r;
}

function expectClean(r: Ended, what: string): void {
  // An abort is signal SIGABRT (exit 134 from a shell); a segfault SIGSEGV.
  expect(r.signal, `${what} died of a signal\n${r.stderr}`).toBeNull();
  expect(r.code, `${what}\n${r.stderr}`).toBe(0);
}

describe('prepared statements freed by forced garbage collection', () => {
  it('a running sandbox survives requests, resets and reloads from another process', async () => {
    const db = join(scratch, 'served.db');
    const sandbox = start(['sandbox', 'start', '--port', '0', '--db', db]);
    try {
      const url = (
        await until(() => {
          // Dead before it printed its URL: say how, rather than wait for a URL that will not come.
          if (sandbox.child.exitCode !== null || sandbox.child.signalCode !== null) {
            throw new Error(
              `the sandbox died (${sandbox.child.signalCode ?? `exit ${sandbox.child.exitCode}`}) before serving\n${sandbox.err()}`,
            );
          }
          return /^(http:\/\/\S+)\n/.exec(sandbox.out())?.[1];
        }, 'the sandbox URL')
      ).replace('0.0.0.0', '127.0.0.1');
      const user = `${url}${API_PREFIX}/achievements/user/${DEMO.user.uid}.json?api_key=${DEMO.game.apiKey}&parent_id=${DEMO.game.id}`;
      // Two rounds: the abort came at the first or second reset (issue 39); each round frees the
      // statements of a reset and of a reload.
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 10; i++) expect((await fetch(user)).status).toBe(200);
        // A live reset empties and refills every table with statements prepared for it and dropped.
        const reset = await fetch(`${url}/_sandbox/reset`, { method: 'POST' });
        expect(reset.status).toBe(200);
        // A reload: another process loads a data file into the served database, which the sandbox sees at once.
        expectClean(
          await oneShot(['sandbox', 'load', join(scratch, 'racers.yaml'), '--db', db, '--yes']),
          `sandbox load (round ${round})`,
        );
        const speedy = await fetch(
          `${url}${API_PREFIX}/users/speedy.json?api_key=8080abcdef0123456789abcdef012345&username=1`,
        );
        expect(speedy.status).toBe(200);
        expect(sandbox.child.signalCode, sandbox.err()).toBeNull();
        expect(sandbox.child.exitCode, sandbox.err()).toBeNull();
      }
    } finally {
      sandbox.child.kill('SIGTERM');
    }
    const ended = await sandbox.ended;
    // SIGTERM is a clean stop (exit 0 or the signal itself, not SIGABRT or SIGSEGV).
    expect(['SIGABRT', 'SIGSEGV', 'SIGBUS'], ended.stderr).not.toContain(ended.signal);
    expect(ended.stderr).not.toMatch(/Assertion failed|core dumped/);
  }, 120_000);

  it('the one-shot commands that open the database: seed, export, reset --db, exec', async () => {
    const db = join(scratch, 'one-shot.db');
    // Each command frees its statements under a collection every 50 ms and once more at exit.
    expectClean(await oneShot(['sandbox', 'seed', '--db', db, '--users', '300', '--friends', '100']), 'sandbox seed');
    const exported = join(scratch, 'export.yaml');
    expectClean(await oneShot(['sandbox', 'export', exported, '--db', db]), 'sandbox export');
    expect(existsSync(exported)).toBe(true);
    expectClean(await oneShot(['sandbox', 'reset', '--db', db, '--yes']), 'sandbox reset --db');
    // exec: a sandbox in the exec process, queried by a command of its own (also under forced GC).
    const r = await oneShot([
      'sandbox',
      'exec',
      '--',
      process.execPath,
      ...NODE_ARGS,
      'user',
      DEMO.user.username,
      '--json',
    ]);
    expectClean(r, 'sandbox exec');
    expect(JSON.parse(r.stdout)).toMatchObject({ uid: DEMO.user.uid });
  }, 120_000);
});
