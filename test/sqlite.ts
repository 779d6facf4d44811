/**
 * The SQLite driver the sandbox runs with on this Node (src/sandbox/sqlite-driver.ts), for tests
 * that open a database themselves: better-sqlite3 13 on Node 22 and later, 12 on Node 20.
 */
import { sqliteDriver } from '../src/sandbox/sqlite-driver.js';

export { sqliteDriverPath } from '../src/sandbox/sqlite-driver.js';
export const Database = sqliteDriver();
