/**
 * End-to-end harness: the built binary as a separate process, against a real sandbox on port 0
 * with a temporary database, and a temporary config directory so no test touches the user's.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { DEMO } from '../../src/domain/demo.js';
import { parseFaultSpec } from '../../src/sandbox/faults/spec.js';
import { fakeIO } from '../output/fake-io.js';

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
  run(args: string[], options?: RunOptions): Promise<CliResult>;
  /** run(), then asserts that neither stdout nor stderr holds a demo secret in full. */
  runChecked(args: string[], options?: RunOptions): Promise<CliResult>;
  /**
   * The CLI's `main` in this process, with the same environment as run(): for reading state
   * back between the commands under test (a process of the built binary costs half a second of
   * CPU; this a few milliseconds). The commands a test is about go through run().
   */
  read(args: string[], options?: Pick<RunOptions, 'env'>): Promise<CliResult>;
  close(): Promise<void>;
}

/** Runs bin/udcli.js with a clean environment: no inherited UDCLI_* and no colour. */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { input?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  const base: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('UDCLI_') && k !== 'FORCE_COLOR') base[k] = v;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...base, NO_COLOR: '1', ...env },
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

/** A sandbox on port 0 with a temporary database seeded with the demo data, plus temp dirs. */
export async function startTestEnv(
  options: { seed?: 'demo' | 'none'; rateLimitPerSecond?: number; data?: string; faults?: { spec: string; seed: number } } = {},
): Promise<TestEnv> {
  const root = mkdtempSync(join(tmpdir(), 'udcli-e2e-'));
  const configDir = join(root, 'config');
  const dataDir = join(root, 'data');
  const sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    dbPath: join(root, 'sandbox.db'),
    seed: options.seed ?? 'demo',
    ...(options.rateLimitPerSecond ? { rateLimitPerSecond: options.rateLimitPerSecond } : {}),
    ...(options.data ? { data: options.data } : {}),
    ...(options.faults ? { faults: { spec: parseFaultSpec(options.faults.spec), seed: options.faults.seed } } : {}),
  });
  const env: NodeJS.ProcessEnv = {
    UDCLI_CONFIG_DIR: configDir,
    UDCLI_DATA_DIR: dataDir,
    UDCLI_BASE_URL: sandbox.url,
    UDCLI_SITE_URL: sandbox.url,
    UDCLI_API_KEY: DEMO.game.apiKey,
    UDCLI_SIGNING_SECRET: DEMO.game.signingSecret,
    UDCLI_GAME_ID: DEMO.game.id,
  };
  const run = (args: string[], o: RunOptions = {}): Promise<CliResult> =>
    runCli(args, { ...env, ...o.env }, o.input === undefined ? {} : { input: o.input });
  const read = async (args: string[], o: Pick<RunOptions, 'env'> = {}): Promise<CliResult> => {
    // Loaded on first use: most e2e files never read in-process.
    const { main } = await import('../../src/cli/main.js');
    const f = fakeIO({ env: { NO_COLOR: '1', ...env, ...o.env } });
    const code = await main(args, f.io);
    return { code, stdout: f.stdout(), stderr: f.stderr() };
  };
  return {
    sandbox,
    configDir,
    dataDir,
    env,
    run,
    read,
    runChecked: async (args, o) => {
      const r = await run(args, o);
      for (const secret of DEMO_SECRETS) {
        expect(r.stdout, `stdout of ${args.join(' ')}`).not.toContain(secret);
        expect(r.stderr, `stderr of ${args.join(' ')}`).not.toContain(secret);
      }
      return r;
    },
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
    [process.execPath, BIN, ...args].map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(' ') + (options.stdinFromDevNull ? ' < /dev/null' : '');
  const base: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('UDCLI_')) base[k] = v;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', quoted, '/dev/null'], { env: { ...base, ...env, NO_COLOR: '1' } });
    let stdout = '';
    let typed = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
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

/** A base URL nothing listens on: a usage error there (exit 2, not 5) proves nothing was sent. */
export async function nowhere(): Promise<NodeJS.ProcessEnv> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as AddressInfo;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return { UDCLI_BASE_URL: `http://127.0.0.1:${port}`, UDCLI_SITE_URL: `http://127.0.0.1:${port}` };
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
export function withDb<T>(env: TestEnv, fn: (db: Database.Database) => T): T {
  const db = new Database(env.sandbox.dbPath, { readonly: true, fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}
