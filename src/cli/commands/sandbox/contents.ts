/**
 * What a sandbox holds, for `info` and `status`: asked of the running sandbox (GET
 * /_sandbox/contents), else read from its database file; undefined when there is none yet (a
 * first start seeds the demo data) or the answer cannot be had.
 */
import { existsSync } from 'node:fs';
import type { PresentedContents } from '../../../sandbox/routes/contents.js';

export async function sandboxContents(dbPath: string, runningUrl: string | undefined): Promise<PresentedContents | undefined> {
  if (runningUrl !== undefined) {
    try {
      const url = runningUrl.replace('://0.0.0.0:', '://127.0.0.1:').replace('://[::]:', '://[::1]:');
      const response = await fetch(`${url}/_sandbox/contents`, { signal: AbortSignal.timeout(3_000) });
      if (response.ok) {
        const body = (await response.json()) as PresentedContents;
        if (typeof body?.origin?.text === 'string' && Array.isArray(body.games)) return body;
      }
    } catch {
      // An older sandbox, or one that went away: say what can be said without it.
    }
  }
  if (dbPath === ':memory:' || !existsSync(dbPath)) return undefined;
  const [{ openDatabase }, { loadedContents }, { presentContents }] = await Promise.all([
    import('../../../sandbox/database.js'),
    import('../../../sandbox/loaded.js'),
    import('../../../sandbox/routes/contents.js'),
  ]);
  const db = openDatabase(dbPath);
  try {
    return presentContents(loadedContents(db));
  } finally {
    db.close();
  }
}
