/**
 * Issue 40, 3, through the commands a user runs: a symbolic link planted where udcli writes (the
 * old predictable temporary name `<target>.tmp-<pid>`, or the file's own name) redirects
 * nothing. The file it points to keeps its content and mode; what udcli writes ends a regular
 * 0600 file; a file udcli adds lines to (the audit log, a journal) is refused with one line
 * rather than written through the link, before anything is sent.
 */
import { lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, fileSandbox } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { fileScratch } from '../scratch.js';

const env = fileSandbox();
const dir = fileScratch('udcli-planted-');

let n = 0;
/** Another file of the user's, which a planted link points at. */
function victim(): string {
  const path = join(dir, `victim-${++n}.txt`);
  writeFileSync(path, 'precious\n', { mode: 0o644 });
  return path;
}
function untouched(path: string): void {
  expect(readFileSync(path, 'utf8')).toBe('precious\n');
  expect(statSync(path).mode & 0o777).toBe(0o644);
}
function regular0600(path: string): void {
  expect(lstatSync(path).isFile()).toBe(true);
  expect(statSync(path).mode & 0o777).toBe(0o600);
}
/** The commands run in this process: the old temporary name is this pid's. */
const oldTemp = (target: string): string => `${target}.tmp-${process.pid}`;
const changedCount = async (): Promise<number> => {
  const r = await env.read(['sandbox', 'logs', '-n', 'all', '--json']);
  return r.stdout.split('\n').filter((l) => l.includes('"PUT"') || l.includes('"POST"')).length;
};

describe('a link planted at the old temporary name', () => {
  it('--har: the recording is written, the linked file is untouched', async () => {
    const har = join(dir, 'session.har');
    const other = victim();
    symlinkSync(other, oldTemp(har));
    const r = await env.run(['--har', har, 'user', DEMO.user.uid]);
    expect(r.code, r.stderr).toBe(0);
    untouched(other);
    regular0600(har);
    expect(
      (JSON.parse(readFileSync(har, 'utf8')) as { log: { entries: unknown[] } }).log.entries.length,
    ).toBeGreaterThan(0);
  });

  it('sandbox export: the export is written, the linked file is untouched', async () => {
    const out = join(dir, 'export.yaml');
    const other = victim();
    symlinkSync(other, oldTemp(out));
    const r = await env.run(['sandbox', 'export', out, '--db', env.sandbox.dbPath]);
    expect(r.code, r.stderr).toBe(0);
    untouched(other);
    regular0600(out);
    expect(readFileSync(out, 'utf8')).toContain(DEMO.user.username);
  });

  it('sandbox snapshot save: the snapshot is written, the linked file is untouched', async () => {
    const snapshots = join(env.dataDir, 'snapshots');
    mkdirSync(snapshots, { recursive: true, mode: 0o700 });
    const target = join(snapshots, 'planted.db');
    const other = victim();
    symlinkSync(other, oldTemp(target));
    const r = await env.run(['sandbox', 'snapshot', 'save', 'planted', '--db', env.sandbox.dbPath]);
    expect(r.code, r.stderr).toBe(0);
    untouched(other);
    regular0600(target);
  });
});

describe('a link planted at the file’s own name', () => {
  it('--har FILE that is a link: refused with one line, exit 2, nothing sent, the linked file untouched', async () => {
    const har = join(dir, 'linked.har');
    const other = victim();
    symlinkSync(other, har);
    const before = await changedCount();
    const r = await env.run(['--har', har, 'achievements', 'reset', DEMO.user.uid, 'LEVEL_10', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`udcli: --har ${har}: a symbolic link; name the recording itself; nothing was sent\n`);
    untouched(other);
    expect(lstatSync(har).isSymbolicLink()).toBe(true);
    expect(await changedCount()).toBe(before);
  });

  it('sandbox export over a link: the link is replaced by the export, the file it pointed to untouched', async () => {
    const out = join(dir, 'linked-export.json');
    const other = victim();
    symlinkSync(other, out);
    const r = await env.run(['sandbox', 'export', out, '--db', env.sandbox.dbPath]);
    expect(r.code, r.stderr).toBe(0);
    untouched(other);
    regular0600(out);
  });

  it('the audit log: a change is refused with one line before it is sent; the linked file untouched', async () => {
    mkdirSync(env.configDir, { recursive: true, mode: 0o700 });
    const log = join(env.configDir, 'audit.log');
    const other = victim();
    // An earlier refused change may have opened (made) the log: the link takes its place.
    rmSync(log, { force: true });
    symlinkSync(other, log);
    try {
      const before = await changedCount();
      const r = await env.run(['achievements', 'reset', DEMO.user.uid, 'LEVEL_10', '--yes']);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `udcli: cannot write the audit log ${log}: ${log} is a symbolic link (not followed); nothing was changed\n`,
      );
      untouched(other);
      expect(await changedCount()).toBe(before);
    } finally {
      rmSync(log);
    }
  });

  it('a batch journal that is a link: refused with one line, nothing sent; the linked file untouched', async () => {
    const journal = join(dir, 'run.journal');
    const other = victim();
    symlinkSync(other, journal);
    const users = join(dir, 'users.txt');
    writeFileSync(users, `${DEMO.user.uid}\n`);
    const before = await changedCount();
    const r = await env.run(['achievements', 'reset', `@${users}`, 'LEVEL_10', '--yes', '--journal', journal]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`udcli: journal is a symbolic link: ${journal}; name the journal itself\n`);
    untouched(other);
    expect(await changedCount()).toBe(before);
  });
});
