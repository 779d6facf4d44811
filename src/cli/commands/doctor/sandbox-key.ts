/**
 * When a key is refused by a sandbox, why: the key is not one of the keys of what the sandbox
 * holds (issue 23). Asked of the sandbox's `GET /_sandbox/contents` (keys redacted there, as
 * here); undefined when the server is not a sandbox or the key is one of its keys after all.
 */
import { redact } from '../../../redact.js';

interface Contents {
  origin: { text: string };
  games: Array<{ id: string; keys: Array<{ api_key: string }> }>;
}

export async function keyNotInSandbox(baseUrl: string, apiKey: string): Promise<string | undefined> {
  let contents: Contents;
  try {
    const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/_sandbox/contents`, { signal: AbortSignal.timeout(3_000) });
    if (!response.ok) return undefined;
    contents = (await response.json()) as Contents;
    if (typeof contents?.origin?.text !== 'string' || !Array.isArray(contents.games)) return undefined;
  } catch {
    return undefined;
  }
  const shown = redact(apiKey.toLowerCase());
  if (contents.games.some((g) => g.keys.some((k) => k.api_key === shown))) return undefined;
  const games = contents.games.map((g) => g.id).slice(0, 10).join(', ') || 'none';
  return `the profile's key ${redact(apiKey)} is not in this sandbox: it holds ${contents.origin.text} (games ${games}); use a key of that data (udcli config set api_key KEY), or put the demo back (udcli sandbox reset --seed demo)`;
}
