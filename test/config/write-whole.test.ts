/**
 * The one atomic writer (src/write-whole.ts): the target is the old file or the new one, never a
 * part; a failed write leaves the old file and no temporary file; the mode asked for is the mode
 * the file gets, also when it replaces a looser one.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replaceWhole, tempBeside, tempOwner, writeWhole, writeWholeSync } from '../../src/write-whole.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'udcli-write-whole-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const mode = (path: string): number => statSync(path).mode & 0o777;

describe('writeWholeSync and writeWhole', () => {
  it('replace the file with the new content at the mode asked for (0600 by default), leaving no temporary file', async () => {
    const target = join(dir, 'state.json');
    writeFileSync(target, 'old', { mode: 0o644 });
    chmodSync(target, 0o644);
    writeWholeSync(target, 'new');
    expect(readFileSync(target, 'utf8')).toBe('new');
    expect(mode(target)).toBe(0o600);

    await writeWhole(target, Readable.from(['streamed ', 'text']), 0o640);
    expect(readFileSync(target, 'utf8')).toBe('streamed text');
    expect(mode(target)).toBe(0o640);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('a stream that fails leaves the old file as it was and no temporary file', async () => {
    const target = join(dir, 'export.yaml');
    writeFileSync(target, 'old');
    const failing = new Readable({
      read() {
        this.push('half of it');
        this.destroy(new Error('source broke'));
      },
    });
    await expect(writeWhole(target, failing)).rejects.toThrow('source broke');
    expect(readFileSync(target, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['export.yaml']);
  });

  it('a fill that throws after writing part leaves the old file and no temporary file', () => {
    const target = join(dir, 'rec.har');
    writeFileSync(target, 'old');
    expect(() =>
      replaceWhole(target, (temp) => {
        writeFileSync(temp, 'part');
        throw new Error('disk full');
      }),
    ).toThrow('disk full');
    expect(readFileSync(target, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['rec.har']);
  });
});

describe('the temporary name', () => {
  it('is <target>.tmp-<pid>, and tempOwner reads the pid back (for removing a killed process’s leftovers)', () => {
    const temp = tempBeside(join(dir, 'snap.db'));
    expect(temp).toBe(join(dir, `snap.db.tmp-${process.pid}`));
    expect(tempOwner(temp)).toBe(process.pid);
    expect(tempOwner('snap.db')).toBeUndefined();
    expect(tempOwner('snap.db.tmp-')).toBeUndefined();
  });
});
