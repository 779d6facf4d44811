/**
 * Issue 55's exercise, kept so the claim cannot rot: `achievements complete` (a user's
 * achievement set to complete), declared as one file in src/cli/changes/ would declare it and
 * nothing else, gets what the other verbs get from the registry: its line in `udcli --help` and
 * `udcli achievements --help`, its own help with @FILE and the journal, its completions (asked
 * of `udcli __complete line`, as the shell scripts ask), a place in the lists the help tests
 * read (test/cli/registry.ts), a dry run, a receipt whose undo restores, and an @FILE batch with
 * a journal. It is registered through `registerForTest` (the registry's same path as a file,
 * without writing into src/ under the other tests), and everything runs through `main` against
 * the file's sandbox.
 */
import { defineChange } from '../../src/cli/change-registry.js';
import { ACHIEVEMENTS, type TargetOptions } from '../../src/cli/commands/achievements/index.js';
import { SCOPE_OPTIONS } from '../../src/cli/scope-options.js';
import { DEMO } from '../../src/domain/demo.js';
import { declaredCommands, verbsOf } from '../cli/registry.js';
import { runPrinted } from '../e2e/harness.js';
import { describe, expect, it } from '../fixtures.js';
import { ALICE, batchFiles, batchLines, GHOST, level10, registerDuringFile } from './exercise-kit.js';

/** The file as it would be written: src/cli/changes/achievements-complete.ts. */
const complete = defineChange({
  command: 'achievements complete',
  description: "Set a user's achievement to complete (signed PUT progress=1)",
  arguments: [{ name: 'developer_id', key: 'developerId', description: 'the achievement' }],
  options: SCOPE_OPTIONS,
  examples: ['UID FIRST_WIN'],
  batchExample: 'LEVEL_10',
  async type() {
    const [{ achievementChange }, { setAchievementProgress }] = await Promise.all([
      import('../../src/batch/changes/achievements.js'),
      import('../../src/ops/achievements.js'),
    ]);
    return achievementChange({
      action: 'complete',
      idempotent: true,
      change: (_args: { uid: string; developerId: string }, _opts: TargetOptions) => ({ action: 'complete' }),
      argv: () => [],
      confirm: ({ target }, who) => `complete ${target.developerId} of ${who}`,
      label: ({ target }) => `complete ${target.developerId}`,
      spin: (developerId) => `Completing ${developerId}`,
      perform: (client, uid, target) => setAchievementProgress(client, uid, target, 1),
      next: (_now, _start, goal) => goal,
    });
  },
});

registerDuringFile(complete);

describe('achievements complete, one declaration', () => {
  it('is listed by help and the registry, and has help of its own with @FILE and a journal example', async ({
    sandbox,
  }) => {
    const root = await sandbox.run(['--help']);
    // Its line (wrapped at 80 columns) names the noun's changes, read from the registry.
    expect(/^ {2}achievements [\s\S]*?\n {2}products /m.exec(root.stdout)?.[0]).toMatch(/\bcomplete\b/);
    const noun = await sandbox.run(['achievements', '--help']);
    expect(noun.stdout).toMatch(/^ {2}complete \[options\] <user> <developer_id>\n +Set a user's achievement/m);
    const own = await sandbox.run(['achievements', 'complete', '--help']);
    expect(own.code, own.stderr).toBe(0);
    expect(own.stdout).toMatch(/^ {2}user .*@FILE/m);
    expect(own.stdout).toContain('$ udcli achievements complete @users.txt LEVEL_10 --journal run.jsonl');
    // What test/cli/help-examples.test.ts and running-verb.test.ts compare the commands with.
    expect(await declaredCommands()).toContain('achievements complete');
    expect(await verbsOf(ACHIEVEMENTS)).toContain('complete');
  });

  it('completes: the verb, its options and the values of its scope options', async ({ sandbox }) => {
    const tab = async (...words: string[]): Promise<string[]> => {
      const r = await sandbox.run(['__complete', 'line', '--', ...words]);
      expect(r.code, r.stderr).toBe(0);
      return r.stdout
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => l.split('\t')[0]!);
    };
    expect(await tab('achievements', 'c')).toEqual(['complete']);
    expect(await tab('achievements', 'complete', DEMO.user.uid, 'LEVEL_10', '--jo')).toEqual(['--journal']);
    expect(await tab('achievements', 'complete', 'x', '--type', '')).toEqual(['Game', 'Website']);
  });

  it('has a dry run, a receipt and an undo that restores', async ({ sandbox }) => {
    const progress = () => level10(sandbox, DEMO.user.uid);
    const was = await progress();
    expect(was.state).not.toBe('Completed');

    const dry = await sandbox.run(['achievements', 'complete', DEMO.user.uid, 'LEVEL_10', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    const planned = JSON.parse(dry.stdout) as { dry_run: boolean; expected: string };
    expect(planned.dry_run).toBe(true);
    // `LEVEL_10 of 0123…: 3/10 … → 10/10 Completed`: to its goal.
    expect(planned.expected).toMatch(new RegExp(`: ${was.current_value}/(\\d+) .*→ \\1/\\1 Completed`));
    expect((await progress()).current_value).toBe(was.current_value);

    const r = await sandbox.run(['achievements', 'complete', DEMO.user.uid, 'LEVEL_10']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^Changed: LEVEL_10 of /m);
    expect((await progress()).state).toBe('Completed');
    const undo = /^Undo: +udcli (.*)$/m.exec(r.stderr)?.[1];
    expect(undo, r.stderr).toMatch(/^achievements /);
    // From Completed: reset, then set back (`... && udcli achievements set ...`), as a user pastes it.
    const back = await runPrinted(`udcli ${undo!}`, sandbox.env);
    expect(back.code, back.stderr).toBe(0);
    expect((await progress()).current_value).toBe(was.current_value);
  });

  it('runs over @FILE with a journal; a rerun skips what succeeded; the audit names it', async ({ sandbox, dirs }) => {
    const { users, journal } = batchFiles(dirs);
    const first = await sandbox.run(['achievements', 'complete', `@${users}`, 'LEVEL_10', '--journal', journal]);
    expect(first.code, first.stderr).toBe(6);
    const lines = batchLines(first);
    expect(lines.map((l) => [l.input, l.status]).sort()).toEqual([
      [ALICE, 'ok'],
      [GHOST, 'failed'],
    ]);
    const again = await sandbox.run(['achievements', 'complete', `@${users}`, 'LEVEL_10', '--journal', journal]);
    expect(again.code, again.stderr).toBe(6);
    const rerun = batchLines(again);
    expect(rerun.find((l) => l.input === ALICE)?.status).toBe('skipped');
    const audit = await sandbox.read(['audit', '--user', ALICE, '-o', 'json']);
    expect(audit.stdout).toContain('achievements complete');
  });
});
