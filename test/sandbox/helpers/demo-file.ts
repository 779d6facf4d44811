/**
 * A sandbox database file that holds the demo data, without seeding it for every sandbox: the
 * data is seeded once a worker process (vitest runs file after file in one worker, isolate: false)
 * into an in-memory database by this checkout's seed code (never a build that may be stale), and
 * each test sandbox after that starts from that database's bytes (`serialize()`, as `udcli/sandbox`
 * keeps its image) written to its file. Seeding 1,500 users and their plays and friendships cost
 * about 100 ms of CPU a sandbox; writing the bytes costs about a millisecond.
 */
import { writeFileSync } from 'node:fs';
import { DATABASE_FILE_MODE, openDatabase } from '../../../src/sandbox/database.js';
import { seedFrom } from '../../../src/sandbox/origin.js';
import { seedDemo } from '../../../src/sandbox/seed/demo.js';

/**
 * How the data went in: `seedDemo` alone (what startTestSandbox did to its app's database), or
 * `seedFrom` the demo origin (what `startSandbox` does to an empty database: the data, and its
 * origin recorded for reset and `sandbox info`).
 */
export type DemoSeeding = 'seedDemo' | 'seedFrom';

const images = new Map<DemoSeeding, Promise<Buffer>>();

async function seededImage(how: DemoSeeding): Promise<Buffer> {
  const db = openDatabase(':memory:');
  try {
    if (how === 'seedDemo') seedDemo(db);
    else await seedFrom(db, { kind: 'demo' });
    return db.sqlite.serialize();
  } finally {
    db.close();
  }
}

/** Writes a database file holding the demo data at `path` (a path nothing is at yet, as openDatabase makes it). */
export async function demoDatabaseAt(path: string, how: DemoSeeding): Promise<void> {
  let image = images.get(how);
  if (image === undefined) {
    image = seededImage(how);
    images.set(how, image);
  }
  writeFileSync(path, await image, { flag: 'wx', mode: DATABASE_FILE_MODE });
}
