import { tracedSaveChange } from '../../../audit/saves.js';
import type { Factory } from '../../../ops/factory.js';
import { parseUserBeforeKey, printItem, userLabel } from '../../../ops/args.js';
import { isJsonText } from '../../../ops/json-text.js';
import { confirmMutation } from '../../../ops/safety.js';
import { checkSaved, givenAuthToken, missingAuthToken, parseSaveKey, readSaveValue, saveBytes } from '../../../ops/saves.js';
import { resolveUid } from '../../../ops/users.js';
import { SAVE_RESULT_COLUMNS } from './columns.js';
import type { ChangeOptions } from './index.js';
import { autoAuthToken } from './token.js';

export async function run(factory: Factory, args: { uid: string; key: string; value: string }, opts: ChangeOptions): Promise<void> {
  const user = parseUserBeforeKey(args.uid, args.key, 'key', 'saves set');
  const key = parseSaveKey(args.key);
  const given = givenAuthToken(opts.authToken, factory.io.env);
  const { value } = await readSaveValue(args.value, factory.io.stdin);
  const settings = await factory.settings();
  if (!given && settings.production) throw missingAuthToken(userLabel(user));
  await confirmMutation(factory, settings, `save ${key} of user ${userLabel(user)} (${saveBytes(value)} bytes)`);
  const client = await factory.client();
  const uid = await resolveUid(client, user);
  const token = given ?? (await autoAuthToken(factory, settings, client, uid));
  const out = await factory.output();
  const reply = await out.spin(`Saving ${key}`, () =>
    tracedSaveChange(factory, settings, client, uid, key, { action: 'set', value, valueArg: args.value }, token.how !== 'sandbox', async () =>
      checkSaved(await client.saveGame(uid, key, value, token.token), `save ${key}`),
    ),
  );
  if (!isJsonText(value)) out.info("Note:    the value is not JSON; the platform's SDK (retrieveGame) reads such a save back as false");
  await printItem(factory, reply, SAVE_RESULT_COLUMNS);
}
