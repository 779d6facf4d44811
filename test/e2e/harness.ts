/**
 * End-to-end harness: the CLI's `main` in this process with in-memory IO (run, runInProcess), or
 * the built binary as a separate process where the process itself is the subject (runBinary,
 * runCli: start-up, signals, exit codes of the real process, flushing, a terminal); against a
 * real sandbox on port 0 with a temporary database, and a temporary config directory so no test
 * touches the user's.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database as Connection } from 'better-sqlite3';
import { Database } from '../sqlite.js';
import { expect } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { writePidFile } from '../../src/cli/commands/sandbox/pidfile.js';
import { pidFilePath } from '../../src/sandbox/paths.js';
import { DEMO } from '../../src/domain/demo.js';
import { parseFaultSpec } from '../../src/sandbox/faults/spec.js';
import { fakeIO } from '../output/fake-io.js';
import { demoDatabaseAt } from '../sandbox/helpers/demo-file.js';

export const BIN = fileURLToPath(new URL('../../bin/udcli.js', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The demo game's secrets: no output of a data command may contain them in full. */
export const DEMO_SECRETS: readonly string[] = [DEMO.game.apiKey, DEMO.game.signingSecret];

export interface RunOptions {
  input?: string;
  env?: NodeJS.ProcessEnv;
}

export interface TestEnv {
  sandbox: RunningSandbox;
  configDir: string;
  dataDir: string;
  /** Environment that points the CLI at this sandbox with the demo game's credentials. */
  env: NodeJS.ProcessEnv;
  /** The CLI's `main` in this process (runInProcess) with this environment. */
  run(args: string[], options?: RunOptions): Promise<CliResult>;
  /** run(), then asserts that neither stdout nor stderr holds a demo secret in full. */
  runChecked(args: string[], options?: RunOptions): Promise<CliResult>;
  /** The built binary (runCli) with this environment: only where the process is the subject. */
  runBinary(args: string[], options?: RunOptions): Promise<CliResult>;
  /** runBinary(), then asserts that neither stdout nor stderr holds a demo secret in full. */
  runBinaryChecked(args: string[], options?: RunOptions): Promise<CliResult>;
  /** The same as run(): for reading state back between the commands under test. */
  read(args: string[], options?: Pick<RunOptions, 'env'>): Promise<CliResult>;
  close(): Promise<void>;
}

/**
 * The environment a command sees: this process's, without UDCLI_* or FORCE_COLOR, no colour,
 * then `env` (an `undefined` value removes a variable).
 */
export function commandEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('UDCLI_') && k !== 'FORCE_COLOR') base[k] = v;
  }
  const merged: NodeJS.ProcessEnv = { ...base, NO_COLOR: '1', ...env };
  for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k];
  return merged;
}

/**
 * The CLI's `main` in this process, with in-memory stdin/stdout/stderr (not terminals) and the
 * environment runCli would give the binary: the default for commands under test (a process of
 * the built binary costs half a second of CPU; this a few milliseconds).
 */
export async function runInProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { input?: string; stdin?: NodeJS.ReadableStream } = {},
): Promise<CliResult> {
  const { main } = await import('../../src/cli/main.js');
  const f = fakeIO({ env: commandEnv(env), ...(options.input === undefined ? {} : { stdin: options.input }) });
  const code = await main(args, options.stdin === undefined ? f.io : { ...f.io, stdin: options.stdin });
  return { code, stdout: f.stdout(), stderr: f.stderr() };
}

/**
 * Runs a command line udcli printed (an undo, a hint) as a user pastes it into a shell: sh parses
 * it, quoting and all, with `udcli` a shell function that records each command's arguments; each
 * is then run in-process in order, as `&&` would, until one fails. (The lines udcli prints join
 * commands with `&&` only.)
 */
export async function runPrinted(line: string, env: NodeJS.ProcessEnv): Promise<CliResult> {
  const parsed = spawnSync('sh', ['-c', `udcli() { printf '%s\\0' "$@"; printf '\\001'; }\n${line}`], {
    env: commandEnv(env),
    encoding: 'utf8',
  });
  if (parsed.status !== 0)
    throw new Error(`sh could not run the printed line (exit ${parsed.status}): ${line}\n${parsed.stderr}`);
  const commands = parsed.stdout
    .split('\x01')
    .slice(0, -1)
    .map((c) => c.split('\0').slice(0, -1));
  if (commands.length === 0) throw new Error(`no udcli command in the printed line: ${line}`);
  const result: CliResult = { code: 0, stdout: '', stderr: '' };
  for (const args of commands) {
    const r = await runInProcess(args, env);
    result.stdout += r.stdout;
    result.stderr += r.stderr;
    result.code = r.code;
    if (r.code !== 0) break;
  }
  return result;
}

