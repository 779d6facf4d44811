/** `udcli sandbox info [--json]`: URLs, the demo credentials, users, developer_ids and SKUs. */
import { DEFAULT_SANDBOX_URL } from '../../../domain/demo.js';
import { defaultDatabasePath } from '../../../sandbox/paths.js';
import type { Factory } from '../../../ops/factory.js';
import { describeSandbox, describeText } from './describe.js';
import { wantsJson } from './json.js';
import { sandboxState } from './pidfile.js';

export async function infoCommand(factory: Factory, raw: { json?: boolean }): Promise<void> {
  const { stdout, env } = factory.io;
  const current = await sandboxState(env);
  const running = current.state === 'running' ? current.record : null;
  const description = describeSandbox(running?.url ?? DEFAULT_SANDBOX_URL, running?.db ?? defaultDatabasePath(env), running);
  stdout.write(wantsJson(factory, raw.json) ? `${JSON.stringify(description, null, 2)}\n` : describeText(description));
}
