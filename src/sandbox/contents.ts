/**
 * Replaces everything a sandbox database holds with what an origin gives (the demo data, a data
 * file, nothing), in one transaction on the open connection: a running sandbox answers from the
 * old contents until the commit and from the new ones after it, and a failure changes nothing.
 * Used by `start --data FILE --reset` and by the live reset (`POST /_sandbox/reset`).
 */
import type { SandboxDatabase } from './database.js';
import type { DataFile } from './data/model.js';
import { loadData } from './data/load.js';
import { emptyContents } from './repositories/whole-database.js';
import { recordOrigin, type SandboxOrigin } from './origin.js';
import { seedDemo } from './seed/demo.js';

export function replaceContents(
  db: SandboxDatabase,
  origin: SandboxOrigin,
  data?: DataFile,
  nowSeconds = Math.floor(Date.now() / 1000),
): void {
  if (origin.kind === 'data' && data === undefined)
    throw new Error('replaceContents: a data origin needs the data file read first');
  db.transaction(() => {
    emptyContents(db.sqlite);
    if (origin.kind === 'demo') seedDemo(db);
    else if (origin.kind === 'data') loadData(db, data!, nowSeconds, origin.file);
    recordOrigin(db, origin);
  });
}
