/**
 * The one atomic writer (src/write-whole.ts): the target is the old file or the new one, never a
 * part; a failed write leaves the old file and no temporary file; the mode asked for is the mode
 * the file gets, also when it replaces a looser one.
 */
import {
  chmodSync,
  closeSync,
  constants,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  openAppend,
  openNoFollow,
  replaceWhole,
  tempBeside,
  tempOwner,
  writeWhole,
  writeWholeSync,
} from '../../src/write-whole.js';

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
        writeFileSync(temp.fd, 'part');
        throw new Error('disk full');
      }),
    ).toThrow('disk full');
    expect(readFileSync(target, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['rec.har']);
  });
});

describe('the temporary name', () => {
  it('is <target>.tmp-<pid>-<64 random bits>, new each time, and tempOwner reads the pid back (for removing a killed process’s leftovers)', () => {
    const target = join(dir, 'snap.db');
    const temp = tempBeside(target);
    expect(temp).toMatch(new RegExp(`^${join(dir, `snap\\.db\\.tmp-${process.pid}-`)}[0-9a-f]{16}$`));
    expect(tempBeside(target)).not.toBe(temp);
    expect(tempOwner(temp)).toBe(process.pid);
    expect(tempOwner(`${target}.tmp-123`)).toBe(123); // an older udcli's leftover
    expect(tempOwner('snap.db')).toBeUndefined();
    expect(tempOwner('snap.db.tmp-')).toBeUndefined();
  });
});

/**
 * Issue 40, 3: a link planted where the writer writes redirects nothing. The old temporary name
 * (`<target>.tmp-<pid>`, pids being sequential) was opened following links and without O_EXCL,
 * so a link planted there had the write land in another file.
 */
describe('a planted symbolic link', () => {
  const victim = () => {
    const path = join(dir, 'victim.txt');
    writeFileSync(path, 'precious', { mode: 0o644 });
    return path;
  };
  const untouched = (path: string) => {
    expect(readFileSync(path, 'utf8')).toBe('precious');
    expect(mode(path)).toBe(0o644);
  };

  it('at the old predictable temporary name: the write goes to a fresh file; the linked file is untouched; the target is a regular 0600 file', async () => {
    const target = join(dir, 'rec.har');
    const other = victim();
    symlinkSync(other, `${target}.tmp-${process.pid}`);
    writeWholeSync(target, 'new');
    untouched(other);
    expect(lstatSync(target).isFile()).toBe(true);
    expect(mode(target)).toBe(0o600);
    expect(readFileSync(target, 'utf8')).toBe('new');

    await writeWhole(target, Readable.from(['streamed']));
    untouched(other);
    expect(readFileSync(target, 'utf8')).toBe('streamed');
    expect(lstatSync(`${target}.tmp-${process.pid}`).isSymbolicLink()).toBe(true); // not ours: left alone
  });

  it('at the target itself: the rename replaces the link (a name), never writes through it; the target ends a regular 0600 file', async () => {
    const target = join(dir, 'export.yaml');
    const other = victim();
    symlinkSync(other, target);
    writeWholeSync(target, 'exported');
    untouched(other);
    expect(lstatSync(target).isFile()).toBe(true);
    expect(mode(target)).toBe(0o600);

    rmSync(target);
    symlinkSync(other, target);
    await writeWhole(target, Readable.from(['streamed']));
    untouched(other);
    expect(lstatSync(target).isFile()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('streamed');
  });

  it('a link dangling to where a new file would be made: nothing is created there', () => {
    const target = join(dir, 'state.json');
    const nowhere = join(dir, 'made-by-a-link');
    symlinkSync(nowhere, `${target}.tmp-${process.pid}`);
    writeWholeSync(target, 'x');
    expect(existsSync(nowhere)).toBe(false);
  });

  it('openAppend and openNoFollow refuse a link (ELOOP) and write nothing through it; a missing file is made 0600', () => {
    const other = victim();
    const log = join(dir, 'audit.log');
    symlinkSync(other, log);
    expect(() => openAppend(log)).toThrow(
      expect.objectContaining({ code: 'ELOOP', message: `${log} is a symbolic link (not followed)` }),
    );
    expect(() => openNoFollow(log, constants.O_RDWR)).toThrow(expect.objectContaining({ code: 'ELOOP' }));
    untouched(other);

    expect(() => openAppend(dir)).toThrow();
    const fresh = join(dir, 'journal.ndjson');
    const fd = openAppend(fresh);
    closeSync(fd);
    expect(mode(fresh)).toBe(0o600);
    chmodSync(fresh, 0o644);
    closeSync(openAppend(fresh)); // an older udcli's looser file is made 0600
    expect(mode(fresh)).toBe(0o600);
  });
});
