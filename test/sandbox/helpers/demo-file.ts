/**
 * A sandbox database file that holds the demo data, without seeding it for every sandbox: the
 * data is seeded once a worker process (vitest runs file after file in one worker, isolate: false)
 * into a file of its own, by this checkout's seed code (never a build that may be stale), and each
 * test sandbox after that starts from a copy of that file. Seeding 1,500 users and their plays and
 * friendships cost about 100 ms of CPU a sandbox; a copy costs about a millisecond. The copy is the
 * same SQLite file the seeding wrote, so a sandbox opened on it is one opened on freshly seeded data.
 */
import { constants, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../../src/sandbox/database.js';
import { seedFrom } from '../../../src/sandbox/origin.js';
import { seedDemo } from '../../../src/sandbox/seed/demo.js';

/**
 * How the data went in: `seedDemo` alone (what startTestSandbox did to its app's database), or
 * `seedFrom` the demo origin (what `startSandbox` does to an empty database: the data, and its
 * origin recorded for reset and `sandbox info`).
 */
export type DemoSeeding = 'seedDemo' | 'seedFrom';

const images = new Map<DemoSeeding, Promise<string>>();

async function seededFile(how: DemoSeeding): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'udcli-demo-image-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'demo.db');
  const db = openDatabase(file);
  try {
    if (how === 'seedDemo') seedDemo(db);
    else await seedFrom(db, { kind: 'demo' });
  } finally {
    // The last connection's close writes the WAL back into the file: the copy needs nothing beside it.
    db.close();
  }
  return file;
}

/** Writes a database file holding the demo data at `path` (a path nothing is at yet). */
export async function demoDatabaseAt(path: string, how: DemoSeeding): Promise<void> {
  let image = images.get(how);
  if (image === undefined) {
    image = seededFile(how);
    images.set(how, image);
  }
  copyFileSync(await image, path, constants.COPYFILE_EXCL);
}
