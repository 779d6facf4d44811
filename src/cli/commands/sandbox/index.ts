/**
 * `udcli sandbox ...`: the local sandbox service. Each verb is declared in its own file beside its
 * handler (`start-verb.ts` beside `start.ts`: help, arguments, options and the handler it runs, as
 * src/cli/verb.ts reads them); this list gives help's order. A verb loads its handler (and with it
 * fastify/SQLite) only when it runs.
 */
import type { Command } from 'commander';
import type { Factory } from '../../../ops/factory.js';
import { addVerb, type Verb } from '../../verb.js';
import { CLOCK } from './clock-verb.js';
import { DIFF } from './diff-verb.js';
import { EXEC } from './exec-verb.js';
import { EXPORT } from './export-verb.js';
import { GAME } from './game-verb.js';
import { IMPORT } from './import-verb.js';
import { INFO } from './info-verb.js';
import { INIT } from './init-verb.js';
import { LOAD } from './load-verb.js';
import { LOGS } from './logs-verb.js';
import { PLAY } from './play-verb.js';
import { RESET } from './reset-verb.js';
import { SCHEMA } from './schema-verb.js';
import { SEED } from './seed-verb.js';
import { SNAPSHOT } from './snapshot-verb.js';
import { START } from './start-verb.js';
import { STATUS } from './status-verb.js';
import { STOP } from './stop-verb.js';

export const SANDBOX: Verb = {
  name: 'sandbox',
  description: 'Run the local sandbox of the User Data REST Service (SQLite, demo data)',
  examples: ['udcli sandbox start --detach', 'udcli sandbox info', 'udcli sandbox exec -- npm test'],
  verbs: [
    START,
    EXEC,
    PLAY,
    GAME,
    INIT,
    SCHEMA,
    LOAD,
    EXPORT,
    DIFF,
    IMPORT,
    SNAPSHOT,
    STOP,
    LOGS,
    STATUS,
    RESET,
    CLOCK,
    INFO,
    SEED,
  ],
};

export function register(program: Command, factory: Factory): void {
  addVerb(program, factory, SANDBOX);
}
