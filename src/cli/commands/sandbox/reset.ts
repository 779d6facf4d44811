/**
 * `udcli sandbox reset`: deletes and recreates the sandbox database from what it was started
 * with (its data file, else the demo data), or from what --seed / --data say.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../../errors.js';
import { defaultDatabasePath } from '../../../sandbox/paths.js';
import type { Factory } from '../../../ops/factory.js';
import type { SandboxOrigin } from '../../../sandbox/origin.js';
import { parseDbPath, seedOrData } from './options.js';
import { sandboxState } from './pidfile.js';

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

export async function resetCommand(factory: Factory, raw: { db?: string; seed?: string; data?: string }): Promise<void> {
  const { stderr, env } = factory.io;
  const explicit = raw.seed !== undefined || raw.data !== undefined ? seedOrData(raw) : undefined;
  const dbPath = parseDbPath(raw.db) ?? defaultDatabasePath(env);
  if (dbPath === ':memory:') throw new UsageError('--db :memory: has nothing to reset: it is new on every start');
  const current = await sandboxState(env);
  if ((current.state === 'running' || current.state === 'unresponsive') && resolve(current.record.db) === resolve(dbPath)) {
    throw new UsageError(`the sandbox at ${current.record.url} (pid ${current.record.pid}) is using ${dbPath}`, {
      hint: 'stop it first: udcli sandbox stop',
    });
  }
  const origin: SandboxOrigin = explicit
    ? explicit.data !== undefined
      ? { kind: 'data', file: explicit.data }
      : { kind: explicit.seed }
    : await recorded(dbPath);
  // The data file is read and checked before the database is touched: a bad or missing one changes nothing.
  const data = origin.kind === 'data' ? (await import('../../../sandbox/data/read.js')).readDataFile(origin.file) : undefined;
  const what = origin.kind === 'data' ? ` from ${origin.file}` : origin.kind === 'demo' ? ' with the demo data' : ' (empty)';
  if (existsSync(dbPath)) {
    // It wipes every user, record and uploaded content URI: a person at a terminal is asked first.
    const { confirm } = await import('../../../runtime/prompt.js');
    await confirm(factory.io, `Wipe ${dbPath} (every user, record and content URI in it) and recreate it${what}?`, { yes: factory.globals().yes });
  }
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${dbPath}${suffix}`, { force: true });
  mkdirSync(dirname(dbPath), { recursive: true });
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