/**
 * Runs bin/udcli.js with a clean environment: no inherited UDCLI_* and no colour. Only where the
 * process itself is the subject; commands under test go through runInProcess.
 */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { input?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: commandEnv(env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : -1), stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Asserts that neither stdout nor stderr holds a demo secret in full. */
export function expectNoSecrets(r: CliResult, args: readonly string[]): void {
  for (const secret of DEMO_SECRETS) {
    expect(r.stdout, `stdout of ${args.join(' ')}`).not.toContain(secret);
    expect(r.stderr, `stderr of ${args.join(' ')}`).not.toContain(secret);
  }
}

/** The CLI pointed at `url` with the demo game's credentials and game, its config and data dirs under `root`. */
export function demoEnvAt(url: string, root: string): NodeJS.ProcessEnv {
  return {
    UDCLI_CONFIG_DIR: join(root, 'config'),
    UDCLI_DATA_DIR: join(root, 'data'),
    UDCLI_BASE_URL: url,
    UDCLI_SITE_URL: url,
    UDCLI_API_KEY: DEMO.game.apiKey,
    UDCLI_SIGNING_SECRET: DEMO.game.signingSecret,
    UDCLI_GAME_ID: DEMO.game.id,
  };
}

/** A sandbox on port 0 with a temporary database seeded with the demo data, plus temp dirs. */
export async function startTestEnv(
  options: {
    seed?: 'demo' | 'none';
    rateLimitPerSecond?: number;
    data?: string;
    faults?: { spec: string; seed: number };
  } = {},
): Promise<TestEnv> {
  const root = mkdtempSync(join(tmpdir(), 'udcli-e2e-'));
  const configDir = join(root, 'config');
  const dataDir = join(root, 'data');
  const dbPath = join(root, 'sandbox.db');
  // The demo data as startSandbox would seed it into the empty file, copied in (test/sandbox/helpers/demo-file.ts).
  if ((options.seed ?? 'demo') === 'demo' && options.data === undefined) await demoDatabaseAt(dbPath, 'seedFrom');
  const sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    dbPath,
    seed: options.seed ?? 'demo',
    ...(options.rateLimitPerSecond ? { rateLimitPerSecond: options.rateLimitPerSecond } : {}),
    ...(options.data ? { data: options.data } : {}),
    ...(options.faults ? { faults: { spec: parseFaultSpec(options.faults.spec), seed: options.faults.seed } } : {}),
  });
  const env = demoEnvAt(sandbox.url, root);
  const input = (o: RunOptions) => (o.input === undefined ? {} : { input: o.input });
  const run = (args: string[], o: RunOptions = {}): Promise<CliResult> =>
    runInProcess(args, { ...env, ...o.env }, input(o));
  const runBinary = (args: string[], o: RunOptions = {}): Promise<CliResult> =>
    runCli(args, { ...env, ...o.env }, input(o));
  const checked = (runner: typeof run) => async (args: string[], o?: RunOptions) => {
    const r = await runner(args, o);
    expectNoSecrets(r, args);
    return r;
  };
  return {
    sandbox,
    configDir,
    dataDir,
    env,
    run,
    read: run,
    runBinary,
    runChecked: checked(run),
    runBinaryChecked: checked(runBinary),
    close: async () => {
      await sandbox.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * Runs the CLI on a pseudo-terminal (util-linux `script`), as a person at a terminal would, and
 * types `input` once `prompt` has appeared. stdout and stderr both arrive in `stdout`.
 * `stdinFromDevNull`: run it as `udcli ... < /dev/null` typed at that terminal.
 */
export function runOnTerminal(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { prompt: string; input: string; stdinFromDevNull?: boolean },
): Promise<CliResult> {
  const quoted =
    [process.execPath, BIN, ...args].map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(' ') +
    (options.stdinFromDevNull ? ' < /dev/null' : '');
  const base: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('UDCLI_')) base[k] = v;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', quoted, '/dev/null'], { env: { ...base, ...env, NO_COLOR: '1' } });
    let stdout = '';
    let typed = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    // A run that prints the prompt's words and exits without asking (what a test of --yes checks) may be
    // gone when the input is typed: the write's EPIPE says only that, and the output and exit code decide.
    child.stdin.on('error', () => undefined);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (!typed && stdout.includes(options.prompt)) {
        typed = true;
        child.stdin.write(options.input);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr: '' });
    });
  });
}

/** The connections each nowhere() listener has taken (by its base URL). */
const nowhereConnections = new Map<string, number>();

/**
 * A base URL whose listener stays open for the rest of the file and cuts every connection at
 * once: a usage error there (exit 2, not 5) proves nothing was sent, and connectionsTo() counts
 * what tried. (A port bound and closed again could be someone else's by the time it is used.)
 */
