/**
 * Issue 51 point 7: `-o csv` output opened in a spreadsheet runs nothing. A username from the
 * server that starts with =, +, -, @, a tab or a CR (what a spreadsheet takes for a formula) is
 * written with a single quote in front inside a quoted field, as OWASP recommends; a value that is
 * a plain number (-5, +7, -2.5) stays a number.
 */
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { Database } from '../sqlite.js';
import type { TestEnv } from './harness.js';

const HUB = 'csv_formula_hub';
/** Each friend's username and its CSV cell, in the order they befriended the hub. */
const CELLS: ReadonlyArray<[string, string]> = [
  ['=HYPERLINK("https://evil.example","open")', `"'=HYPERLINK(""https://evil.example"",""open"")"`],
  ['+1+cmd|/C calc', `"'+1+cmd|/C calc"`],
  ['-2+3+cmd', `"'-2+3+cmd"`],
  ['@SUM(1+1)*cmd', `"'@SUM(1+1)*cmd"`],
  ['\t=1+1', `"'\\x09=1+1"`],
  ['\r=1+1', `"'\\x0d=1+1"`],
  ['-5', '-5'],
  ['+7', '+7'],
  ['-2.5', '-2.5'],
  ['plain=name', 'plain=name'],
];

let env: TestEnv;
beforeAll(async ({ sandbox }) => {
  env = sandbox;
  const db = new Database(env.sandbox.dbPath);
  try {
    const user = db.prepare('INSERT INTO users (uid, username, gender, created_on) VALUES (?, ?, ?, ?)');
    const friends = db.prepare('INSERT INTO friendships (uid, friend_uid, created_on) VALUES (?, ?, ?), (?, ?, ?)');
    user.run(uidForUsername(HUB), HUB, 'unspecified', 1_700_000_000);
    CELLS.forEach(([name], i) => {
      const uid = uidForUsername(name);
      user.run(uid, name, 'unspecified', 1_700_000_000);
      friends.run(uidForUsername(HUB), uid, i, uid, uidForUsername(HUB), i);
    });
  } finally {
    db.close();
  }
});

describe('-o csv and formulas', () => {
  it('each cell starting with = + - @ tab or CR is neutralized; plain numbers are not', async () => {
    const r = await env.run(['friends', uidForUsername(HUB), '-o', 'csv', '--fields', 'username']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')).toEqual(['username', ...CELLS.map(([, cell]) => cell), '']);
  });
});
