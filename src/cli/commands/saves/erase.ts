import { savePreview } from '../../../audit/saves.js';
import { runChange } from '../../../batch/change.js';
import type { Factory } from '../../../ops/factory.js';
import { printItem } from '../../../ops/args.js';
import { checkSaved, notSaved } from '../../../ops/saves.js';
import { saveChange } from './change.js';
import { eraseResultColumns } from './columns.js';
import type { ChangeOptions } from './index.js';

/** `saves erase`: signed; asks first, showing the value it erases; nothing saved is a 404 without sending. */
export const eraseChange = saveChange({
  action: 'erase',
  change: async (_factory, _args: { uid: string; key: string }) => ({ action: 'erase' as const }),
  confirm: ({ key }, who) => `erase save ${key} of ${who}`,
  // Only a value that exists is worth asking about; the erase of nothing is a 404 either way.
  ask: { what: ({ key }) => `Erase save ${key}`, loss: (current) => (current === null ? null : savePreview(current)), absent: (uid, { key }) => notSaved(uid, key) },
  spin: (key) => `Erasing ${key}`,
  perform: async (client, uid, { key }, token) => checkSaved(await client.eraseGame(uid, key, token), `erase ${key}`),
  printer: (factory) => (reply, { key }) => printItem(factory, reply, eraseResultColumns(key)),
});

export async function run(factory: Factory, args: { uid: string; key: string }, opts: ChangeOptions): Promise<void> {
  await runChange(factory, eraseChange, args, opts);
}
