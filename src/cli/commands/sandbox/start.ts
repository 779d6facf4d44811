/**
 * `udcli sandbox start`: in the foreground until SIGINT/SIGTERM, or `--detach`ed: a child
 * `udcli sandbox start` with its output in the data dir's log, awaited until it answers. Its
 * stdout is the URL, then one line per request (the request log); messages go to stderr.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { UdcliError, UsageError } from '../../../errors.js';
import { configDir } from '../../../config/paths.js';
import { forbiddenDirProblem } from '../../../sandbox/game-host/allowed-dirs.js';
import { forbiddenGameDirError } from '../../../sandbox/game-dir-refusal.js';
import {
  DEFAULT_SANDBOX,
  dataDir,
  ensureDataDir,
  namedDatabasePath,
  namedLogPath,
  namedSandboxesDir,
  recordPath,
} from '../../../sandbox/paths.js';
import type { RunningSandbox } from '../../../sandbox/server.js';
import type { Factory } from '../../../ops/factory.js';
import { dataWarning } from './data-warning.js';
import { credentialLines } from './describe.js';
import { faultsLine, seedFaults } from './faults.js';
import { latencyLine, serverGameSource, type GameSourceOptions } from './options.js';
import { parseStartOptions, remoteWarning, type RawStartOptions, type StartOptions } from './start-options.js';
import {
  commandFor,
  isAlive,
  namedSandboxState,
  probe,
  readPidFile,
  removePidFile,
  writePidFile,
  type SandboxState,
} from './pidfile.js';
import { createServer } from 'node:net';
import { waitForSignal } from './signals.js';
import { refuseHeldPort, refuseOpenDatabase, runningSandboxText } from './in-use.js';
import { printable } from '../../../printable.js';
import { openAppend } from '../../../write-whole.js';
import { BIN_PATH } from '../../../package-paths.js';

export interface StartDeps {
  /** Resolves when the foreground sandbox should stop; default: SIGINT, SIGTERM or SIGHUP. */
  waitForStop?: (sandbox: RunningSandbox) => Promise<unknown>;
  /** What runs `udcli` for --detach; default: this Node and bin/udcli.js. */
  cli?: { command: string; args: string[] };
  /** How long --detach waits for the child to answer. */
  detachTimeoutMs?: number;
}

/**
 * The bin/udcli.js this udcli was loaded through (src/package-paths.ts): a detached child of any
 * other copy, or of none, would be a different program or no sandbox at all.
 */
function ownBin(): string {
  if (!existsSync(BIN_PATH)) throw new UdcliError(`cannot start the sandbox: udcli's own ${BIN_PATH} is missing`);
  return BIN_PATH;
}

function yesGiven(factory: Factory): boolean {
  try {
    return factory.globals().yes;
  } catch {
    return false;
  }
}

export async function startCommand(factory: Factory, raw: RawStartOptions, deps: StartDeps = {}): Promise<void> {
  const parsed = parseStartOptions(raw, factory.io.env, yesGiven(factory));
  // The seed is fixed here, so a detached child runs with the one this process prints.
  const faults = seedFaults(parsed.faults);
  const options: StartOptions = { ...parsed, faults: faults && { spec: faults.spec, seed: faults.seed } };
  // Refused here (exit 2) rather than by a detached child in its log.
  refuseForbiddenGameDirs(options, factory.io.env);
  if (options.detach) await startDetached(factory, options, deps);
  else await startForeground(factory, options, deps);
}

/** A --game-dir or --allow-game-dir that may never be served (game-host/allowed-dirs.ts) is a usage error. */
export function refuseForbiddenGameDirs(
  options: Pick<StartOptions, 'gameSource' | 'allowGameDirs'>,
  env: NodeJS.ProcessEnv,
): void {
  const dirs = [
    ...(options.gameSource?.setting.kind === 'dir' ? [options.gameSource.setting.root] : []),
    ...options.allowGameDirs,
  ];
  for (const dir of dirs) {
    const problem = forbiddenDirProblem(dir, { own: [configDir(env), dataDir(env)] });
    if (problem !== null) throw forbiddenGameDirError(dir, problem);
  }
}

