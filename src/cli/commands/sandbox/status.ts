/** `udcli sandbox status`: is the recorded sandbox running? Not running is an error (exit 1). */
import { UdcliError } from '../../../errors.js';
import { pidFilePath } from '../../../sandbox/paths.js';
import type { Factory } from '../../../ops/factory.js';
import { jsonText, printableFields } from '../../../printable.js';
import type { PresentedContents } from '../../../sandbox/routes/contents.js';
import { sandboxContents } from './contents.js';
import { wantsJson } from './json.js';
import { sandboxState, type PidRecord } from './pidfile.js';

function printText(stdout: NodeJS.WritableStream, r: PidRecord, contents: PresentedContents | undefined): void {
  stdout.write(`running at ${r.url} (pid ${r.pid}${r.detached ? ', detached' : ''}, since ${r.startedAt})\ndatabase ${r.db}\n`);
  if (r.gameUrl !== undefined) stdout.write(`games served from ${r.gameUrl}\n`);
  if ((r.latencyMs ?? 0) > 0) stdout.write(`latency ${r.latencyMs} ms on every /services/rest reply\n`);
  if (contents) {
    const more = (list: string[], n: number) => (n > list.length ? `${list.join(', ')}, … (${n.toLocaleString('en-US')} in all)` : list.join(', ') || 'none');
    stdout.write(`holds ${contents.origin.text}\n`);
    stdout.write(`games ${contents.games.map((g) => `${g.id} ${g.name} (key ${g.keys.find((k) => !k.partner)?.api_key ?? 'none'})`).join(', ') || 'none'}\n`);
    stdout.write(`users ${more(contents.users.map((u) => u.username), contents.user_count)}\n`);
  }
}

export async function statusCommand(factory: Factory, raw: { json?: boolean }): Promise<void> {
  const { stdout, env } = factory.io;
  const current = await sandboxState(env);
  if (current.state === 'running') {
    const r = current.record;
    const contents = await sandboxContents(r.db, r.url);
    if (wantsJson(factory, raw.json)) {
      const holds = contents ? { holds: contents.origin, games: contents.games, users: contents.users, user_count: contents.user_count } : {};
      stdout.write(`${jsonText({ running: true, pid: r.pid, url: r.url, game_url: r.gameUrl ?? null, port: r.port, host: r.host, db: r.db, started_at: r.startedAt, detached: r.detached, log: r.log ?? null, latency_ms: r.latencyMs ?? 0, ...holds }, 2)}\n`);
    } else {
      // Every field through printable(): game names and usernames come from a data file.
      printText(stdout, printableFields(r), printableFields(contents));
    }
    return;
  }
  // A script asking for JSON gets JSON either way (running: true with responding: false means
  // the recorded process is alive but does not answer); the exit code says it is not usable.
  if (wantsJson(factory, raw.json)) {
    const r = current.state === 'unresponsive' ? current.record : null;
    stdout.write(`${jsonText({ running: r !== null, responding: false, pid: r?.pid ?? null, url: r?.url ?? null }, 2)}\n`);
  }
  if (current.state === 'unresponsive') {
    throw new UdcliError(`the sandbox (pid ${current.record.pid}) does not answer at ${current.record.url}`, {
      hint: `if the process is not a sandbox any more, delete ${pidFilePath(env)}`,
    });
  }
  throw new UdcliError('the sandbox is not running', { hint: 'start it with: udcli sandbox start --detach' });
}
