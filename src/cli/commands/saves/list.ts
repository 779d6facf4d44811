import type { Factory } from '../../../ops/factory.js';
import { parseUserArg } from '../../../ops/args.js';
import { resolveUid } from '../../../ops/users.js';
import { SAVE_COLUMNS, saveRows } from '../../../ops/columns/saves.js';

export async function run(factory: Factory, args: { uid: string }): Promise<void> {
  const user = parseUserArg(args.uid, 'uid', 'saves list');
  const client = await factory.client();
  const uid = await resolveUid(client, user);
  const out = await factory.output();
  const reply = await out.spin('Fetching saves', () => client.getSaves(uid));
  if (factory.globals().raw) out.raw(reply.bodyText);
  // JSON is the payload as the service sent it: {key: value, ...}.
  else if (out.format === 'json') out.item(reply.payload, []);
  else await out.list(saveRows(reply.payload), SAVE_COLUMNS);
}