/** Where a sandbox keeps its record, database and log, by its name (paths.ts), and the port it asks for. */
export interface Slot {
  name: string;
  port: number;
  recordPath: string;
  dbPath: string;
  logPath: string;
  /** The state of the record at recordPath before this start. */
  before: SandboxState;
}

/** A port free on `host` now, for a sandbox that needs its name (`port-<port>`) before it listens. */
function freePort(host: string): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/**
 * Which sandbox a start makes (issue 53): the one `--name` names; without one, the default sandbox
 * (`sandbox.pid`, `sandbox.db`, `sandbox.log`) unless it runs, else `port-<port>` beside it, with a
 * database of its own. A name whose sandbox runs is refused, naming it and the way on.
 */
export async function chooseSlot(env: NodeJS.ProcessEnv, options: StartOptions): Promise<Slot> {
  let { name, port } = options;
  if (name === undefined) {
    const main = await namedSandboxState(env, DEFAULT_SANDBOX);
    if (main.state === 'running' || main.state === 'unresponsive') {
      if (port === 0) port = await freePort(options.host);
      name = `port-${port}`;
    } else name = DEFAULT_SANDBOX;
  }
  const before = await namedSandboxState(env, name);
  if (before.state === 'running' || before.state === 'unresponsive') {
    throw new UsageError(
      `cannot start another sandbox: ${await runningSandboxText(before.record)} is already running as ${name}; nothing was changed`,
      {
        hint: `start this one beside it with another --port or --name, or stop it first: ${commandFor(env, 'stop', before.record)}`,
      },
    );
  }
  return {
    name,
    port,
    recordPath: recordPath(env, name),
    dbPath: options.db ?? namedDatabasePath(env, name),
    logPath: namedLogPath(env, name),
    before,
  };
}

async function startForeground(factory: Factory, options: StartOptions, deps: StartDeps): Promise<void> {
  const { stdout, stderr, env } = factory.io;
  // Checked before anything is opened: a start that cannot start changes nothing.
  const slot = await chooseSlot(env, options);
  const { dbPath, recordPath: pidPath, before } = slot;
  const faults = seedFaults(options.faults);
  await refuseHeldPort(env, options.host, slot.port);
  if (options.replace && dbPath !== ':memory:')
    await refuseOpenDatabase(env, dbPath, `cannot replace the data of ${dbPath}`);

  const { startSandbox } = await import('../../../sandbox/server.js');
  const { openLineOutlet } = await import('./log-outlet.js');
  // One line per request on stdout, after the URL line (detached: stdout is the log file),
  // never waiting on its reader (log-outlet.ts); none once a reader went away (`| head -1`).
  const lines = openLineOutlet(stdout);
  const sandbox = await startSandbox({
    port: slot.port,
    host: options.host,
    dbPath,
    seed: options.seed,
    ...(options.data === undefined ? {} : { data: options.data, replace: options.replace }),
    ...(options.tokenTtlSeconds === undefined ? {} : { tokenTtlSeconds: options.tokenTtlSeconds }),
    ...(options.rateLimitPerSecond === undefined ? {} : { rateLimitPerSecond: options.rateLimitPerSecond }),
    requestLines: (text) => lines.write(text),
    ...(faults === undefined ? {} : { faults }),
    ...(options.gameSource === undefined ? {} : { gameSource: serverGameSource(options.gameSource) }),
    ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
    latencyMs: options.latencyMs,
    warn: dataWarning(stderr),
    insecureGameHost: options.insecureGameHost,
    allowGameDirs: options.allowGameDirs,
    ownDirs: [configDir(env), dataDir(env)],
  }).catch((error: unknown) => {
    lines.close();
    throw error;
  });
  // The record names this sandbox for status/stop/reset (chooseSlot refused a name whose sandbox runs).
  if (before.state === 'stale') {
    stderr.write(
      `udcli: the sandbox recorded in ${pidPath} (pid ${before.record.pid}) is no longer running; this one takes over\n`,
    );
  }
  // Listening from here on, so a SIGTERM that comes while the URL and the banner are written
  // (a supervisor that read the URL line) closes the sandbox as it would later, never the default
  // death by signal with the banner half-written.
  const stopped = deps.waitForStop ? undefined : waitForSignal(factory.io);
  try {
    writePidFile(pidPath, {
      name: slot.name,
      pid: process.pid,
      port: sandbox.port,
      host: sandbox.host,
      url: sandbox.url,
      gameUrl: sandbox.gameUrl,
      db: sandbox.dbPath,
      startedAt: new Date().toISOString(),
      detached: env.UDCLI_SANDBOX_DETACHED === '1',
      ...(env.UDCLI_SANDBOX_DETACHED === '1' ? { log: slot.logPath } : {}),
      ...(options.latencyMs > 0 ? { latencyMs: options.latencyMs } : {}),
    });
    stdout.write(`${sandbox.url}\n`);
    if (options.remote) stderr.write(`${remoteWarning(options.host, options.publicUrl)}\n`);
    if (faults !== undefined) stderr.write(`${faultsLine(faults)}\n`);
    const latency = latencyLine(options.latencyMs);
    if (latency !== undefined) stderr.write(`${latency}\n`);
    stderr.write(
      `udcli sandbox listening on ${sandbox.url} (database ${sandbox.dbPath}); games are served from ${sandbox.gameUrl}\n` +
        // The demo's credentials only while it holds the demo data alone (issue 33): else what it holds.
        (options.data === undefined && options.seed === 'demo' && sandbox.holds === 'the demo data'
          ? `${credentialLines(sandbox.url).join('\n')}\n`
          : options.data !== undefined || options.seed === 'demo'
            ? `holds ${printable(sandbox.holds)} (its games, keys and users: udcli sandbox info)\n`
            : '') +
        'Press Ctrl-C to stop.\n',
    );
    await (stopped ?? deps.waitForStop!(sandbox));
    stderr.write('stopping the sandbox\n');
  } finally {
    await sandbox.close();
    lines.close();
    removePidFile(pidPath, process.pid);
  }
}

