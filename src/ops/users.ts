/** A user argument made a uid: a uid as it is, a username with one lookup (shown by --verbose). */
import type { ApiClient } from '../client/types.js';
import { PUBLIC_USER_FIELDS } from '../domain/contract.js';
import { normalizeHex32 } from '../domain/ids.js';
import { MalformedReplyError } from '../errors.js';
import type { UserArg } from './args.js';

export async function resolveUid(client: ApiClient, user: UserArg): Promise<string> {
  if ('uid' in user) return user.uid;
  // An unknown name is the service's 404 (`not found: user named …`, exit 4).
  const reply = await client.getUser(user.username, { byUsername: true });
  const uid = normalizeHex32(String(reply.payload?.uid ?? ''));
  if (!uid)
    throw new MalformedReplyError(`the user lookup for ${JSON.stringify(user.username)} answered without a uid`);
  return uid;
}

const PUBLIC_REPLY: ReadonlySet<string> = new Set([...PUBLIC_USER_FIELDS, 'plays_game']);

/** True when a user sent with an api key came back reduced to the public fields: the key was not accepted. */
export function keyRefusedOnUser(payload: object): boolean {
  return Object.keys(payload).every((field) => PUBLIC_REPLY.has(field));
}
