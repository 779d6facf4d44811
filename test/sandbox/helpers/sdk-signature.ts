/**
 * The platform SDK's signature (Signing 3), reply and challenge loop as docs/PLATFORM.md states them, written
 * from that page and nothing of udcli, so the tests that drive the sandbox the SDK's way check udcli's own formula.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

/** Who the SDK tests play as: demo_player, game 1001, its key in upper-case UUID form (as the SDK's examples). */
export const SDK_DEMO = {
  PLAYER: '01e528d59829836fd23b09085b56edab',
  API_KEY: '01234567-89AB-CDEF-0123-456789ABCDEF',
  GAME: '1001',
} as const;

export interface SdkReply {
  status: number;
  code: number;
  message: string;
  // biome-ignore lint/suspicious/noExplicitAny: what the SDK hands its callback, unparsed
  payload: any;
}

/** docs/PLATFORM.md, Errors: any status outside 2xx is a failure, and so is code 200 with a null payload. */
export const sdkSucceeded = (r: SdkReply) =>
  r.status >= 200 && r.status < 300 && r.payload !== null && r.payload !== undefined;

/** The SDK's challenge loop: unsigned first; on a 401 challenge, up to 3 signed retries, 100 ms × attempt apart. */
export async function sdkChallenged(
  unsigned: () => Promise<SdkReply>,
  signed: (session: string, key: string) => Promise<SdkReply>,
): Promise<SdkReply> {
  let reply = await unsigned();
  for (
    let attempt = 1;
    attempt <= 3 && reply.status === 401 && reply.payload?.session && reply.payload?.key;
    attempt++
  ) {
    await sleep(100 * attempt);
    const { session, key } = reply.payload as { session: string; key: string };
    reply = await signed(session, key);
  }
  return reply;
}

/**
 * Query values but sig and session, Shield2, the session, the key, the body's values, the file name: sorted, joined,
 * lower-cased, MD5.
 */
export function sdkSig(
  path: string,
  query: Record<string, string>,
  session: string,
  key: string,
  body: Record<string, string> = {},
): string {
  const values = Object.entries(query)
    .filter(([name]) => name !== 'sig' && name !== 'session')
    .map(([, value]) => String(value));
  values.push('Shield2', session, key, ...Object.values(body).map(String), path.slice(path.lastIndexOf('/') + 1));
  return createHash('md5').update(values.sort().join('').toLowerCase()).digest('hex');
}
