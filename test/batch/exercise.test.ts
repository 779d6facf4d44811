/**
 * The recipe "a new verb" of docs/ARCHITECTURE.md, kept true: a throwaway change declared through
 * the registry, as a file in src/cli/changes/ would declare it, gets the single-user command, a
 * receipt with an undo that restores the state, `--dry-run`, and an `@FILE` batch whose journal
 * lets a rerun finish only what did not succeed. Everything runs through `main` against the test
 * sandbox; state is read back with `achievements list`.
 */
import { defineChange } from '../../src/cli/change-registry.js';
import type { TargetOptions } from '../../src/cli/commands/achievements/index.js';
import { SCOPE_OPTIONS } from '../../src/cli/scope-options.js';
import { DEMO } from '../../src/domain/demo.js';
import { describe, expect, it } from '../fixtures.js';
import { ALICE, GHOST, batchFiles, batchLines, level10, registerDuringFile } from './exercise-kit.js';

/** `achievements bump <user> <developer_id>`: one more step, sent as a signed increment. */
const bump = defineChange({
  command: 'achievements bump',
  description: "Add one step to a user's progress (a test's throwaway verb)",
  arguments: [{ name: 'developer_id', key: 'developerId', description: 'the achievement' }],
  options: SCOPE_OPTIONS,
  examples: ['UID LEVEL_10'],
  batchExample: 'LEVEL_10',
  async type() {
    const [{ achievementChange }, { incrementAchievement }, { incrementOutcome }] = await Promise.all([
      import('../../src/batch/changes/achievements.js'),
      import('../../src/ops/achievements.js'),
      import('../../src/domain/outcome.js'),
    ]);
    return achievementChange({
      action: 'bump',
      idempotent: false,
      change: (_args: { uid: string; developerId: string }, _opts: TargetOptions) => ({ action: 'bump' }),
      argv: () => [],
      confirm: ({ target }, who) => `bump ${target.developerId} of ${who}`,
      label: ({ target }) => `bump ${target.developerId}`,
      spin: (developerId) => `Bumping ${developerId}`,
      perform: (client, uid, target) => incrementAchievement(client, uid, target, 1),
      judge: (before, now, _change, definition) => incrementOutcome(before, now, 1, definition),
      next: (now) => now + 1,
    });
  },
});

registerDuringFile(bump);

describe('a verb declared through the change registry', () => {
  it('gets its command, its help with the batch options, a dry run, a receipt and an undo that restores', async ({
    sandbox,
  }) => {
    const value = async (): Promise<number> => (await level10(sandbox, DEMO.user.uid)).current_value;

    const help = await sandbox.run(['achievements', 'bump', '--help']);
    expect(help.stdout).toMatch(/^ {2}user .*@FILE/m);
    expect(help.stdout).toContain('--journal <file>');
    expect(help.stdout).toContain(`$ udcli achievements bump @users.txt LEVEL_10 --journal run.jsonl`);

    const was = await value();
    const dry = await sandbox.run(['achievements', 'bump', DEMO.user.uid, 'LEVEL_10', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    const planned = JSON.parse(dry.stdout) as { dry_run: boolean; request: { method: string }; expected: string };
    expect(planned.dry_run).toBe(true);
    expect(planned.expected).toMatch(
      new RegExp(`^LEVEL_10 of ${DEMO.user.uid.slice(0, 4)}…: ${was}/\\d+ .* → ${was + 1}/`),
    );
    expect(await value()).toBe(was);

    const r = await sandbox.run(['achievements', 'bump', DEMO.user.uid, 'LEVEL_10']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^Changed: LEVEL_10 of /m);
    expect(await value()).toBe(was + 1);
    const undo = /^Undo: +udcli (.*)$/m.exec(r.stderr)?.[1];
    expect(undo, r.stderr).toMatch(/^achievements /);
    const back = await sandbox.run(undo!.split(' '));
    expect(back.code, back.stderr).toBe(0);
    expect(await value()).toBe(was);
  });

  it('runs over @FILE with a journal; a rerun with the same journal sends only what did not succeed', async ({
    sandbox,
    dirs,
  }) => {
    const held = async (user: string): Promise<number> => (await level10(sandbox, user)).current_value;
    const { users, journal } = batchFiles(dirs);
    const before = await held(ALICE);

    const first = await sandbox.run(['achievements', 'bump', `@${users}`, 'LEVEL_10', '--journal', journal]);
    expect(first.code, first.stderr).toBe(6);
    const lines = batchLines(first);
    // In the order they finished: sorted to compare.
    expect(lines.map((l) => [l.input, l.status]).sort()).toEqual([
      [ALICE, 'ok'],
      [GHOST, 'failed'],
    ]);
    // The ghost does not exist: a rerun would not find it either, and the hint says so.
    expect(first.stderr).toContain('user not found (404): line 2');
    expect(first.stderr).not.toContain('rerun the same command');
    expect(await held(ALICE)).toBe(before + 1);

    const again = await sandbox.run(['achievements', 'bump', `@${users}`, 'LEVEL_10', '--journal', journal]);
    expect(again.code, again.stderr).toBe(6);
    // alice is done: the journal skips her, so her progress moved once in all.
    expect(await held(ALICE)).toBe(before + 1);
    const audit = await sandbox.read(['audit', '--user', ALICE, '-o', 'json']);
    expect(audit.stdout).toContain('achievements bump');
  });
});
