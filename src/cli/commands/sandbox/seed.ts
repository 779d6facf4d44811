/** `udcli sandbox seed`: adds generated users, friends, achievements and products. */
import { dirname } from 'node:path';
import { defaultDatabasePath, ensureDataDir } from '../../../sandbox/paths.js';
import type { Factory } from '../../../ops/factory.js';
import { wantsJson } from './json.js';
import { parseSeedOptions, type RawSeedOptions } from './seed-options.js';
import { jsonText } from '../../../printable.js';
import { grouped } from '../../../domain/grouped.js';

export async function seedCommand(factory: Factory, raw: RawSeedOptions): Promise<void> {
  const { stdout, env } = factory.io;
  const options = parseSeedOptions(raw);
  const dbPath = options.db ?? defaultDatabasePath(env);
  ensureDataDir(dirname(dbPath));
  const { openDatabase } = await import('../../../sandbox/database.js');
  const { seedDemo } = await import('../../../sandbox/seed/demo.js');
  const { seedGenerated } = await import('../../../sandbox/seed/generated.js');
  const started = Date.now();
  const db = openDatabase(dbPath);
  try {
    // A new database gets the demo data first, so the demo credentials work with it.
    const demo = db.isEmpty();
    if (demo) seedDemo(db);
    const summary = seedGenerated(db, options);
    const { recordAddition, recordOrigin } = await import('../../../sandbox/origin.js');
    if (demo) recordOrigin(db, { kind: 'demo' });
    recordAddition(db, `seed ${options.seed} (${grouped(summary.users)} users)`);
    const seconds = (Date.now() - started) / 1000;
    if (wantsJson(factory, options.json)) {
      stdout.write(`${jsonText({ database: dbPath, demo_seeded: demo, seconds, ...summary }, 2)}\n`);
      return;
    }
    const more = (list: string[]) =>
      list.length > 3 ? `${list.slice(0, 3).join(', ')}, …` : list.join(', ') || 'none';
    stdout.write(
      [
        `seeded ${dbPath}${demo ? ' (demo data first: it was empty)' : ''} in ${seconds.toFixed(1)} s`,
        `  users         ${grouped(summary.users)} (${summary.usernamePattern} …)`,
        `  hub user      ${summary.hub.username} (uid ${summary.hub.uid}) with ${grouped(summary.friends)} friends`,
        `  achievements  ${summary.developerIds.length} on game ${summary.gameId}: ${more(summary.developerIds)}`,
        `  products      ${summary.skus.length} on game ${summary.gameId}: ${more(summary.skus)}`,
      ].join('\n') + '\n',
    );
  } finally {
    db.close();
  }
}
