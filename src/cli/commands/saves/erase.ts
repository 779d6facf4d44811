import { savePreview, tracedSaveChange } from '../../../audit/saves.js';
import type { Factory } from '../../../ops/factory.js';
import { parseUserBeforeKey, printItem, userLabel } from '../../../ops/args.js';
import { confirmMutation } from '../../../ops/safety.js';
import { checkSaved, givenAuthToken, missingAuthToken, notSaved, parseSaveKey, readSave } from '../../../ops/saves.js';
import { resolveUid } from '../../../ops/users.js';
import { canAsk, confirmOrRequireYes } from '../../../runtime/prompt.js';
import { eraseResultColumns } from './columns.js';
import type { ChangeOptions } from './index.js';
import { autoAuthToken } from './token.js';

export async function run(factory: Factory, args: { uid: string; key: string }, opts: ChangeOptions): Promise<void> {
  const user = parseUserBeforeKey(args.uid, args.key, 'key', 'saves erase');
  const key = parseSaveKey(args.key);
  const given = givenAuthToken(opts.authToken, factory.io.env);
  const settings = await factory.settings();
  if (!given && settings.production) throw missingAuthToken(userLabel(user));
  const { yes } = factory.globals();
  const what = `erase save ${key} of user ${userLabel(user)}`;
  // Where udcli cannot ask, it needs --yes before it sends anything, even the read below.
  if (!yes && !canAsk(factory.io)) await confirmOrRequireYes(factory.io, '', { yes, what });
  const client = await factory.client();
  const uid = await resolveUid(client, user);
  // Only a value that exists is worth asking about; the erase of nothing is a 404 either way.
  if (!yes) {
    const current = await readSave(client, uid, key);
    if (current === null) throw notSaved(uid, key);
    if (settings.production) await confirmMutation(factory, settings, `${what} (${savePreview(current)})`);
    else await confirmOrRequireYes(factory.io, `Erase save ${key} of user ${uid} (${savePreview(current)})?`, { yes, what });
  } else {
    await confirmMutation(factory, settings, what);
  }
  const token = given ?? (await autoAuthToken(factory, settings, client, uid));
  const out = await factory.output();
  const reply = await out.spin(`Erasing ${key}`, () =>
    tracedSaveChange(factory, settings, client, uid, key, { action: 'erase' }, token.how !== 'sandbox', async () =>
      checkSaved(await client.eraseGame(uid, key, token.token), `erase ${key}`),
    ),
  );
  await printItem(factory, reply, eraseResultColumns(key));
}
