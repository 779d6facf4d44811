/**
 * The platform SDK's signature as docs/PLATFORM.md states it (Signing 3), written from that page and
 * nothing of udcli, so the tests that drive the sandbox the SDK's way check udcli's own formula.
 */
import { createHash } from 'node:crypto';

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
