/** `udcli achievements defs|list|inc|set|reset|delete`. */
import type { Command } from 'commander';
import { addBatchOptions } from '../../../batch/flags.js';
import type { Factory } from '../../../ops/factory.js';
import { BATCH_USER_ARGUMENT, batchExample } from '../../batch-help.js';

export interface TargetOptions {
  game?: string;
  type?: string;
}

export interface DefsOptions {
  aid?: string;
  developerId?: string;
  type?: string;
}

export interface ListOptions extends TargetOptions {
  developerId?: string;
  limit?: string;
  offset?: string;
  order?: string;
  sort?: string;
  filter?: string;
  match?: string;
  all?: boolean;
  started?: boolean;
}

export interface IncOptions extends TargetOptions {
  by?: string;
}

const UID = '01e528d59829836fd23b09085b56edab';

function targetOptions(cmd: Command): Command {
  return cmd
    .option('--game <id>', "the game (default: the profile's game_id)")
    .option('--type <type>', "Game or Website (default: the profile's type, else Game)");
}

export function register(program: Command, factory: Factory): void {
  const ach = program
    .command('achievements')
    .description('Achievement definitions and user progress')
    .addHelpText('after', `\nExamples:\n  $ udcli achievements list ${UID}\n${batchExample('achievements reset', 'LEVEL_10')}`);

  ach
    .command('defs')
    .description("List a game's achievement definitions")
    .argument('[game_id]', "the game (default: the profile's game_id)")
    .option('--aid <n>', 'one achievement by its numeric id')
    .option('--developer-id <key>', 'one achievement by its developer_id')
    .option('--type <type>', 'Game or Website (default Game)')
    .addHelpText('after', '\nExamples:\n  $ udcli achievements defs 1001\n  $ udcli achievements defs --developer-id FIRST_WIN --json')
    .action(async (gameId: string | undefined, opts: DefsOptions) => {
      const { run } = await import('./defs.js');
      await run(factory, { gameId }, opts);
    });

  targetOptions(
    ach
      .command('list')
      .description("List a user's achievement progress")
      .argument('<user>', 'a uid (32 hex digits) or a username'),
  )
    .option('--developer-id <key>', 'only this achievement')
    .option('--limit <n>', 'at most this many, 1 to 1000 (server default 100)')
    .option('--offset <n>', 'skip this many first')
    .option('--order <field>', 'started_date, completed_date, state, parent_id, percent_complete or name')
    .option('--sort <dir>', 'asc or desc')
    .option('--filter <field>', 'parent, name, percent_complete, state or parent_id (with --match)')
    .option('--match <value>', 'value for --filter, e.g. --filter percent_complete --match ">=50"')
    .option('--all', 'every record, fetched 1000 at a time')
    .option('--started', 'only the quests the user has started, as the service lists them (no Not Started rows from the definitions)')
    .addHelpText(
      'after',
      `\nExamples:\n  $ udcli achievements list ${UID}\n  $ udcli achievements list ${UID} --started\n  $ udcli achievements list ${UID} --filter state --match Completed --order completed_date`,
    )
    .action(async (uid: string, opts: ListOptions) => {
      const { run } = await import('./list.js');
      await run(factory, { uid }, opts);
    });

  targetOptions(
    ach
      .command('inc')
      .description('Add to a user\'s progress (signed PUT increment)')
      .argument('<user>', BATCH_USER_ARGUMENT)
      .argument('<developer_id>', 'the achievement'),
  )
    .option('--by <n>', 'amount to add, an integer ≥ 1', '1')
    .addHelpText('after', `\nExamples:\n  $ udcli achievements inc ${UID} FIRST_WIN --by 2\n${batchExample('achievements inc', 'LEVEL_10')}`)
    .action(async (uid: string, developerId: string, opts: IncOptions) => {
      const { run } = await import('./inc.js');
      await run(factory, { uid, developerId }, opts);
    });

  targetOptions(
    ach
      .command('set')
      .description("Set a user's total progress: 0..1 or a percentage (signed PUT progress)")
      .argument('<user>', BATCH_USER_ARGUMENT)
      .argument('<developer_id>', 'the achievement')
      .argument('<progress>', 'a fraction from 0 to 1 (0.5) or a percentage (75%)'),
  )
    .addHelpText('after', `\nExamples:\n  $ udcli achievements set ${UID} FIRST_WIN 75%\n  $ udcli achievements set ${UID} FIRST_WIN 1\n${batchExample('achievements set', 'LEVEL_10 50%')}`)
    .action(async (uid: string, developerId: string, progress: string, opts: TargetOptions) => {
      const { run } = await import('./set.js');
      await run(factory, { uid, developerId, progress }, opts);
    });

  targetOptions(
    ach
      .command('reset')
      .description("Reset a user's progress to the start value (signed PUT reset=1)")
      .argument('<user>', BATCH_USER_ARGUMENT)
      .argument('<developer_id>', 'the achievement'),
  )
    .addHelpText('after', `\nExamples:\n  $ udcli achievements reset ${UID} FIRST_WIN\n${batchExample('achievements reset', 'LEVEL_10')}`)
    .action(async (uid: string, developerId: string, opts: TargetOptions) => {
      const { run } = await import('./reset.js');
      await run(factory, { uid, developerId }, opts);
    });

  targetOptions(
    ach
      .command('delete')
      .description("Delete a user's record of an achievement (asks first on a terminal; needs --yes where it cannot ask)")
      .argument('<user>', BATCH_USER_ARGUMENT)
      .argument('<developer_id>', 'the achievement'),
  )
    .addHelpText('after', `\nExamples:\n  $ udcli achievements delete ${UID} FIRST_WIN --yes\n${batchExample('achievements delete', 'FIRST_WIN --yes')}`)
    .action(async (uid: string, developerId: string, opts: TargetOptions) => {
      const { run } = await import('./delete.js');
      await run(factory, { uid, developerId }, opts);
    });
  // @FILE / @- in place of <uid>: --concurrency, --rate, --dry-run, --journal, --fail-fast, --retry-unknown
  for (const verb of ['inc', 'set', 'reset', 'delete']) addBatchOptions(ach.commands.find((c) => c.name() === verb)!);
}
