/**
 * Child processes for the benches: whole-process timings (spawn to close, hrtime), peak RSS
 * reported by the child itself (rss-preload.js), long-running servers that print their URL,
 * and one registry so every child is stopped on the way out, also on failure or Ctrl-C.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const RSS_PRELOAD = fileURLToPath(new URL('./rss-preload.js', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/udcli.js', import.meta.url));

/** @type {Set<import('node:child_process').ChildProcess>} */
const live = new Set();

/**
 * SIGTERM, as Ctrl-C would; SIGKILL after 5 s.
 * @param {import('node:child_process').ChildProcess} child
 * @param {Promise<unknown>} exited
 */
async function stopChild(child, exited) {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(t);
  }
  live.delete(child);
}

/** Kills every child still running (SIGKILL: nothing of ours needs a graceful stop). */
export function killAll() {
  for (const child of live) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  live.clear();
}

/**
 * The environment for children: ours without UDCLI_* and colour settings, plus `extra`.
 * @param {Record<string, string>} extra
 * @returns {NodeJS.ProcessEnv}
 */
export function cleanEnv(extra = {}) {
  /** @type {NodeJS.ProcessEnv} */
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('UDCLI_') || k === 'FORCE_COLOR' || k === 'NODE_OPTIONS' || k === 'NODE_DEBUG') continue;
    env[k] = v;
  }
  return { ...env, NO_COLOR: '1', ...extra };
}

/**
 * @typedef {object} TimedRun
 * @property {number} ms        wall time from spawn to close
 * @property {number} code
 * @property {string} stderr    (first 4 KB)
 * @property {number | undefined} rssKB  peak RSS reported by the child (with `rss: true`)
 */

/**
 * Runs `node ...args` to completion and times it.
 * @param {string[]} args  node arguments (script first, or -e ...)
 * @param {{ env?: NodeJS.ProcessEnv, stdoutFile?: string, rssFile?: string, timeoutMs?: number, input?: string }}
 * [options]
 *   stdoutFile: the child's stdout goes to this file (truncated), else nowhere.
 *   rssFile: run under the RSS preload, which writes the peak RSS (KB) to this file at exit.
 * @returns {Promise<TimedRun>}
 */
export function timedNode(args, options = {}) {
  const execArgs = options.rssFile ? ['--import', RSS_PRELOAD, ...args] : args;
  const env = { ...(options.env ?? cleanEnv()) };
  if (options.rssFile) {
    env.BENCH_RSS_FILE = options.rssFile;
    rmSync(options.rssFile, { force: true });
  }
  const out = options.stdoutFile ? openSync(options.stdoutFile, 'w') : 'ignore';
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(options.nodePath ?? process.execPath, execArgs, { env, stdio: ['ignore', out, 'pipe'] });
    if (typeof out === 'number') closeSync(out);
    live.add(child);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => {
      if (stderr.length < 4096) stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      live.delete(child);
      reject(e);
    });
    child.on('close', (code, signal) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      clearTimeout(timer);
      live.delete(child);
      let rssKB;
      if (options.rssFile) {
        try {
          rssKB = Number(readFileSync(options.rssFile, 'utf8').trim().split('\n').at(-1));
        } catch {
          rssKB = undefined;
        }
      }
      resolve({ ms, code: code ?? (signal ? 128 : -1), stderr: stderr.slice(0, 4096), rssKB });
    });
  });
}

/**
 * Like timedNode, but a non-zero exit is an error naming the command and its stderr.
 * @param {string} label
 * @param {string[]} args
 * @param {Parameters<typeof timedNode>[1]} [options]
 */
export async function mustRun(label, args, options) {
  const r = await timedNode(args, options);
  if (r.code !== 0) throw new Error(`${label}: exit ${r.code}\n${r.stderr}`);
  return r;
}

/**
 * @typedef {object} Server
 * @property {string} url
 * @property {number} pid
 * @property {() => Promise<void>} stop
 */

/**
 * Starts a server script that prints one JSON line `{"url": ...}` on stdout when it listens.
 * The server also stops when its stdin closes, so it cannot outlive this process.
 * @param {string} script
 * @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, timeoutMs?: number }} [options]
 * @returns {Promise<Server>}
 */
