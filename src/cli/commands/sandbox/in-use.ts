/**
 * What a running sandbox has open is never replaced or deleted under it: a replaced database
 * file leaves the sandbox writing to an unlinked inode (the data is gone when it stops), and a
 * start that cannot listen must not have changed the data first. Every command that would
 * replace a database file, or a file a sandbox needs, asks here first: the pid file's sandbox,
 * then the port.
 */
import { connect } from 'node:net';
import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from '../../../errors.js';
import { printable } from '../../../printable.js';
import { commandFor, isAlive, probe, reachableUrl, sandboxRecords, sandboxState, type PidRecord } from './pidfile.js';

/** For a file written where the running sandbox's database is: write it elsewhere (`stop`: what stops it). */
export const WAYS_ON_FILE = (stop: string): string =>
  `name another file (a data file goes into the sandbox with: udcli sandbox load FILE), or stop the sandbox first: ${stop}`;

/** The two ways on from a refusal, as a hint, with the command that stops the sandbox in the way. */
export const WAYS_ON = (stop: string): string =>
  `load the file into it: udcli sandbox load FILE, or stop it first: ${stop}`;

/**
 * "the sandbox at URL (pid N, database DB, holding WHAT)": what a user needs to find it and to
 * see what would have been lost. What it holds is asked of it, so it may be missing.
 */
export async function runningSandboxText(record: Pick<PidRecord, 'url' | 'pid' | 'db'>): Promise<string> {
  const url = reachableUrl(record.url);
  const { sandboxContentsAt } = await import('../../../client/sandbox-admin.js');
  const holds = (await sandboxContentsAt(url).catch(() => undefined))?.origin.text;
  return printable(
    `the sandbox at ${url} (pid ${record.pid}, database ${record.db}${holds === undefined ? '' : `, holding ${holds}`})`,
  );
}

/** The path with its folder's links resolved, so that two names of one file compare equal. */
function canonical(path: string): string {
  const full = resolve(path);
  try {
    return join(realpathSync(dirname(full)), basename(full));
  } catch {
    return full;
  }
}

/** The database files SQLite keeps beside a database: replacing any of them is replacing it. */
function databaseFiles(db: string): string[] {
  const base = canonical(db);
  return ['', '-wal', '-shm', '-journal'].map((suffix) => `${base}${suffix}`);
}

/**
 * The pid file's sandbox, when it runs (or is alive but silent) and has `path` open (as its database or one of SQLite's
 * files beside it).
 */
export async function sandboxUsing(env: NodeJS.ProcessEnv, path: string): Promise<PidRecord | undefined> {
  const current = await sandboxState(env);
  if (current.state !== 'running' && current.state !== 'unresponsive') return undefined;
  const { record } = current;
  if (record.db === ':memory:') return undefined;
  return databaseFiles(record.db).includes(canonical(path)) ? record : undefined;
}

/**
 * Refuses (exit 2, nothing changed) when `path` is the database of the running sandbox.
 * `what` says what was asked, e.g. "cannot restore a snapshot into ~/.local/share/udcli/sandbox.db".
 */
export async function refuseOpenDatabase(
  env: NodeJS.ProcessEnv,
  path: string,
  what: string,
  hint = WAYS_ON,
): Promise<void> {
  const record = await sandboxUsing(env, path);
  if (record === undefined) return;
  throw new UsageError(`${what}: ${await runningSandboxText(record)} has it open; nothing was changed`, {
    hint: hint(commandFor(env, 'stop', record)),
  });
}

/** Whether anything accepts a TCP connection on host:port (a refused or timed-out connection: no). */
function accepts(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host, port });
    const finish = (answer: boolean) => {
      socket.destroy();
      done(answer);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

/**
 * Before a start touches its database: a port something already holds refuses, naming what
 * holds it (the pid file's sandbox, another sandbox, or another program) and the way on.
 */
export async function refuseHeldPort(env: NodeJS.ProcessEnv, host: string, port: number): Promise<void> {
  if (port === 0) return;
  const shown = host.includes(':') ? `[${host}]` : host;
  const url = reachableUrl(`http://${shown}:${port}`);
  if (!(await accepts(host, port))) return;
  const pid = await probe(url);
  if (pid !== null) {
    // Any sandbox of this data dir (issue 53), named with the command that stops it.
    const record = sandboxRecords(env).find((r) => r.pid === pid);
    throw new UsageError(
      record !== undefined
        ? `cannot start a sandbox on ${host}:${port}: ${await runningSandboxText(record)} holds it; nothing was changed`
        : `cannot start a sandbox on ${host}:${port}: another sandbox (pid ${pid}) answers there; nothing was changed`,
      {
        hint:
          record === undefined
            ? `${WAYS_ON('udcli sandbox stop --all')}; or start this one on another port: --port N (0 = any free port)`
            : `${WAYS_ON(commandFor(env, 'stop', record))}; or start this one on another port: --port N (0 = any free port)`,
      },
    );
  }
  const silent = sandboxRecords(env).find((r) => r.port === port && isAlive(r.pid));
  if (silent !== undefined) {
    throw new UsageError(
      `cannot start a sandbox on ${host}:${port}: the sandbox of pid ${silent.pid} holds it but does not answer; nothing was changed`,
      {
        hint: `stop it: ${commandFor(env, 'stop', silent)}, or start this one on another port: --port N (0 = any free port)`,
      },
    );
  }
  throw new UsageError(`${host}:${port} answers, but not as a sandbox: another program holds it; nothing was changed`, {
    hint: 'start the sandbox on another port: udcli sandbox start --port N, or UDCLI_SANDBOX_PORT=N for the sandbox and the built-in profile alike',
  });
}
