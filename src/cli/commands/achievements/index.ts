/** `udcli achievements defs|list`, and the changes declared in src/cli/changes/achievements-*.ts. */
import type { Command } from 'commander';
import type { Factory } from '../../../ops/factory.js';
import { EXAMPLE_UID, batchExample } from '../../batch-help.js';
import { registerChanges } from '../../change-registry.js';
import { addScopeOptions, type ScopeOptions } from '../../scope-options.js';

export type TargetOptions = ScopeOptions;

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

/**
 * The PROGRESS column, explained: its percentage is the platform's, counted from the quest's
 * start, so `4/10 (33%)` alone reads as wrong (issue 54).
 */
const PROGRESS_HELP =
  "PROGRESS: the current value out of the target, and the percentage as the platform computes it, counted from the quest's start: floor(100 × (current − start) / (target − start)). A quest that starts above 0 shows its start first: `1 → 4/10 (33%)` is 3 of its 9 steps done. The start comes from the game's definitions, which the whole list reads; with --started, --filter, --limit or --offset see udcli achievements defs (START).";

export async function register(program: Command, factory: Factory): Promise<void> {
  const ach = program
    .command('achievements')
    .description('Achievement definitions and user progress')
    .addHelpText(
      'after',
      `\nExamples:\n  $ udcli achievements list ${EXAMPLE_UID}\n${batchExample('achievements reset', 'LEVEL_10')}`,
    );

  ach
    .command('defs')
    .description("List a game's achievement definitions")
    .argument('[game_id]', "the game (default: the profile's game_id)")
    .option('--aid <n>', 'one achievement by its numeric id')
    .option('--developer-id <key>', 'one achievement by its developer_id')
    .option('--type <type>', 'Game or Website (default Game)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ udcli achievements defs 1001\n  $ udcli achievements defs --developer-id FIRST_WIN --json',
    )
    .action(async (gameId: string | undefined, opts: DefsOptions) => {
      const { run } = await import('./defs.js');
      await run(factory, { gameId }, opts);
    });

  addScopeOptions(
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
    .option(
      '--started',
      'only the quests the user has started, as the service lists them (no Not Started rows from the definitions)',
    )
    .addHelpText(
      'after',
      `\n${PROGRESS_HELP}\n\nExamples:\n  $ udcli achievements list ${EXAMPLE_UID}\n  $ udcli achievements list ${EXAMPLE_UID} --started\n  $ udcli achievements list ${EXAMPLE_UID} --filter state --match Completed --order completed_date`,
    )
    .action(async (uid: string, opts: ListOptions) => {
      const { run } = await import('./list.js');
      await run(factory, { uid }, opts);
    });

  // inc, set, reset, delete: one declaration each in src/cli/changes/ (the change registry).
  await registerChanges(ach, factory);
}
