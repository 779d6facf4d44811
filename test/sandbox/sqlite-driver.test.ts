/**
 * Which SQLite driver each Node gets (src/sandbox/sqlite-driver.ts, docs/NODE.md), and the one
 * line a driver that is missing or will not load gives. The requires here are real ones, rooted
 * in folders this test makes: one without the driver, one whose driver throws as it loads (as a
 * binary built for another Node does).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { driverModuleFor, loadDriver, sqliteDriver } from '../../src/sandbox/sqlite-driver.js';
import { fileScratch } from '../scratch.js';

const scratch = fileScratch('udcli-driver-');

describe('driverModuleFor', () => {
  it('better-sqlite3 13 from Node 22 on; the Node 20 package (better-sqlite3 12) below', () => {
    expect(['20.18.1', '20.20.2', '21.7.3'].map(driverModuleFor)).toEqual([
      'udcli-sqlite-node20',
      'udcli-sqlite-node20',
      'udcli-sqlite-node20',
    ]);
    expect(['22.0.0', '22.23.3', '24.21.0', '26.12.1'].map(driverModuleFor)).toEqual([
      'better-sqlite3',
      'better-sqlite3',
      'better-sqlite3',
      'better-sqlite3',
    ]);
  });
});

describe('loadDriver', () => {
  it('a driver that is not installed: one line with the Node version, what is supported and what to do', () => {
    const load = createRequire(join(scratch, 'nothing-here.js'));
    let thrown: unknown;
    try {
      loadDriver('24.21.0', load);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as Error).message).toBe(
      "the SQLite driver for Node 24.21.0 (better-sqlite3) is not installed: udcli's sandbox runs on Node 20 (from 20.18.1), 22, 24 or 26; " +
        'install udcli again under this Node (npm ci in a clone, or npm install -g)',
    );
    expect((thrown as Error).message).not.toContain('\n');
  });

  it('a driver that throws as it loads says it does not load, keeping the cause for --verbose', () => {
    const dir = join(scratch, 'broken');
    mkdirSync(join(dir, 'node_modules', 'udcli-sqlite-node20'), { recursive: true });
    writeFileSync(
      join(dir, 'node_modules', 'udcli-sqlite-node20', 'index.js'),
      "throw new Error('was compiled against a different Node.js version');\n",
    );
    const load = createRequire(join(dir, 'x.js'));
    expect(() => loadDriver('20.20.2', load)).toThrow(
      /^the SQLite driver for Node 20\.20\.2 \(udcli-sqlite-node20\) does not load: /,
    );
    try {
      loadDriver('20.20.2', load);
    } catch (error) {
      expect(((error as Error).cause as Error).message).toContain('different Node.js version');
    }
  });

  it('on this Node the installed driver opens a database', () => {
    const Driver = sqliteDriver();
    const db = new Driver(':memory:');
    expect(db.prepare('SELECT 1 + 1 AS two').pluck().get()).toBe(2);
    db.close();
  });
});
