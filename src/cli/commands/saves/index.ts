/**
 * `udcli saves list|get`, and the changes declared in src/cli/changes/saves-*.ts: a player's game saves (SERVICE.md:
 * Game saves).
 */
import type { Command } from 'commander';
import type { Factory } from '../../../ops/factory.js';
import { EXAMPLE_UID } from '../../batch-help.js';
import { registerChanges } from '../../change-registry.js';

export type { ChangeOptions } from '../../../batch/changes/saves.js';

export async function register(program: Command, factory: Factory): Promise<void> {
  const saves = program
    .command('saves')
    .description("A player's game saves in the profile's game: list, read, save, erase")
    .addHelpText('after', `\nExample:\n  $ udcli saves list ${EXAMPLE_UID}`);

  saves
    .command('list')
    .description('Every save of the user in the game (KEY, SIZE and the start of each VALUE; JSON: {key: value})')
    .argument('<user>', 'a uid (32 hex digits) or a username')
    .addHelpText('after', `\nExamples:\n  $ udcli saves list ${EXAMPLE_UID}\n  $ udcli saves list demo_player --json`)
    .action(async (uid: string) => {
      const { run } = await import('./list.js');
      await run(factory, { uid });
    });

  saves
    .command('get')
    .description('The saved value: pretty-printed when it is JSON, as saved otherwise; exit 4 when nothing is saved')
    .argument('<user>', 'a uid (32 hex digits) or a username')
    .argument('<key>', 'the save: 1 to 64 of A-Z a-z 0-9 _ . -')
    .addHelpText(
      'after',
      `\n-o json prints the value as JSON (a JSON string when it is not JSON).\n\nExamples:\n  $ udcli saves get ${EXAMPLE_UID} slot1\n  $ udcli saves get ${EXAMPLE_UID} slot1 > slot1.json`,
    )
    .action(async (uid: string, key: string) => {
      const { run } = await import('./get.js');
      await run(factory, { uid, key });
    });

  // set, erase: one declaration each in src/cli/changes/ (the change registry).
  await registerChanges(saves, factory);
}
