/** `udcli sandbox snapshot save|restore|list|delete`; the handlers are in snapshot.ts. */
import type { SnapshotOptions } from './snapshot.js';
import type { Verb } from '../../verb.js';
import { DB, JSON_OPTION } from './verb-options.js';

/** `snapshot save` and `snapshot restore`: a NAME, the database, and the handler of the same name. */
function snapshotVerb(name: 'save' | 'restore', description: string, nameHelp: string): Verb {
  return {
    name,
    description,
    examples: [`udcli sandbox snapshot ${name} before-test`],
    arguments: [['<name>', nameHelp]],
    options: [DB],
    run: async (factory, snapshotName: string, opts: SnapshotOptions) =>
      (await import('./snapshot.js'))[`${name}Command`](factory, snapshotName, opts),
  };
}

export const SNAPSHOT: Verb = {
  name: 'snapshot',
  description: 'Save the sandbox database under a name, restore it, list or delete snapshots',
  examples: [
    'udcli sandbox snapshot save before-test',
    'udcli sandbox snapshot restore before-test',
    'udcli sandbox snapshot list',
  ],
  verbs: [
    snapshotVerb(
      'save',
      'Save the database as snapshot NAME (an existing one of that name is replaced only once the new one is complete)',
      'letters, digits, - _ .',
    ),
    snapshotVerb(
      'restore',
      'Put the database back to snapshot NAME (one transaction; a running sandbox sees it at once)',
      'a saved snapshot',
    ),
    {
      name: 'list',
      description: 'List the saved snapshots',
      examples: ['udcli sandbox snapshot list --json'],
      options: [JSON_OPTION],
      run: async (factory, opts: SnapshotOptions) => (await import('./snapshot.js')).listCommand(factory, opts),
    },
    {
      name: 'delete',
      description: 'Delete snapshot NAME',
      examples: ['udcli sandbox snapshot delete before-test'],
      arguments: [['<name>', 'a saved snapshot']],
      run: async (factory, name: string) => (await import('./snapshot.js')).deleteCommand(factory, name),
    },
  ],
};
