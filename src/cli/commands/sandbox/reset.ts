/** `udcli sandbox reset`: deletes and recreates the sandbox database (with the demo data). */
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../../errors.js';
import { defaultDatabasePath } from '../../../sandbox/paths.js';
import type { Factory } from '../../factory.js';
import { parseDbPath, parseSeedMode } from './options.js';
import { sandboxState } from './pidfile.js';

export async function resetCommand(factory: Factory, raw: { db?: string; seed?: string }): Promise<void> {
  const { stderr, env } = factory.io;
  const seed = raw.seed === undefined ? 'demo' : parseSeedMode(raw.seed);
  const dbPath = parseDbPath(raw.db) ?? defaultDatabasePath(env);
  if (dbPath === ':memory:') throw new UsageError('--db :memory: has nothing to reset: it is new on every start');
  const current = await sandboxState(env);
  if ((current.state === 'running' || current.state === 'unresponsive') && resolve(current.record.db) === resolve(dbPath)) {
    throw new UsageError(`the sandbox at ${current.record.url} (pid ${current.record.pid}) is using ${dbPath}`, {
      hint: 'stop it first: udcli sandbox stop',
    });
  }
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${dbPath}${suffix}`, { force: true });
  mkdirSync(dirname(dbPath), { recursive: true });
  const { openDatabase } = await import('../../../sandbox/database.js');
  const db = openDatabase(dbPath);
  try {
    if (seed === 'demo') {
      const { seedDemo } = await import('../../../sandbox/seed/demo.js');
      seedDemo(db);
    }
  } finally {
    db.close();
  }
  stderr.write(`recreated ${dbPath}${seed === 'demo' ? ' with the demo data' : ' (empty)'}\n`);
}
