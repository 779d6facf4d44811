/**
 * `udcli saves list|get`, and the changes declared in src/cli/changes/saves-*.ts: a player's game saves (SERVICE.md:
 * Game saves).
 */
import type { Command } from 'commander';
import type { Factory } from '../../../ops/factory.js';
import { EXAMPLE_UID } from '../../batch-help.js';
import { registerChanges } from '../../change-registry.js';
import { addVerb, examplesText, type Verb } from '../../verb.js';

export type { ChangeOptions } from '../../../batch/changes/saves.js';

export const SAVES: Verb = {
  name: 'saves',
  description: "A player's game saves in the profile's game: list, read, save, erase",
  after: `\nExample:\n  $ udcli saves list ${EXAMPLE_UID}`,
  verbs: [
    {
      name: 'list',
      description: 'Every save of the user in the game (KEY, SIZE and the start of each VALUE; JSON: {key: value})',
      arguments: [['<user>', 'a uid (32 hex digits) or a username']],
      examples: [`udcli saves list ${EXAMPLE_UID}`, 'udcli saves list demo_player --json'],
      run: async (factory, uid: string) => (await import('./list.js')).run(factory, { uid }),
    },
    {
      name: 'get',
      description: 'The saved value: pretty-printed when it is JSON, as saved otherwise; exit 4 when nothing is saved',
      arguments: [
        ['<user>', 'a uid (32 hex digits) or a username'],
        ['<key>', 'the save: 1 to 64 of A-Z a-z 0-9 _ . -'],
      ],
      after: `\n-o json prints the value as JSON (a JSON string when it is not JSON).\n${examplesText([
        `udcli saves get ${EXAMPLE_UID} slot1`,
        `udcli saves get ${EXAMPLE_UID} slot1 > slot1.json`,
      ])}`,
      run: async (factory, uid: string, key: string) => (await import('./get.js')).run(factory, { uid, key }),
    },
  ],
};

export async function register(program: Command, factory: Factory): Promise<void> {
  // set, erase: one declaration each in src/cli/changes/ (the change registry).
  await registerChanges(addVerb(program, factory, SAVES), factory);
}
