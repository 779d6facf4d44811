#!/usr/bin/env node
/**
 * Reference for the `data-load` row (`udcli sandbox load FILE --db DB`): the least a loader can
 * do to put the same file into the same database.
 *
 * The work: JSON.parse of the file; a database opened with better-sqlite3 directly, with the
 * pragmas the sandbox uses (WAL, synchronous NORMAL, foreign keys) and the sandbox's schema
 * (SCHEMA_FILE: the SQL of its tables, indexes and triggers, which the bench dumps from a freshly
 * migrated database, so the inserts pay for the same indexes and triggers); then in one
 * transaction, with prepared statements, the same rows udcli writes: the games and their keys,
 * every user (uid = md5(username), computed once a user, the columns udcli fills with their
 * defaults) and every friendship both ways.
 *
 * What it leaves out is udcli's structure and checks: no import of udcli's modules (migrations,
 * repositories, the data model; only its driver choice, so both sides run the same better-sqlite3
 * on this Node), no schema validation, no prescan for size and nesting, no
 * lookup of a name already taken, no upserts (the database is new), no line numbers for errors.
 * That is the fair floor: the same parse and the same inserts, nothing a loader may skip.
 *
 *   node bench/ref/load.js FILE DB SCHEMA_FILE
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
// The driver udcli runs with on this Node (better-sqlite3 13 on 22+, 12 on 20), taken from the build.
import { sqliteDriver } from '../../dist/sandbox/sqlite-driver.js';

const Database = sqliteDriver();
const [file, dbPath, schemaFile] = process.argv.slice(2);
const data = JSON.parse(readFileSync(file, 'utf8'));
const db = new Database(dbPath);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
db.exec(readFileSync(schemaFile, 'utf8'));

const now = Math.floor(Date.now() / 1000);
const game = db.prepare(
  "INSERT INTO games (id, type, name, launchable, content_uri, signing, created_on) VALUES (?, 'Game', ?, 0, NULL, 'agi', ?)",
);
const key = db.prepare(
  "INSERT INTO api_keys (api_key, game_id, signing_secret, partner, label, created_on) VALUES (?, ?, '', 0, '', ?)",
);
const user = db.prepare(
  "INSERT INTO users (uid, username, gender, created_on, birthday, premium, email) VALUES (?, ?, 'unspecified', ?, '0000-00-00', 0, '')",
);
const friend = db.prepare('INSERT OR IGNORE INTO friendships (uid, friend_uid, created_on) VALUES (?, ?, ?)');
let friendships = 0;
db.transaction(() => {
  for (const g of data.games ?? []) {
    game.run(g.id, g.name, now);
    for (const k of g.keys ?? []) key.run(String(k.api_key).toLowerCase(), g.id, now);
  }
  /** @type {Map<string, string>} */
  const uidOf = new Map();
  for (const u of data.users ?? []) {
    const uid = createHash('md5').update(u.username).digest('hex');
    user.run(uid, u.username, now);
    uidOf.set(u.username, uid);
  }
  for (const u of data.users ?? []) {
    const uid = /** @type {string} */ (uidOf.get(u.username));
    for (const name of u.friends ?? []) {
      const other = /** @type {string} */ (uidOf.get(name));
      const at = now + friendships++;
      friend.run(uid, other, at);
      friend.run(other, uid, at);
    }
  }
})();
db.close();
process.stdout.write(`${data.users.length} users, ${friendships} friendships\n`);
