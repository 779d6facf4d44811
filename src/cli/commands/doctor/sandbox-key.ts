/**
 * When a key is refused by a sandbox, why: it is not one of the keys of what the sandbox holds
 * (issue 23). Asked of the sandbox's `GET /_sandbox/contents` (keys redacted there, as
 * here); undefined when the server is not a sandbox or the key is one of its keys after all.
 */
import { redact } from '../../../redact.js';
import { sandboxContentsAt } from '../../../client/sandbox-admin.js';

export async function keyNotInSandbox(baseUrl: string, apiKey: string): Promise<string | undefined> {
  // Read bounded and shape-checked: whatever answers at the URL may not be a sandbox.
  const contents = await sandboxContentsAt(baseUrl);
  if (contents === undefined) return undefined;
  const shown = redact(apiKey.toLowerCase());
  if (contents.games.some((g) => g.keys.some((k) => k.api_key === shown))) return undefined;
  const games =
    contents.games
      .map((g) => g.id)
      .slice(0, 10)
      .join(', ') || 'none';
  const demo = contents.origin.kind === 'demo';
  return `it is not a key of this sandbox, which holds ${contents.origin.text} (games ${games}): use one of its keys (udcli sandbox info)${demo ? '' : ', or put the demo back (udcli sandbox reset --seed demo)'}`;
}
