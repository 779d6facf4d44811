/**
 * `udcli sandbox exec [options] -- <command ...>`: a fresh sandbox (any free port, a temporary
 * database) for the length of one command, which runs with UDCLI_* pointing at it. Afterwards
 * the sandbox stops, the database is removed, and udcli exits with the command's exit code
 * (128+n when signal n ended it): a ChildExitError carries it to main, which prints nothing.
 * SIGINT, SIGTERM and SIGHUP are passed on to the command while it runs.
 */
import { configDir } from '../../../config/paths.js';
import { spawn } from 'node:child_process';
import { closeSync, constants as fsConstants, copyFileSync, fchmodSync, mkdtempSync, rmSync, writeSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChildExitError, UsageError } from '../../../errors.js';
import { DEMO } from '../../../domain/demo.js';
import { dataDir } from '../../../sandbox/paths.js';
import type { Factory } from '../../../ops/factory.js';
import { dataWarning } from './data-warning.js';
import { faultsLine, seedFaults } from './faults.js';
import { parseExecOptions, type RawExecOptions } from './exec-options.js';
import { latencyLine, serverGameSource } from './options.js';
import { printable } from '../../../printable.js';
import { parseRequestLine } from '../../../sandbox/request-line.js';
import { openNoFollow } from '../../../write-whole.js';

/** The signals passed on to the command. */
const FORWARDED: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The game whose key the command gets: the demo game, or the data file's first game with a key. */
export interface ExecGame {
  id: string;
  apiKey: string;
  signingSecret: string;
}

const DEMO_GAME: ExecGame = { id: DEMO.game.id, apiKey: DEMO.game.apiKey, signingSecret: DEMO.game.signingSecret };

/** What the command gets in its environment, besides what udcli was given. */
export function execEnvironment(url: string, dbPath: string, game: ExecGame = DEMO_GAME): Record<string, string> {
  return {
    UDCLI_BASE_URL: url,
    UDCLI_SITE_URL: url,
    UDCLI_API_KEY: game.apiKey,
    UDCLI_SIGNING_SECRET: game.signingSecret,
    UDCLI_GAME_ID: game.id,
    // The built-in profile under the variables above: no key of another (maybe production)
    // profile, such as its type or cookie, applies to a udcli run by the command.
    UDCLI_PROFILE: 'sandbox',
    // For `udcli sandbox game set-uri ... --db "$UDCLI_SANDBOX_DB"` inside the command.
    UDCLI_SANDBOX_DB: dbPath,
  };
}

interface Outcome {
  exitCode: number;
  /** Set when the command could not be started: the one line udcli prints. */
  failure?: string;
}

function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

function spawnFailure(program: string, error: NodeJS.ErrnoException): Outcome {
  if (error.code === 'ENOENT') return { exitCode: 127, failure: `command not found: ${program}` };
  if (error.code === 'EACCES') return { exitCode: 126, failure: `cannot run ${program}: permission denied` };
  return { exitCode: 126, failure: `cannot run ${program}: ${error.message}` };
}

/** Runs the command with inherited stdio and no shell, passing signals on; resolves when it exits. */
function runCommand(
  command: readonly string[],
  env: NodeJS.ProcessEnv,
  onSignal: { current: (s: NodeJS.Signals) => void },
): Promise<Outcome> {
  const [program, ...args] = command as [string, ...string[]];
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    let child;
    try {
      child = spawn(program, args, { stdio: 'inherit', env, shell: false });
    } catch (error) {
      settle(spawnFailure(program, error as NodeJS.ErrnoException));
      return;
    }
    const running = child;
    onSignal.current = (signal) => {
      if (running.exitCode === null && running.signalCode === null) running.kill(signal);
    };
    running.on('error', (error: NodeJS.ErrnoException) => {
      // Only a failure to start ends the run; a failed kill() leaves the command running.
      if (running.pid === undefined) settle(spawnFailure(program, error));
    });
    running.on('exit', (code, signal) => settle({ exitCode: code ?? (signal ? signalExitCode(signal) : 1) }));
  });
}

function shown(text: string, max = 80): string {
  return printable(text.length > max ? `${text.slice(0, max - 1)}…` : text);
}

function quiet(factory: Factory): boolean {
  try {
    return factory.globals().quiet;
  } catch {
    return false;
  }
}

/** The demo game on the demo data, else the loaded data's first game with a (non-partner first) key. */
async function gameWithKey(dbPath: string): Promise<ExecGame> {
  const { openDatabase } = await import('../../../sandbox/database.js');
  const { primaryCredentials } = await import('../../../sandbox/loaded.js');
  const db = openDatabase(dbPath);
  try {
    const primary = primaryCredentials(db);
    return primary
      ? { id: primary.game_id, apiKey: primary.api_key, signingSecret: primary.signing_secret }
      : DEMO_GAME;
  } finally {
    db.close();
  }
}

/** Request lines printed on stderr when the command fails: enough to see what it last asked. */
export const FAILURE_TAIL_LINES = 20;

/**
 * The run's request log: its last lines in memory, and every line in --log FILE when asked. The
 * tail leaves out the challenges answered by a signed retry (the retry's line says so): every
 * signed change has one, and they would push the real failures out of it.
 */
