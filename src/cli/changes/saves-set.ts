/** `saves set`: signed POST of the value under the key (creates or replaces). */
import { defineChange } from '../change-registry.js';
import { TOKEN_HELP, TOKEN_OPTION } from '../commands/saves/options.js';

export default defineChange({
  command: 'saves set',
  order: 1,
  description: 'Save a value under a key (creates or replaces; signed POST, the value in the form body)',
  arguments: [
    { name: 'key', key: 'key', description: 'the save: 1 to 64 of A-Z a-z 0-9 _ . -' },
    {
      name: 'value',
      key: 'value',
      description: 'the value itself, @FILE to read a file, or - to read standard input (at most 256 KiB)',
    },
  ],
  options: [TOKEN_OPTION],
  about: `
Prints what changed and the command that undoes it, and appends a line to the audit log. The
undo restores the earlier value (or erases the key when there was none); an earlier value too
long for a command line (over 200 characters, several lines, or starting with @ or -) is
written to a file (mode 0600) under the config directory's saves-undo/, and the undo names it
as @FILE.
${TOKEN_HELP}
`,
  examples: [
    `UID slot1 '{"level":3}'`,
    'UID slot1 @slot1.json',
    { line: 'jq -c . slot1.json | udcli saves set UID slot1 -' },
  ],
  batchExample: 'slot1 @slot1.json',
  async type() {
    const [
      { saveChange },
      { printItem },
      { isJsonText },
      { checkSaved, readSaveValue, saveBytes },
      { SAVE_RESULT_COLUMNS },
      { UsageError },
    ] = await Promise.all([
      import('../../batch/changes/saves.js'),
      import('../../ops/args.js'),
      import('../../ops/json-text.js'),
      import('../../ops/saves.js'),
      import('../../ops/columns/saves.js'),
      import('../../errors.js'),
    ]);
    return saveChange({
      action: 'set',
      change: async (factory, args: { uid: string; key: string; value: string }) => {
        // Standard input is read once: for the users (@-) or for the value (-), not both.
        if (args.uid.trim() === '@-' && args.value.trim() === '-')
          throw new UsageError('@- and - both read standard input: give the users or the value as @FILE');
        const { value } = await readSaveValue(args.value, factory.io.stdin);
        return { action: 'set' as const, value, valueArg: args.value };
      },
      confirm: ({ key, change }, who) => `save ${key} of ${who} (${saveBytes(change.value)} bytes)`,
      label: ({ key, change }) => `save ${key} (${saveBytes(change.value)} bytes)`,
      spin: (key) => `Saving ${key}`,
      perform: async (client, uid, { key, change }, token) =>
        checkSaved(await client.saveGame(uid, key, change.value, token), `save ${key}`),
      printer:
        (factory) =>
        async (reply, { change }) => {
          const out = await factory.output();
          if (!isJsonText(change.value))
            out.info(
              "Note:    the value is not JSON; the platform's SDK (retrieveGame) reads such a save back as false",
            );
          await printItem(factory, reply, SAVE_RESULT_COLUMNS);
        },
    });
  },
});
