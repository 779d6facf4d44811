/** `udcli sandbox status`: is the recorded sandbox running? Not running is an error (exit 1). */
import { UdcliError } from '../../../errors.js';
import { recordPath } from '../../../sandbox/paths.js';
import type { Factory } from '../../../ops/factory.js';
import { jsonText, printable, printableFields } from '../../../printable.js';
import type { PresentedContents } from '../../../sandbox/routes/contents.js';
import { sandboxContents } from './contents.js';
import { wantsJson } from './json.js';
import { commandFor, liveSandboxes, nameOf, namedSandboxState, type PidRecord, type SandboxState } from './pidfile.js';
import { listedText, parseSelection, selectedRecord, type RawSelection } from './select.js';
import { grouped } from '../../../domain/grouped.js';

/** Which game and key the built-in profile takes from this sandbox, and why (undefined: it keeps its own). */
async function builtInProfileGame(
  env: NodeJS.ProcessEnv,
): Promise<{ game_id: string | null; why: string } | undefined> {
  const [{ readConfig, resolveSettings, BUILT_IN_PROFILE }, { followBuiltIn }] = await Promise.all([
    import('../../../config/index.js'),
    import('../profile/show.js'),
  ]);
  try {
    const settings = resolveSettings({ profile: BUILT_IN_PROFILE }, env, readConfig(env).data);
    await followBuiltIn(settings, env);
    return settings.followed === undefined ? undefined : { game_id: settings.gameId ?? null, why: settings.followed };
  } catch {
    // A config file that cannot be read is doctor's to report; status still says the sandbox runs.
    return undefined;
  }
}

function printText(stdout: NodeJS.WritableStream, r: PidRecord, contents: PresentedContents | undefined): void {
  stdout.write(
    `running at ${r.url} (pid ${r.pid}${r.detached ? ', detached' : ''}, since ${r.startedAt})\ndatabase ${r.db}\n`,
  );
  if (r.gameUrl !== undefined) stdout.write(`games served from ${r.gameUrl}\n`);
  if ((r.latencyMs ?? 0) > 0) stdout.write(`latency ${r.latencyMs} ms on every /services/rest reply\n`);
  if (contents) {
    const more = (list: string[], n: number) =>
      n > list.length ? `${list.join(', ')}, … (${grouped(n)} in all)` : list.join(', ') || 'none';
    stdout.write(`holds ${contents.origin.text}\n`);
    stdout.write(
      `games ${contents.games.map((g) => `${g.id} ${g.name} (key ${g.keys.find((k) => !k.partner)?.api_key ?? 'none'})`).join(', ') || 'none'}\n`,
    );
    stdout.write(
      `users ${more(
        contents.users.map((u) => u.username),
        contents.user_count,
      )}\n`,
    );
  }
}

/** Several sandboxes run: one line each, with the command that shows it (issue 53). */
function printList(factory: Factory, live: SandboxState[], json: boolean): void {
  const { stdout, env } = factory.io;
  const records = live.map((s) => ({ ...(s as { record: PidRecord }).record, responding: s.state === 'running' }));
  if (json) {
    stdout.write(
      `${jsonText({ running: true, sandboxes: records.map((r) => ({ name: nameOf(r), pid: r.pid, url: r.url, port: r.port, db: r.db, detached: r.detached, log: r.log ?? null, responding: r.responding })) }, 2)}\n`,
    );
    return;
  }
  stdout.write(`${records.length} sandboxes are running:\n`);
  for (const r of records)
    stdout.write(
      `${printable(`  ${listedText(r)}${r.responding ? '' : ', does not answer'}: ${commandFor(env, 'status', r)}`)}\n`,
    );
}

export async function statusCommand(factory: Factory, raw: { json?: boolean } & RawSelection): Promise<void> {
  const { stdout, env } = factory.io;
  const selection = parseSelection(raw);
  let current: SandboxState;
  if (selection === undefined) {
    const live = await liveSandboxes(env);
    if (live.length > 1) return printList(factory, live, wantsJson(factory, raw.json));
    current = live[0] ?? (await namedSandboxState(env, 'default'));
  } else {
    const record = selectedRecord(env, selection);
    current = record === undefined ? { state: 'none' } : await namedSandboxState(env, nameOf(record));
    if (current.state !== 'running' && current.state !== 'unresponsive' && !wantsJson(factory, raw.json))
      throw new UdcliError(`no sandbox ${selection.what} is running`, {
        hint: `start one with: udcli sandbox start --detach ${raw.name !== undefined ? `--name ${nameOf({ name: raw.name.toLowerCase() })}` : `--port ${raw.port}`}`,
      });
  }
  if (current.state === 'running') {
    const r = current.record;
    const contents = await sandboxContents(r.db, r.url);
    const profile = await builtInProfileGame(env);
    if (wantsJson(factory, raw.json)) {
      const holds = contents
        ? { holds: contents.origin, games: contents.games, users: contents.users, user_count: contents.user_count }
        : {};
      stdout.write(
        `${jsonText({ running: true, pid: r.pid, url: r.url, game_url: r.gameUrl ?? null, port: r.port, host: r.host, db: r.db, started_at: r.startedAt, detached: r.detached, log: r.log ?? null, latency_ms: r.latencyMs ?? 0, ...holds, builtin_profile: profile ?? null }, 2)}\n`,
      );
    } else {
      // Every field through printable(): game names and usernames come from a data file.
      printText(stdout, printableFields(r), printableFields(contents));
      if (profile !== undefined) stdout.write(`${printable(`the built-in profile uses ${profile.why}`)}\n`);
    }
    return;
  }
  // A script asking for JSON gets JSON either way (running: true with responding: false means
  // the recorded process is alive but does not answer); the exit code says it is not usable.
  if (wantsJson(factory, raw.json)) {
    const r = current.state === 'unresponsive' ? current.record : null;
    stdout.write(
      `${jsonText({ running: r !== null, responding: false, pid: r?.pid ?? null, url: r?.url ?? null }, 2)}\n`,
    );
  }
  if (current.state === 'unresponsive') {
    throw new UdcliError(`the sandbox (pid ${current.record.pid}) does not answer at ${current.record.url}`, {
      hint: `if the process is not a sandbox any more, delete ${recordPath(env, nameOf(current.record))}`,
    });
  }
  throw new UdcliError('the sandbox is not running', { hint: 'start it with: udcli sandbox start --detach' });
}
