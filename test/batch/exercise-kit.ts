/**
 * What the exercises of "a new verb" share (exercise.test.ts, exercise-complete.test.ts): the
 * verb registered for the file's tests, the batch's two users, and LEVEL_10 read back.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { registerForTest, type ChangeDeclaration } from '../../src/cli/change-registry.js';
import type { CliResult, TestEnv } from '../e2e/harness.js';
import { expect, type Dirs } from '../fixtures.js';

/** Registers the verb, as a file in src/cli/changes/ would, for the tests of the file that calls this. */
export function registerDuringFile(declaration: ChangeDeclaration): void {
  let unregister: () => void;
  beforeAll(() => {
    unregister = registerForTest(declaration);
  });
  afterAll(() => unregister());
}

export const ALICE = 'alice';
/** A uid no user of the demo data has: its line fails (exit 6). */
export const GHOST = 'ffffffffffffffffffffffffffffffff';

/** A user's LEVEL_10 as `achievements list` shows it. */
export async function level10(
  sandbox: Pick<TestEnv, 'read'>,
  user: string,
): Promise<{ current_value: number; state: string }> {
  const r = await sandbox.read(['achievements', 'list', user, '--developer-id', 'LEVEL_10', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as Array<{ current_value: number; state: string }>)[0]!;
}

/** users.txt (alice, then the ghost) and a journal path beside the test's data directory. */
export function batchFiles(dirs: Dirs): { users: string; journal: string } {
  const users = join(dirs.dataDir, '..', 'users.txt');
  writeFileSync(users, `${ALICE}\n${GHOST}\n`);
  return { users, journal: join(dirs.dataDir, '..', 'run.jsonl') };
}

/** A batch's result lines, each user's input and status. */
export function batchLines(r: CliResult): Array<{ input: string; status: string }> {
  return r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { input: string; status: string });
}