function logTail(path: string, lines = 15): string {
  try {
    return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** The options that give a child `sandbox start` the same game source. */
export function gameSourceArgs(source: GameSourceOptions | undefined): string[] {
  if (source === undefined) return [];
  const { setting } = source;
  const args =
    setting.kind === 'dir' ? ['--game-dir', setting.root] : setting.kind === 'url' ? ['--game-url', setting.base] : [];
  if (source.gameId !== undefined) args.push('--game', source.gameId);
  if (!setting.connect) args.push('--no-connect');
  return args;
}

async function startDetached(factory: Factory, options: StartOptions, deps: StartDeps): Promise<void> {
  const { stdout, stderr } = factory.io;
  const { url, pid, logPath, name, port } = await launchDetached(factory, options, deps);
  stdout.write(`${url}\n`);
  if (options.remote) stderr.write(`${remoteWarning(options.host, options.publicUrl)}\n`);
  const faults = seedFaults(options.faults);
  if (faults !== undefined) stderr.write(`${faultsLine(faults)}\n`);
  const latency = latencyLine(options.latencyMs);
  if (latency !== undefined) stderr.write(`${latency}\n`);
  stderr.write(
    `udcli sandbox running in the background at ${url} (pid ${pid}); log ${logPath}\nstop it with: ${commandFor(factory.io.env, 'stop', { name, port })}\n`,
  );
}

/** Starts a detached `sandbox start` and waits until it answers; its URL, pid and log. */
export async function launchDetached(
  factory: Factory,
  options: StartOptions,
  deps: StartDeps = {},
): Promise<{ url: string; pid: number | undefined; logPath: string; name: string; port: number }> {
  const { stderr, env } = factory.io;
  const slot = await chooseSlot(env, options);
  const { before: current, recordPath: pidPath, dbPath, logPath } = slot;
  await refuseHeldPort(env, options.host, slot.port);
  if (current.state === 'stale') {
    removePidFile(pidPath, current.record.pid);
    stderr.write(
      `udcli: the sandbox recorded in ${pidPath} (pid ${current.record.pid}) is no longer running; starting a new one\n`,
    );
  }

  // 0700 as every directory udcli makes for the sandbox's files (docs/SANDBOX.md): the detached start is
  // also the first command's auto-start, often the one that creates the data directory.
  ensureDataDir(dataDir(env));
  if (slot.name !== DEFAULT_SANDBOX) ensureDataDir(namedSandboxesDir(env));
  if (dbPath !== ':memory:') ensureDataDir(dirname(dbPath));
  const args = [
    'sandbox',
    'start',
    '--name',
    slot.name,
    '--port',
    String(slot.port),
    '--host',
    options.host,
    '--db',
    dbPath,
  ];
  args.push(...(options.data === undefined ? ['--seed', options.seed] : ['--data', options.data]));
  if (options.replace) args.push('--reset');
  else if (options.data !== undefined) {
    // Refused here with exit 2, rather than by the child in its log.
    const { checkStartData } = await import('../../../sandbox/server.js');
    await checkStartData(dbPath, options.data, dataWarning(stderr));
  }
  if (options.remote) args.push('--allow-remote');
  if (options.publicUrl !== undefined) args.push('--public-url', options.publicUrl);
  if (options.tokenTtlSeconds !== undefined) args.push('--token-ttl', String(options.tokenTtlSeconds));
  if (options.rateLimitPerSecond !== undefined) args.push('--rate-limit', `${options.rateLimitPerSecond}/s`);
  const faults = seedFaults(options.faults);
  if (faults !== undefined) args.push('--faults', faults.spec.text, '--fault-seed', String(faults.seed));
  if (options.latencyMs > 0) args.push('--latency', `${options.latencyMs}ms`);
  args.push(...gameSourceArgs(options.gameSource));
  if (options.insecureGameHost) args.push('--insecure-game-host');
  for (const dir of options.allowGameDirs) args.push('--allow-game-dir', dir);
  const cli = deps.cli ?? { command: process.execPath, args: [ownBin()] };

  // The log may hold request paths with uids: owner only, like the database and the config.
  // Never through a link at its name; made 0600 also when an older udcli made it 0644.
  let log: number;
  try {
    log = openAppend(logPath, 0o600);
  } catch (error) {
    throw new UdcliError(`cannot write the sandbox's log ${logPath}: ${(error as Error).message}`);
  }
  let child;
  try {
    child = spawn(cli.command, [...cli.args, ...args], {
      detached: true,
      stdio: ['ignore', log, log],
      env: { ...env, UDCLI_SANDBOX_DETACHED: '1', NO_COLOR: '1' },
      windowsHide: true,
    });
  } finally {
    closeSync(log);
  }
  const childPid = child.pid;
  const outcome: { exit: string | null; error: Error | null } = { exit: null, error: null };
  child.on('exit', (code, signal) => (outcome.exit = code === null ? `signal ${signal}` : `exit code ${code}`));
  child.on('error', (error) => (outcome.error = error));

  const deadline = Date.now() + (deps.detachTimeoutMs ?? 20_000);
  let url: string | null = null;
  while (Date.now() < deadline && url === null) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (outcome.error)
      throw new UdcliError(`cannot start the sandbox: ${outcome.error.message}`, { cause: outcome.error });
    if (outcome.exit !== null || childPid === undefined) break;
    const record = readPidFile(pidPath);
    if (record?.pid === childPid && (await probe(record.url)) === childPid) url = record.url;
  }
  if (url === null) {
    if (childPid !== undefined && outcome.exit === null && isAlive(childPid)) child.kill('SIGTERM');
    const tail = logTail(logPath);
    const why = outcome.exit !== null ? `it exited during start-up (${outcome.exit})` : 'it did not answer in time';
    throw new UdcliError(`the detached sandbox did not start: ${why}`, {
      hint: tail ? `log ${logPath}:\n${tail}` : `see ${logPath}`,
    });
  }
  child.unref();
  const port = readPidFile(pidPath)?.port ?? slot.port;
  return { url, pid: childPid, logPath, name: slot.name, port };
}
