/**
 * `udcli sandbox snapshot save|restore|list|delete`: named copies of the sandbox database in the
 * data dir's snapshots/ (see sandbox/snapshots.ts for how a save stays safe when killed).
 */
import { existsSync } from 'node:fs';
import { UsageError } from '../../../errors.js';
import { dataDir } from '../../../sandbox/paths.js';
import type { Factory } from '../../../ops/factory.js';
import { databasePath, runningSandbox } from './game.js';
import { wantsJson } from './json.js';
import { jsonText } from '../../../printable.js';

export interface SnapshotOptions {
  db?: string;
  json?: boolean;
}

async function snapshots() {
  return import('../../../sandbox/snapshots.js');
}

async function openExisting(factory: Factory, raw: string | undefined) {
  const path = databasePath(factory, raw);
  if (!existsSync(path)) {
    throw new UsageError(`there is no sandbox database at ${path}`, {
      hint: 'start the sandbox once (udcli sandbox start) or pass --db FILE',
    });
  }
  const { openDatabase } = await import('../../../sandbox/database.js');
  return { path, db: openDatabase(path) };
}

export async function saveCommand(factory: Factory, name: string, opts: SnapshotOptions): Promise<void> {
  const s = await snapshots();
  s.parseSnapshotName(name);
  const { path, db } = await openExisting(factory, opts.db);
  // Ctrl-C or a SIGTERM during the copy cancels the save once the copy returns, so that its
  // temporary files are removed rather than left behind by a process killed mid-copy.
  let signal: NodeJS.Signals | undefined;
  const stopListening = factory.io.onSignals(['SIGINT', 'SIGTERM', 'SIGHUP'], (s) => (signal = s));
  try {
    const file = await s.saveSnapshot(db, s.snapshotDir(dataDir(factory.io.env)), name, () => signal !== undefined);
    factory.io.stdout.write(`saved ${path} as snapshot "${name}" (${file})\n`);
  } finally {
    stopListening();
    db.close();
  }
}

export async function restoreCommand(factory: Factory, name: string, opts: SnapshotOptions): Promise<void> {
  const s = await snapshots();
  const file = s.snapshotFile(s.snapshotDir(dataDir(factory.io.env)), name);
  const { path, db } = await openExisting(factory, opts.db);
  try {
    s.restoreSnapshot(db, file);
  } finally {
    db.close();
  }
  factory.io.stdout.write(`restored snapshot "${name}" into ${path}\n`);
  const running = await runningSandbox(factory, path);
  if (running?.same) factory.io.stderr.write(`the sandbox at ${running.url} uses this database and sees it now\n`);
}

export async function listCommand(factory: Factory, opts: SnapshotOptions): Promise<void> {
  const s = await snapshots();
  const list = s.listSnapshots(s.snapshotDir(dataDir(factory.io.env)));
  if (wantsJson(factory, opts.json)) {
    factory.io.stdout.write(`${jsonText(list, 2)}\n`);
    return;
  }
  if (list.length === 0) {
    factory.io.stderr.write('no snapshots yet: udcli sandbox snapshot save NAME\n');
    return;
  }
  const width = Math.max(4, ...list.map((x) => x.name.length));
  factory.io.stdout.write(`${'NAME'.padEnd(width)}  SAVED                     SIZE\n`);
  for (const x of list)
    factory.io.stdout.write(`${x.name.padEnd(width)}  ${x.saved_on.padEnd(24)}  ${Math.ceil(x.bytes / 1024)} KiB\n`);
}

export async function deleteCommand(factory: Factory, name: string): Promise<void> {
  const s = await snapshots();
  s.deleteSnapshot(s.snapshotDir(dataDir(factory.io.env)), name);
  factory.io.stdout.write(`deleted snapshot "${name}"\n`);
}
