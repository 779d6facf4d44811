/** `udcli sandbox info [--json]`: URLs, what the sandbox holds, and its credentials and users (the demo's, or a data file's). */
import { DEFAULT_SANDBOX_URL } from '../../../domain/demo.js';
import { defaultDatabasePath } from '../../../sandbox/paths.js';
import type { Factory } from '../../../ops/factory.js';
import { jsonText } from '../../../printable.js';
import { sandboxContents } from './contents.js';
import { describeSandbox, describeText } from './describe.js';
import { wantsJson } from './json.js';
import { sandboxState } from './pidfile.js';

export async function infoCommand(factory: Factory, raw: { json?: boolean }): Promise<void> {
  const { stdout, env } = factory.io;
  const current = await sandboxState(env);
  const running = current.state === 'running' ? current.record : null;
  const dbPath = running?.db ?? defaultDatabasePath(env);
  const contents = await sandboxContents(dbPath, running?.url);
  const description = describeSandbox(running?.url ?? DEFAULT_SANDBOX_URL, dbPath, running, contents);
  stdout.write(wantsJson(factory, raw.json) ? `${jsonText(description, 2)}\n` : describeText(description));
}
