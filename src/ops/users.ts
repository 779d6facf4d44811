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
