#!/usr/bin/env node
/**
 * Reference for the `data-load` bench: the least a loader can do with the same file — JSON.parse,
 * then the same rows inserted with prepared statements in one transaction into a database with
 * the sandbox's schema — without any of udcli's checks (schema, names, lines for errors).
 *   node bench/ref/load.js FILE DB
 */
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { openDatabase } from '../../dist/sandbox/database.js';

const [file, dbPath] = process.argv.slice(2);
const data = JSON.parse(readFileSync(file, 'utf8'));
const db = openDatabase(dbPath);
const now = Math.floor(Date.now() / 1000);
const md5 = (s) => createHash('md5').update(s).digest('hex');
const game = db.sqlite.prepare("INSERT INTO games (id, type, name, launchable, signing, created_on) VALUES (?, 'Game', ?, 0, 'agi', ?)");
const key = db.sqlite.prepare("INSERT INTO api_keys (api_key, game_id, signing_secret, created_on) VALUES (?, ?, '', ?)");
const user = db.sqlite.prepare("INSERT INTO users (uid, username, gender, created_on) VALUES (?, ?, 'unspecified', ?)");
const friend = db.sqlite.prepare('INSERT OR IGNORE INTO friendships (uid, friend_uid, created_on) VALUES (?, ?, ?)');
let n = 0;
db.transaction(() => {
  for (const g of data.games) {
    game.run(g.id, g.name, now);
    for (const k of g.keys ?? []) key.run(k.api_key, g.id, now);
  }
  for (const u of data.users) user.run(md5(u.username), u.username, now);
  for (const u of data.users) {
    const uid = md5(u.username);
    for (const f of u.friends ?? []) {
      const at = now + n++;
      friend.run(uid, md5(f), at);
      friend.run(md5(f), uid, at);
    }
  }
});
db.close();
process.stdout.write(`${data.users.length} users, ${n} friendships\n`);