export async function nowhere(): Promise<NodeJS.ProcessEnv> {
  let url = '';
  const srv = createServer((socket) => {
    nowhereConnections.set(url, (nowhereConnections.get(url) ?? 0) + 1);
    socket.destroy();
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  srv.unref();
  const { port } = srv.address() as AddressInfo;
  url = `http://127.0.0.1:${port}`;
  nowhereConnections.set(url, 0);
  return { UDCLI_BASE_URL: url, UDCLI_SITE_URL: url };
}

/**
 * A port nothing listens on (bound once, then released), for what must see a connection refused
 * or bind the port itself. The port could be taken again meanwhile; nowhere() where it will do.
 */
export async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as AddressInfo;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

/** How many connections the nowhere() listener at this environment's base URL has taken. */
export function connectionsTo(env: NodeJS.ProcessEnv): number {
  const n = nowhereConnections.get(env.UDCLI_BASE_URL ?? '');
  if (n === undefined) throw new Error(`not a nowhere() environment: ${env.UDCLI_BASE_URL}`);
  return n;
}

/** Parses stdout as JSON, failing with the whole output in the message when it is not. */
export function json<T = unknown>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON (exit ${result.code}):\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
}

/** Reads the sandbox's database directly (read-only), as a check independent of the CLI. */
/** The local trail's lines (`<config dir>/audit.log`), oldest first; none when there is no log yet. */
export function auditLog(configDir: string): Array<Record<string, unknown>> {
  const path = join(configDir, 'audit.log');
  return existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];
}

/** The demo game's credentials as `profile add` takes them. */
export const DEMO_KEY_FLAGS: readonly string[] = ['--api-key', DEMO.game.apiKey];
export const DEMO_CREDENTIAL_FLAGS: readonly string[] = [
  ...DEMO_KEY_FLAGS,
  '--signing-secret',
  DEMO.game.signingSecret,
];

/**
 * `profile add <name> --base-url <baseUrl> ...flags` through a file's own runner (its checks, its
 * environment), which must succeed.
 */
export async function addProfile(
  run: (args: string[]) => Promise<CliResult>,
  name: string,
  baseUrl: string,
  ...flags: readonly string[]
): Promise<void> {
  const added = await run(['profile', 'add', name, '--base-url', baseUrl, ...flags]);
  expect(added.code, added.stderr).toBe(0);
}

/** A profile `name` of the config dir `env` runs with, pointing at its sandbox (`--from-sandbox`), plus `flags`. */
export async function addSandboxProfile(env: Pick<TestEnv, 'run' | 'sandbox'>, name: string, flags: string[] = []) {
  const added = await env.run(['profile', 'add', name, '--from-sandbox', '--base-url', env.sandbox.url, ...flags]);
  expect(added.code, added.stderr).toBe(0);
}

/** A production profile of the config dir `env` runs with, pointing at its sandbox (`--from-sandbox`), plus `extra`. */
export function addProductionProfile(env: Pick<TestEnv, 'run' | 'sandbox'>, name = 'prod', extra: string[] = []) {
  return addSandboxProfile(env, name, ['--production', ...extra]);
}

/**
 * A pid file that names `sandbox` the detached sandbox of `env`'s data dir, held by this process
 * (alive): what `sandbox info`, `status` and the commands looking for a running sandbox trust.
 */
export function writeDetachedPidFile(env: NodeJS.ProcessEnv, sandbox: Pick<RunningSandbox, 'port' | 'url' | 'dbPath'>) {
  writePidFile(pidFilePath(env), {
    pid: process.pid,
    port: sandbox.port,
    host: '127.0.0.1',
    url: sandbox.url,
    db: sandbox.dbPath,
    startedAt: new Date().toISOString(),
    detached: true,
  });
}

/** Units of `sku` of game 1001 each of `uids` holds (0 for none), read from the sandbox's database. */
export function heldUnits(env: TestEnv, sku: string, uids: readonly string[]): Map<string, number> {
  return withDb(env, (db) => {
    const rows = db
      .prepare(
        `SELECT h.uid AS uid, h.quantity AS quantity FROM holdings h
         JOIN products p ON p.parent_id = h.parent_id AND p.item = h.item
         WHERE p.parent_id = '1001' AND p.sku = ?`,
      )
      .all(sku) as Array<{ uid: string; quantity: number }>;
    const held = new Map(uids.map((u) => [u, 0]));
    for (const r of rows) if (held.has(r.uid)) held.set(r.uid, r.quantity);
    return held;
  });
}

/** How many users the sandbox database `file` holds, after SQLite finds it whole (integrity_check). */
export function usersIn(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    return (db.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

export function withDb<T>(env: TestEnv, fn: (db: Connection) => T): T {
  const db = new Database(env.sandbox.dbPath, { readonly: true, fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** A request as the sandbox's request log has it. */
export interface LoggedRequest {
  method: string;
  path: string;
  status: number;
}

/** The id of the newest request the sandbox at `url` logged (0 when none yet). */
export async function lastRequestId(url: string): Promise<number> {
  const r = await fetch(`${url}/_sandbox/requests?limit=1`);
  const { requests } = (await r.json()) as { requests: Array<{ id: number }> };
  return requests.at(-1)?.id ?? 0;
}

/** What reached the sandbox at `url` after request `id`, as its request log has it. */
export async function loggedSince(url: string, id: number): Promise<LoggedRequest[]> {
  const r = await fetch(`${url}/_sandbox/requests?since=${id}&limit=1000`);
  return ((await r.json()) as { requests: LoggedRequest[] }).requests;
}
