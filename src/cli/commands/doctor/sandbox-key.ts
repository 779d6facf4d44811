/**
 * When a key is refused by a sandbox, why: it is not one of the keys of what the sandbox holds
 * (issue 23). Asked of the sandbox's `GET /_sandbox/contents` (keys redacted there, as
 * here); undefined when the server is not a sandbox or the key is one of its keys after all.
 */
import { redact } from '../../../redact.js';

interface Contents {
  origin: { kind: string; text: string };
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
  const demo = contents.origin.kind === 'demo';
  return `it is not a key of this sandbox, which holds ${contents.origin.text} (games ${games}): use one of its keys (udcli sandbox info)${demo ? '' : ', or put the demo back (udcli sandbox reset --seed demo)'}`;
}
