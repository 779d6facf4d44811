import type { Factory } from '../../../ops/factory.js';
import { parseUserRef, printItem } from '../../../ops/args.js';
import { USER_COLUMNS } from './columns.js';
import type { UserOptions } from './index.js';

export async function run(factory: Factory, args: { ref: string }, opts: UserOptions): Promise<void> {
  const ref = parseUserRef(args.ref, opts.username === true);
  const client = await factory.client();
  const out = await factory.output();
  const reply = await out.spin('Looking up user', () =>
    ref.kind === 'uid'
      ? client.getUser(ref.uid, { publicOnly: opts.public === true })
      : client.getUser(ref.username, { byUsername: true, publicOnly: opts.public === true }),
  );
  await printItem(factory, reply, USER_COLUMNS);
}
