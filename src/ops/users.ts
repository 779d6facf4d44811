/** A user argument made a uid: a uid as it is, a username with one lookup (shown by --verbose). */
import type { ApiClient } from '../client/types.js';
import { normalizeHex32 } from '../domain/ids.js';
import { MalformedReplyError } from '../errors.js';
import type { UserArg } from './args.js';

export async function resolveUid(client: ApiClient, user: UserArg): Promise<string> {
  if ('uid' in user) return user.uid;
  // An unknown name is the service's 404 (`not found: user named …`, exit 4).
  const reply = await client.getUser(user.username, { byUsername: true });
  const uid = normalizeHex32(String(reply.payload?.uid ?? ''));
  if (!uid) throw new MalformedReplyError(`the user lookup for ${JSON.stringify(user.username)} answered without a uid`);
  return uid;
}

/**
 * What the users service answers to anyone (spec 2.4 and 4.5): without a valid api_key the user
 * is reduced to these (plays_game too, where it applies). It never fails on a bad key (contract:
 * "never fails on a bad or missing api_key"), so this reply is the only sign a key was refused.
 */
export const PUBLIC_USER_FIELDS: ReadonlySet<string> = new Set(['uid', 'username', 'avatar', 'plays_game']);

/** True when a user sent with an api key came back reduced to the public fields: the key was not accepted. */
export function keyRefusedOnUser(payload: object): boolean {
  return Object.keys(payload).every((field) => PUBLIC_USER_FIELDS.has(field));
}
