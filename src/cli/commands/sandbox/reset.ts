/**
 * `udcli sandbox reset`: puts the sandbox database back to what it was started with (its data
 * file, else the demo data), or to what --seed / --data say. A running sandbox is reset live,
 * through `POST /_sandbox/reset` (its clients stay connected); a database no sandbox uses is
 * deleted and recreated.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UdcliError, UsageError } from '../../../errors.js';
import { defaultDatabasePath, ensureDataDir } from '../../../sandbox/paths.js';
import type { Factory } from '../../../ops/factory.js';
import { resetSandbox } from '../../../client/sandbox-admin.js';
import type { SandboxOrigin } from '../../../sandbox/origin.js';
import { dataWarning } from './data-warning.js';
import { printable } from '../../../printable.js';
import { parseDbPath, seedOrData } from './options.js';
import { execSandbox, reachableUrl, sandboxState } from './pidfile.js';
import { refuseOpenDatabase } from './in-use.js';

/** What the database was started from, as recorded in it; the demo data when nothing is. */
async function recorded(dbPath: string): Promise<SandboxOrigin> {
  if (!existsSync(dbPath)) return { kind: 'demo' };
  const { openDatabase } = await import('../../../sandbox/database.js');
  const { recordedOrigin } = await import('../../../sandbox/origin.js');
  const db = openDatabase(dbPath);
  try {
    return recordedOrigin(db) ?? { kind: 'demo' };
  } finally {
    db.close();
  }
}

/**
 * The running sandbox that uses the database asked for (without --db: the running one, or the one `sandbox exec` runs
 * the command against).
 */
async function liveSandbox(
  env: NodeJS.ProcessEnv,
  explicitDb: string | undefined,
  note: (line: string) => void,
): Promise<{ url: string; db: string } | undefined> {
  const exec = execSandbox(env);
  if (explicitDb === undefined && exec !== undefined) return exec;
  const current = await sandboxState(env, note);
  if (current.state !== 'running' && current.state !== 'unresponsive') return undefined;
  const { record } = current;
  if (explicitDb !== undefined && (record.db === ':memory:' || resolve(record.db) !== resolve(explicitDb)))
    return undefined;
  if (current.state === 'unresponsive') {
    throw new UdcliError(
      `the sandbox (pid ${record.pid}) uses ${record.db} but does not answer at ${record.url}; nothing was reset`,
      {
        hint: 'stop it (udcli sandbox stop), then reset',
      },
    );
  }
  return { url: reachableUrl(record.url), db: record.db };
}

/**
 * Resets a running sandbox through `POST /_sandbox/reset`; a data file travels as its text (the sandbox reads no path
 * it is sent).
 */
async function resetLive(
  factory: Factory,
  live: { url: string; db: string },
  explicit: { seed: string; data: string | undefined } | undefined,
): Promise<void> {
  const form = new URLSearchParams();
  let what = 'to what it was started with';
  if (explicit?.data !== undefined) {
    const { readDataFile } = await import('../../../sandbox/data/read.js');
    // A bad or missing file is refused here, before anything is sent.
    readDataFile(explicit.data, dataWarning(factory.io.stderr));
    form.set('file', explicit.data);
    form.set('data', readFileSync(explicit.data, 'utf8'));
    what = `from ${explicit.data}`;
  } else if (explicit !== undefined) {
    form.set('seed', explicit.seed);
    what = explicit.seed === 'demo' ? 'with the demo data' : '(empty)';
  }
  const body = form.toString();
  const { BODY_LIMIT_BYTES } = await import('../../../sandbox/http/request-parameters.js');
  if (Buffer.byteLength(body) > BODY_LIMIT_BYTES) {
    throw new UsageError(
      `${explicit?.data} is too large to send to the running sandbox (${Buffer.byteLength(body)} bytes encoded; at most ${BODY_LIMIT_BYTES})`,
      {
        hint: `stop it (udcli sandbox stop), then: udcli sandbox start --data ${explicit?.data} --reset`,
      },
    );
  }
  const { confirm } = await import('../../../runtime/prompt.js');
  await confirm(
    factory.io,
    `Wipe the running sandbox at ${live.url} (every user, record and content URI in it) and reset it ${what}?`,
    { yes: factory.globals().yes },
  );
  const reply = await resetSandbox(live.url, body);
  const n = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  factory.io.stderr.write(
    `reset the sandbox at ${live.url}: it holds ${printable(String(reply.origin.text))} (${n(reply.games.length, 'game')}, ${n(reply.users, 'user')})\n`,
  );
}

export async function resetCommand(
  factory: Factory,
  raw: { db?: string; seed?: string; data?: string },
): Promise<void> {
  const { stderr, env } = factory.io;
  const explicit = raw.seed !== undefined || raw.data !== undefined ? seedOrData(raw) : undefined;
  const explicitDb = parseDbPath(raw.db);
  const live = await liveSandbox(env, explicitDb, (line) => stderr.write(line));
  if (live !== undefined) return resetLive(factory, live, explicit);
  const dbPath = explicitDb ?? defaultDatabasePath(env);
  if (dbPath === ':memory:') throw new UsageError('--db :memory: has nothing to reset: it is new on every start');
  const target: SandboxOrigin = explicit
    ? explicit.data !== undefined
      ? { kind: 'data', file: explicit.data }
      : { kind: explicit.seed }
    : await recorded(dbPath);
  // The data file is read and checked before the database is touched: a bad or missing one changes nothing.
  const data =
    target.kind === 'data'
      ? (await import('../../../sandbox/data/read.js')).readDataFile(target.file, dataWarning(factory.io.stderr))
      : undefined;
  const { dataOrigin, fileSha256 } = await import('../../../sandbox/origin.js');
  const origin = target.kind === 'data' ? dataOrigin(target.file, fileSha256(target.file), data!) : target;
  const what =
    origin.kind === 'data' ? ` from ${origin.file}` : origin.kind === 'demo' ? ' with the demo data' : ' (empty)';
  if (existsSync(dbPath)) {
    // It wipes every user, record and uploaded content URI: a person at a terminal is asked first.
    const { confirm } = await import('../../../runtime/prompt.js');
    await confirm(factory.io, `Wipe ${dbPath} (every user, record and content URI in it) and recreate it${what}?`, {
      yes: factory.globals().yes,
    });
  }
  // Another name of the running sandbox's database (a link in its path) is refused, not deleted under it.
  await refuseOpenDatabase(
    env,
    dbPath,
    `cannot delete ${dbPath}`,
    (stop) => `reset it through the sandbox: udcli sandbox reset (without --db), or stop it first: ${stop}`,
  );
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${dbPath}${suffix}`, { force: true });
  ensureDataDir(dirname(dbPath));
  const { openDatabase } = await import('../../../sandbox/database.js');
  const { seedFrom } = await import('../../../sandbox/origin.js');
  const db = openDatabase(dbPath);
  try {
    await seedFrom(db, origin, data);
  } finally {
    db.close();
  }
  stderr.write(`recreated ${dbPath}${what}\n`);
}
