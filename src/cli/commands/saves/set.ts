import { runChange } from '../../../batch/change.js';
import type { Factory } from '../../../ops/factory.js';
import { printItem } from '../../../ops/args.js';
import { isJsonText } from '../../../ops/json-text.js';
import { checkSaved, readSaveValue, saveBytes } from '../../../ops/saves.js';
import { saveChange } from './change.js';
import { SAVE_RESULT_COLUMNS } from './columns.js';
import type { ChangeOptions } from './index.js';

/** `saves set`: signed POST of the value under the key (creates or replaces). */
export const setChange = saveChange({
  action: 'set',
  change: async (factory, args: { uid: string; key: string; value: string }) => ({ action: 'set' as const, value: (await readSaveValue(args.value, factory.io.stdin)).value, valueArg: args.value }),
  confirm: ({ key, change }, who) => `save ${key} of ${who} (${saveBytes(change.value)} bytes)`,
  spin: (key) => `Saving ${key}`,
  perform: async (client, uid, { key, change }, token) => checkSaved(await client.saveGame(uid, key, change.value, token), `save ${key}`),
  printer: (factory) => async (reply, { change }) => {
    const out = await factory.output();
    if (!isJsonText(change.value)) out.info("Note:    the value is not JSON; the platform's SDK (retrieveGame) reads such a save back as false");
    await printItem(factory, reply, SAVE_RESULT_COLUMNS);
  },
});

export async function run(factory: Factory, args: { uid: string; key: string; value: string }, opts: ChangeOptions): Promise<void> {
  await runChange(factory, setChange, args, opts);
}
