import type { Factory } from '../../../ops/factory.js';
import { parseUserRef, printItem } from '../../../ops/args.js';
import { keyRefusedOnUser } from '../../../ops/users.js';
import { redact } from '../../../redact.js';
import { sourceLabel } from '../profile/show.js';
import { USER_COLUMNS } from './columns.js';

export interface UserOptions {
  username?: boolean;
  public?: boolean;
}

export async function run(factory: Factory, args: { ref: string }, opts: UserOptions): Promise<void> {
  const ref = parseUserRef(args.ref, opts.username === true);
  const client = await factory.client();
  const out = await factory.output();
  const publicOnly = opts.public === true;
  const reply = await out.spin('Looking up user', () =>
    ref.kind === 'uid'
      ? client.getUser(ref.uid, { publicOnly })
      : client.getUser(ref.username, { byUsername: true, publicOnly }),
  );
  // The users service answers a refused key with the public fields and no error: the exit stays
  // 0 (the platform answered), but a wrong key should not pass unnoticed until the first change.
  const settings = await factory.settings();
  if (!publicOnly && settings.apiKey && keyRefusedOnUser(reply.payload)) {
    const from = sourceLabel('api_key', settings.sources.api_key ?? 'profile');
    out.warn(
      `api_key ${redact(settings.apiKey)} (from ${from}, profile ${settings.profile}) was not accepted: the server answered with the public fields only`,
    );
  }
  await printItem(factory, reply, USER_COLUMNS);
}