export function startServer(script, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: options.env ?? cleanEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    live.add(child);
    let out = '';
    let err = '';
    let settled = false;
    const fail = (/** @type {Error} */ e) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(e);
    };
    const timer = setTimeout(
      () => fail(new Error(`${script} did not start within ${options.timeoutMs ?? 30_000} ms\n${err}`)),
      options.timeoutMs ?? 30_000,
    );
    child.stderr.setEncoding('utf8').on('data', (d) => {
      if (err.length < 8192) err += d;
    });
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl < 0 || settled) return;
      settled = true;
      clearTimeout(timer);
      const { url } = JSON.parse(out.slice(0, nl));
      const exited = new Promise((r) => child.once('close', r));
      resolve({
        url,
        pid: /** @type {number} */ (child.pid),
        stop: () => stopChild(child, exited),
      });
    });
    child.on('error', fail);
    child.on('close', (code) => {
      live.delete(child);
      fail(new Error(`${script} exited (${code}) before it listened\n${err}`));
    });
  });
}

/**
 * Runs a node script and parses its stdout as JSON.
 * @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, timeoutMs?: number }} [options]
 * @returns {Promise<any>}
 */
export function nodeJson(args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: options.env ?? cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(child);
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => {
      if (err.length < 8192) err += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      live.delete(child);
      if (code !== 0) return reject(new Error(`node ${args.join(' ')}: exit ${code}\n${err}`));
      try {
        resolve(JSON.parse(out));
      } catch {
        reject(new Error(`node ${args.join(' ')}: not JSON:\n${out.slice(0, 500)}\n${err}`));
      }
    });
  });
}

/**
 * `udcli sandbox start` on a free loopback port and the database `dbPath`, as node's arguments.
 * @param {string} bin  the udcli.js to run (this clone's, or a scratch install's)
 * @param {string} dbPath
 */
export function sandboxStartArgs(bin, dbPath) {
  return [bin, 'sandbox', 'start', '--port', '0', '--host', '127.0.0.1', '--db', dbPath];
}

/**
 * `npm install` of `packages` into `prefix` alone, leaving no trace in this clone's package files.
 * @param {string} prefix @param {string[]} packages
 */
export function npmInstallArgs(prefix, packages) {
  return ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', prefix, ...packages];
}

/**
 * Starts the sandbox as users run it: `udcli sandbox start` of the built CLI in the foreground,
 * its stdout (the URL line, then one line per request) going to `logFile`, as when a developer
 * sends it to a file (`> sandbox.log`) or runs it detached. Resolves with its URL once it
 * listens (the first line of that file). `extraArgs` go after the bench's own, e.g.
 * ['--latency', '40ms']. Stopped with SIGTERM, as Ctrl-C or `sandbox stop` would.
 * @param {string} dbPath
 * @param {{ env: NodeJS.ProcessEnv, logFile: string, extraArgs?: string[], nodeArgs?: string[], timeoutMs?: number }}
 * options
 *   env: the CLI's environment; give it its own UDCLI_DATA_DIR (the pid file goes there).
 *   nodeArgs: for node itself, e.g. ['--cpu-prof', '--cpu-prof-dir', DIR] to profile the sandbox.
 * @returns {Promise<Server>}
 */
export function startCliSandbox(dbPath, options) {
  const extra = options.extraArgs ?? [];
  // The bench seeds its own database: no demo data unless asked for.
  const seed = extra.includes('--seed') || extra.includes('--data') ? [] : ['--seed', 'none'];
  const args = [...(options.nodeArgs ?? []), ...sandboxStartArgs(BIN, dbPath), ...seed, ...extra];
  const out = openSync(options.logFile, 'w');
  const child = spawn(process.execPath, args, { env: options.env, stdio: ['ignore', out, 'pipe'] });
  closeSync(out);
  live.add(child);
  const exited = new Promise((r) => child.once('close', r));
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d) => {
    if (err.length < 8192) err += d;
  });
  const timeoutMs = options.timeoutMs ?? 30_000;
  const label = `udcli sandbox start ${extra.join(' ')}`.trim();
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + timeoutMs;
    const poll = () => {
      if (child.exitCode !== null || child.signalCode !== null) {
        live.delete(child);
        return reject(new Error(`${label} exited (${child.exitCode ?? child.signalCode}) before it listened\n${err}`));
      }
      const text = readFileSync(options.logFile, 'utf8');
      const nl = text.indexOf('\n');
      if (nl >= 0) {
        const url = text.slice(0, nl);
        if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(url)) {
          child.kill('SIGKILL');
          return reject(new Error(`${label}: unexpected first line ${JSON.stringify(url.slice(0, 200))}`));
        }
        return resolve({
          url,
          pid: /** @type {number} */ (child.pid),
          stop: () => stopChild(child, exited),
        });
      }
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        return reject(new Error(`${label} did not listen within ${timeoutMs} ms\n${err}`));
      }
      setTimeout(poll, 20);
    };
    poll();
  });
}