class ExecLog {
  private readonly last: string[] = [];
  constructor(private readonly fd: number | undefined) {}
  write(text: string): void {
    if (this.fd !== undefined) writeSync(this.fd, text);
    for (const line of text.split('\n')) {
      if (line === '' || parseRequestLine(line)?.handshake === 'challenge') continue;
      this.last.push(line);
      if (this.last.length > FAILURE_TAIL_LINES) this.last.shift();
    }
  }
  tail(): string[] {
    return this.last;
  }
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
  }
}

/** Opens --log FILE (created or emptied, owner only: the lines hold uids) before anything starts. */
function openLogFile(path: string | undefined): number | undefined {
  if (path === undefined) return undefined;
  try {
    // Emptied and made owner-only, never through a link planted at its name.
    const fd = openNoFollow(path, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_TRUNC, 0o600);
    fchmodSync(fd, 0o600);
    return fd;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot write the request log to ${path}: ${code === 'ELOOP' || code === 'EFTYPE' ? 'a symbolic link or not a regular file' : (code ?? (error as Error).message)}`,
    );
  }
}

export async function execCommand(factory: Factory, command: readonly string[], raw: RawExecOptions): Promise<void> {
  const options = parseExecOptions(raw);
  if (command.length === 0 || command[0] === '') {
    throw new UsageError('sandbox exec needs a command to run', {
      hint: 'put it after --, e.g. udcli sandbox exec -- npm test',
    });
  }
  const { stderr, env } = factory.io;
  const faults = seedFaults(options.faults);

  // From here on a signal is the user's wish to stop: before the command starts it cancels the
  // run, while it runs it is passed on; either way the sandbox is stopped and cleaned up.
  let interrupted: NodeJS.Signals | undefined;
  const onSignal = {
    current: (signal: NodeJS.Signals) => {
      interrupted = signal;
    },
  };
  const stopListening = factory.io.onSignals(FORWARDED, (signal) => onSignal.current(signal));

  // An unknown snapshot is a usage error before anything starts.
  let snapshot: string | undefined;
  if (options.snapshot !== undefined) {
    const s = await import('../../../sandbox/snapshots.js');
    snapshot = s.snapshotFile(s.snapshotDir(dataDir(env)), options.snapshot);
  }
  const requestLog = new ExecLog(openLogFile(options.log));
  const dir = mkdtempSync(join(tmpdir(), 'udcli-exec-'));
  let outcome: Outcome;
  try {
    const dbPath = join(dir, 'sandbox.db');
    if (snapshot !== undefined) copyFileSync(snapshot, dbPath);
    const { startSandbox } = await import('../../../sandbox/server.js');
    const sandbox = await startSandbox({
      port: options.port,
      host: DEMO.host,
      dbPath,
      seed: options.seed,
      ...(options.data === undefined ? {} : { data: options.data }),
      ...(options.tokenTtlSeconds === undefined ? {} : { tokenTtlSeconds: options.tokenTtlSeconds }),
      ...(options.rateLimitPerSecond === undefined ? {} : { rateLimitPerSecond: options.rateLimitPerSecond }),
      ...(faults === undefined ? {} : { faults }),
      ...(options.gameSource === undefined ? {} : { gameSource: serverGameSource(options.gameSource) }),
      requestLines: (text) => requestLog.write(text),
      latencyMs: options.latencyMs,
      warn: dataWarning(factory.io.stderr),
      insecureGameHost: options.insecureGameHost,
      allowGameDirs: options.allowGameDirs,
      ownDirs: [configDir(env), dataDir(env)],
    });
    try {
      if (interrupted !== undefined) {
        outcome = { exitCode: signalExitCode(interrupted) };
      } else {
        if (!quiet(factory))
          stderr.write(`udcli: sandbox at ${sandbox.url} (temporary database) for: ${shown(command.join(' '))}\n`);
        // Printed even with --quiet: without the seed a faulted run cannot be replayed.
        if (faults !== undefined) stderr.write(`udcli: ${faultsLine(faults)}\n`);
        const latency = latencyLine(options.latencyMs);
        if (latency !== undefined && !quiet(factory)) stderr.write(`udcli: ${latency}\n`);
        outcome = await runCommand(
          command,
          { ...env, ...execEnvironment(sandbox.url, dbPath, await gameWithKey(dbPath)) },
          onSignal,
        );
      }
    } finally {
      await sandbox.close();
    }
  } finally {
    stopListening();
    requestLog.close();
    rmSync(dir, { recursive: true, force: true });
  }

  if (outcome.failure !== undefined) stderr.write(`udcli: ${outcome.failure}\n`);
  const tail = requestLog.tail();
  if (outcome.exitCode !== 0 && outcome.failure === undefined && tail.length > 0) {
    // The sandbox's side of a failed run, for a CI log that has nothing else.
    const kept = options.log === undefined ? '' : `; all of them in ${options.log}`;
    stderr.write(
      `udcli: the command failed (exit ${outcome.exitCode}); the sandbox's last ${tail.length} request lines${kept}:\n${tail.join('\n')}\n`,
    );
  }
  if (outcome.exitCode !== 0) {
    throw new ChildExitError(outcome.exitCode, outcome.failure ?? `${command[0]} exited with code ${outcome.exitCode}`);
  }
}
