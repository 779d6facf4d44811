/** `udcli achievements defs|list`, and the changes declared in src/cli/changes/achievements-*.ts. */
import type { Command } from 'commander';
import type { Factory } from '../../../ops/factory.js';
import { EXAMPLE_UID, batchExample } from '../../batch-help.js';
import { registerChanges } from '../../change-registry.js';
import { SCOPE_VERB_OPTIONS, type ScopeOptions } from '../../scope-options.js';
import { addVerb, examplesText, type Verb } from '../../verb.js';
import type { DefsOptions } from './defs.js';
import type { ListOptions } from './list.js';

export type TargetOptions = ScopeOptions;

/**
 * The PROGRESS column, explained: its percentage is the platform's, counted from the quest's
 * start, so `4/10 (33%)` alone reads as wrong (issue 54).
 */
const PROGRESS_HELP =
  "PROGRESS: the current value out of the target, and the percentage as the platform computes it, counted from the quest's start: floor(100 × (current − start) / (target − start)). A quest that starts above 0 shows its start first: `1 → 4/10 (33%)` is 3 of its 9 steps done. The start comes from the game's definitions, which the whole list reads; with --started, --filter, --limit or --offset see udcli achievements defs (START).";

export const ACHIEVEMENTS: Verb = {
  name: 'achievements',
  description: 'Achievement definitions and user progress',
  after: `\nExamples:\n  $ udcli achievements list ${EXAMPLE_UID}\n${batchExample('achievements reset', 'LEVEL_10')}`,
  verbs: [
    {
      name: 'defs',
      description: "List a game's achievement definitions",
      arguments: [['[game_id]', "the game (default: the profile's game_id)"]],
      options: [
        ['--aid <n>', 'one achievement by its numeric id'],
        ['--developer-id <key>', 'one achievement by its developer_id'],
        ['--type <type>', 'Game or Website (default Game)'],
      ],
      examples: ['udcli achievements defs 1001', 'udcli achievements defs --developer-id FIRST_WIN --json'],
      run: async (factory, gameId: string | undefined, opts: DefsOptions) =>
        (await import('./defs.js')).run(factory, { gameId }, opts),
    },
    {
      name: 'list',
      description: "List a user's achievement progress",
      arguments: [['<user>', 'a uid (32 hex digits) or a username']],
      options: [
        ...SCOPE_VERB_OPTIONS,
        ['--developer-id <key>', 'only this achievement'],
        ['--limit <n>', 'at most this many, 1 to 1000 (server default 100)'],
        ['--offset <n>', 'skip this many first'],
        ['--order <field>', 'started_date, completed_date, state, parent_id, percent_complete or name'],
        ['--sort <dir>', 'asc or desc'],
        ['--filter <field>', 'parent, name, percent_complete, state or parent_id (with --match)'],
        ['--match <value>', 'value for --filter, e.g. --filter percent_complete --match ">=50"'],
        ['--all', 'every record, fetched 1000 at a time'],
        [
          '--started',
          'only the quests the user has started, as the service lists them (no Not Started rows from the definitions)',
        ],
      ],
      after: `\n${PROGRESS_HELP}\n${examplesText([
        `udcli achievements list ${EXAMPLE_UID}`,
        `udcli achievements list ${EXAMPLE_UID} --started`,
        `udcli achievements list ${EXAMPLE_UID} --filter state --match Completed --order completed_date`,
      ])}`,
      run: async (factory, uid: string, opts: ListOptions) => (await import('./list.js')).run(factory, { uid }, opts),
    },
  ],
};

export async function register(program: Command, factory: Factory): Promise<void> {
  // inc, set, reset, delete: one declaration each in src/cli/changes/ (the change registry).
  await registerChanges(addVerb(program, factory, ACHIEVEMENTS), factory);
}
