/** Every migration, in order. `PRAGMA user_version` records the last one applied. */
import * as initial from './001-initial.js';
import * as platform from './002-platform.js';
import * as gameSaves from './003-game-saves.js';
import * as platformPages from './004-platform-pages.js';
import * as usedSignatures from './005-used-signatures.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [initial, platform, gameSaves, platformPages, usedSignatures];

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
