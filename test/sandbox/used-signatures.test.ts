/**
 * Used hmac-sha256-v1 signatures (issue 31, 5; issue 40, 7) live in the database: one use per
 * signature on every process of it, no cap that refuses legitimate traffic, rows kept by the real
 * clock and swept, and a move of the virtual clock back revives nothing. The store itself here,
 * on a real SQLite file; over HTTP with two sandboxes on one database: used-signatures-http.test.ts.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type SandboxDatabase } from '../../src/sandbox/database.js';
import { createUsedSignatures, KEEP_SECONDS, type UsedSignatures } from '../../src/sandbox/http/used-signatures.js';
import { tempDir } from './helpers/sandbox.js';
import { rmSync } from 'node:fs';

const T = 1_795_000_000;
const sig = (n: number): string => n.toString(16).padStart(64, '0');

let dir: string;
let db: SandboxDatabase;
/** The real clock under the store (ms), moved by the test. */
let realMs: number;
let used: UsedSignatures;
beforeEach(() => {
  dir = tempDir('udcli-used-signatures-');
  db = openDatabase(join(dir, 'sandbox.db'));
  realMs = T * 1000;
  used = createUsedSignatures(db.repos.usedSignatures, () => realMs);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const spend = (store: UsedSignatures, signature: string, timestamp: number) =>
  db.transaction(() => store.spend(signature, timestamp));

describe('used signatures in the database', () => {
  it('a signature is refused from its second use on, whatever its case', () => {
    expect(spend(used, 'ab'.repeat(32), T)).toEqual({ ok: true });
    expect(spend(used, 'ab'.repeat(32), T)).toEqual({ ok: false, reason: 'used' });
    expect(spend(used, 'AB'.repeat(32), T)).toEqual({ ok: false, reason: 'used' });
  });

  it('is shared by every connection to the database (another process)', () => {
    const other = openDatabase(db.path);
    try {
      const theirs = createUsedSignatures(other.repos.usedSignatures, () => realMs);
      expect(spend(used, sig(1), T)).toEqual({ ok: true });
      expect(other.transaction(() => theirs.spend(sig(1), T))).toEqual({ ok: false, reason: 'used' });
      expect(other.transaction(() => theirs.spend(sig(2), T))).toEqual({ ok: true });
      expect(spend(used, sig(2), T)).toEqual({ ok: false, reason: 'used' });
    } finally {
      other.close();
    }
  });

  it('a spend rolled back with its transaction (the change failed busy) leaves the signature unused', () => {
    expect(() =>
      db.transaction(() => {
        used.spend(sig(3), T);
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(spend(used, sig(3), T)).toEqual({ ok: true });
  });

  it('no cap: 200,000 distinct signatures in one window are all accepted (the in-memory set refused past 100,000)', () => {
    const insertMany = db.sqlite.transaction((from: number, to: number) => {
      for (let k = from; k < to; k++) if (!used.spend(sig(k), T).ok) throw new Error(`refused ${k}`);
    });
    insertMany(0, 200_000);
    expect(db.repos.usedSignatures.count()).toBe(200_000);
  });

  it('sweeps a row once its real keeping time is over, not before; at most once a second per process', () => {
    spend(used, sig(1), T);
    realMs += (KEEP_SECONDS - 1) * 1000;
    spend(used, sig(2), T + KEEP_SECONDS - 1);
    expect(db.repos.usedSignatures.count()).toBe(2);
    realMs += 2000;
    spend(used, sig(3), T + KEEP_SECONDS + 1);
    expect(db.repos.usedSignatures.count()).toBe(2); // sig 1 went
    realMs += 500;
    spend(used, sig(4), T + KEEP_SECONDS + 1);
    expect(db.repos.usedSignatures.count()).toBe(3); // no sweep within the second
  });

  it('a clock moved back revives nothing: a swept signature’s timestamp is refused as possibly used', () => {
    expect(spend(used, sig(10), T)).toEqual({ ok: true });
    expect(spend(used, sig(11), T + 20)).toEqual({ ok: true });
    // Real time passes; the rows are swept (the virtual clock, wherever it is, plays no part).
    realMs += (KEEP_SECONDS + 1) * 1000;
    expect(spend(used, sig(12), T + KEEP_SECONDS + 1)).toEqual({ ok: true });
    expect(db.repos.usedSignatures.count()).toBe(1);
    // The clock moved back onto T: the old signatures, and any other of their seconds, are refused.
    expect(spend(used, sig(10), T)).toEqual({ ok: false, reason: 'forgotten' });
    expect(spend(used, sig(11), T + 20)).toEqual({ ok: false, reason: 'forgotten' });
    expect(spend(used, sig(13), T + 10)).toEqual({ ok: false, reason: 'forgotten' });
    // Seconds no swept signature had stay open: before the first, after the last.
    expect(spend(used, sig(14), T - 1)).toEqual({ ok: true });
    expect(spend(used, sig(15), T + 21)).toEqual({ ok: true });
    // Another process on the database knows it too.
    const other = openDatabase(db.path);
    try {
      const theirs = createUsedSignatures(other.repos.usedSignatures, () => realMs);
      expect(other.transaction(() => theirs.spend(sig(10), T))).toEqual({ ok: false, reason: 'forgotten' });
    } finally {
      other.close();
    }
  });

  it('a steady load never meets a forgotten span: a timestamp within 300 s of the clock is always taken', () => {
    // 2 a second for 30 real minutes, each signed at the clock ± 300 s (a client's clock off either way).
    let n = 0;
    for (let second = 0; second < 1800; second++) {
      realMs = (T + second) * 1000;
      for (const skew of [-300, 300]) expect(spend(used, sig(++n), T + second + skew)).toEqual({ ok: true });
    }
    expect(db.repos.usedSignatures.count()).toBeLessThanOrEqual(2 * (KEEP_SECONDS + 1));
  });
});

describe('a reset or a snapshot restore', () => {
  it('keeps the used signatures (a restore of an older list would make a used one good again)', async () => {
    const { emptyContents } = await import('../../src/sandbox/repositories/whole-database.js');
    spend(used, sig(1), T);
    db.transaction(() => emptyContents(db.sqlite));
    expect(spend(used, sig(1), T)).toEqual({ ok: false, reason: 'used' });
  });
});
