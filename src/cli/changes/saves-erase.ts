/** `saves erase`: signed; asks first, showing the value it erases; nothing saved is a 404 without sending. */
import { defineChange } from '../change-registry.js';
import { TOKEN_HELP, TOKEN_OPTION } from '../commands/saves/options.js';

export default defineChange({
  command: 'saves erase',
  order: 2,
  description: 'Erase a save (signed; asks first on a terminal, needs --yes where it cannot ask)',
  arguments: [{ name: 'key', key: 'key', description: 'the save' }],
  options: [TOKEN_OPTION],
  about: `\nThe undo saves the erased value again.\n${TOKEN_HELP}\n`,
  examples: ['UID slot1 --yes'],
  batchExample: 'slot1 --yes',
  async type() {
    const [{ saveChange }, { savePreview }, { printItem }, { checkSaved, notSaved }, { eraseResultColumns }] =
      await Promise.all([
        import('../../batch/changes/saves.js'),
        import('../../audit/saves.js'),
        import('../../ops/args.js'),
        import('../../ops/saves.js'),
        import('../../ops/columns/saves.js'),
      ]);
    return saveChange({
      action: 'erase',
      change: async (_factory, _args: { uid: string; key: string }) => ({ action: 'erase' as const }),
      confirm: ({ key }, who) => `erase save ${key} of ${who}`,
      label: ({ key }) => `erase save ${key}`,
      // Only a value that exists is worth asking about; the erase of nothing is a 404 either way.
      ask: {
        what: ({ key }) => `Erase save ${key}`,
        loss: (current) => (current === null ? null : savePreview(current)),
        absent: (uid, { key }) => notSaved(uid, key),
      },
      spin: (key) => `Erasing ${key}`,
      perform: async (client, uid, { key }, token) =>
        checkSaved(await client.eraseGame(uid, key, token), `erase ${key}`),
      printer:
        (factory) =>
        (reply, { key }) =>
          printItem(factory, reply, eraseResultColumns(key)),
    });
  },
});
