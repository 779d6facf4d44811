/**
 * What a sandbox holds, for `info` and `status`: asked of the sandbox over HTTP (GET
 * /_sandbox/contents, through the admin client, src/client/sandbox-admin.ts), else read from its
 * database file through the same function the endpoint uses (src/sandbox/routes/contents.ts);
 * undefined when there is no database yet (a first start seeds the demo data) or the answer
 * cannot be had.
 */
import { existsSync } from 'node:fs';
import { reachableUrl } from './pidfile.js';
import { sandboxContentsAt } from '../../../client/sandbox-admin.js';
import type { PresentedContents } from '../../../sandbox/routes/contents.js';

/** The description of a database file, read in this process (no sandbox runs on it). */
export async function contentsOfFile(dbPath: string): Promise<PresentedContents | undefined> {
  if (dbPath === ':memory:' || !existsSync(dbPath)) return undefined;
  const [{ openDatabase }, { describeContents }] = await Promise.all([
    import('../../../sandbox/database.js'),
    import('../../../sandbox/routes/contents.js'),
  ]);
  const db = openDatabase(dbPath);
  try {
    return db.sqlite.transaction(() => describeContents(db))();
  } finally {
    db.close();
  }
}

/** The running sandbox's answer, else its database file's. */
export async function sandboxContents(
  dbPath: string,
  runningUrl: string | undefined,
): Promise<PresentedContents | undefined> {
  if (runningUrl !== undefined) {
    const asked = await sandboxContentsAt(reachableUrl(runningUrl));
    if (asked !== undefined) return asked;
  }
  return contentsOfFile(dbPath);
}
