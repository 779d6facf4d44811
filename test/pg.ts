/**
 * A real PostgreSQL for a test file (issue 52): the machine's own (Debian's, under
 * /usr/lib/postgresql/<version>/bin, the newest), in a temporary directory, on a free port,
 * listening on 127.0.0.1 only. PostgreSQL refuses to run as root, so under root `initdb` and the
 * server run as `nobody` (setpriv), and the directory is theirs (0700). Start one a file (initdb
 * costs a second or two), in `beforeAll`; `stop()` in `afterAll`.
 *
 *   const pgMissing = postgresMissing();
 *   describe.skipIf(pgMissing !== '')(`the team trail${pgMissing && ` (skipped: ${pgMissing})`}`, () => {
 *     let pg: TestPg;
 *     beforeAll(async () => { pg = await startPg(); });
 *     afterAll(() => pg.stop());
 *     ...
 *   });
 */
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The unprivileged account the server runs as under root. */
const NOBODY = 65534;

/** The bin directory of the newest PostgreSQL installed, or null. */
export function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  let versions: string[];
  try {
    versions = readdirSync(root);
  } catch {
    return null;
  }
  const found = versions
    .filter((v) => /^\d+(\.\d+)?$/.test(v) && existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return found.length > 0 ? join(root, found[0]!, 'bin') : null;
}

/** Why the PostgreSQL tests cannot run here ('' when they can): for the skip's title. */
export function postgresMissing(): string {
  if (postgresBin() === null)
    return 'PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb; .ci/run installs it)';
  if (process.getuid?.() === 0 && !existsSync('/usr/bin/setpriv'))
    return 'running as root without setpriv to start PostgreSQL as nobody';
  return '';
}

export interface TestPg {
  /** `postgres://udcli@127.0.0.1:PORT/postgres`: never with the password in it. */
  readonly url: string;
  readonly port: number;
  /** The password of user `udcli` when started with one (scram-sha-256), else undefined (trust). */
  readonly password: string | undefined;
  /** What a command needs to reach it: UDCLI_AUDIT_PASSWORD when there is a password, else nothing. */
  readonly env: Record<string, string>;
  /** Runs SQL as `udcli` on one connection of its own (closed after); the rows. */
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Stops the server (immediate, as a crash would) and keeps its data: the database is then unreachable. */
  stopServer(): void;
  /** Starts the stopped server again on the same port, its data as it was. */
  startServer(): void;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

/** A port nothing listens on now (the server takes it just after). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts a PostgreSQL of its own: user `udcli`, database `postgres`, trust on 127.0.0.1, or
 * scram-sha-256 with `options.password`. Throws when PostgreSQL is missing (check postgresMissing()).
 */
export async function startPg(options: { password?: string } = {}): Promise<TestPg> {
  const bin = postgresBin();
  if (bin === null) throw new Error(postgresMissing());
  const asRoot = process.getuid?.() === 0;
  const root = mkdtempSync(join(tmpdir(), 'udcli-pg-'));
  const data = join(root, 'data');
  const log = join(root, 'server.log');
  // mkdtemp makes the directory 0700: the server's own account must own it to reach its data dir.
  if (asRoot) chownSync(root, NOBODY, NOBODY);
  const run = (tool: string, args: string[]): void => {
    const argv = asRoot
      ? ['/usr/bin/setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', join(bin, tool), ...args]
      : [join(bin, tool), ...args];
    const r = spawnSync(argv[0]!, argv.slice(1), {
      encoding: 'utf8',
      cwd: root,
      env: { PATH: process.env.PATH, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
    });
    if (r.status !== 0) {
      let server = '';
      try {
        server = spawnSync('tail', ['-n', '20', log], { encoding: 'utf8' }).stdout;
      } catch {
        // No log yet.
      }
      throw new Error(`${tool} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout}\n${server}`);
    }
  };
  const initdb = ['-D', data, '-U', 'udcli', '-E', 'UTF8', '--no-sync', '--no-instructions'];
  if (options.password !== undefined) {
    const pwfile = join(root, 'pwfile');
    writeFileSync(pwfile, `${options.password}\n`, { mode: 0o600 });
    if (asRoot) chownSync(pwfile, NOBODY, NOBODY);
    run('initdb', [...initdb, '--auth=scram-sha-256', `--pwfile=${pwfile}`]);
    rmSync(pwfile);
  } else {
    run('initdb', [...initdb, '--auth=trust']);
  }
  const port = await freePort();
  const server = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${root}`,
    // A test's data need not survive a power cut.
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
  ].join(' ');
  const startServer = () => run('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', '-o', server, 'start']);
  const stopServer = () => run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
  try {
    startServer();
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  const url = `postgres://udcli@127.0.0.1:${port}/postgres`;
  const password = options.password;
  let running = true;
  return {
    url,
    port,
    password,
    env: password === undefined ? {} : { UDCLI_AUDIT_PASSWORD: password },
    async query<R>(sql: string, params: unknown[] = []): Promise<R[]> {
      const { default: pg } = await import('pg');
      // Each part on its own: pg lets a connection string's missing password win over `password`.
      const client = new pg.Client({
        host: '127.0.0.1',
        port,
        user: 'udcli',
        database: 'postgres',
        password: password ?? '',
      });
      await client.connect();
      try {
        return (await client.query(sql, params)).rows as R[];
      } finally {
        await client.end();
      }
    },
    stopServer() {
      stopServer();
      running = false;
    },
    startServer() {
      startServer();
      running = true;
    },
    async stop() {
      try {
        if (running) stopServer();
      } finally {
        running = false;
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}
