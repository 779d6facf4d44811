/**
 * vitest's globalSetup: one private temporary folder for the whole run. Every temporary file a test, a spawned udcli
 * or chromium makes goes under it (os.tmpdir() reads TMPDIR, and children inherit it), and the folder goes when the
 * run ends, with whatever a test did not remove itself (a killed process's files, a browser profile, a forgotten
 * folder): thousands of them piled up in /tmp over a day of runs before. Nobody else can list it or write in it, so
 * nothing in it is another user's to plant, on a shared machine too.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function runTmpdir(): () => void {
  const before = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'udcli-test-run-'));
  // Others may pass through (not list or write): the tests that run a tool as another user (PostgreSQL, a database
  // it cannot write) reach their own folders in it, as they reached them in /tmp.
  chmodSync(dir, 0o711);
  process.env.TMPDIR = dir;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(dir, { recursive: true, force: true });
  };
}
