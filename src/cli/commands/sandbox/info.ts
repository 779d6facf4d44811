/**
 * `udcli sandbox info [--json]`: URLs and what the sandbox holds, asked of the sandbox it names
 * (issue 33): `--base-url URL` (or `UDCLI_BASE_URL`, or a profile's base_url) names one anywhere;
 * the built-in profile names the local one, the running sandbox of the pid file, else its
 * database file. Nothing here is fixed text about the demo: only a sandbox with no database yet
 * is described by the demo data its first start seeds.
 */
import { NetworkError, UdcliError } from '../../../errors.js';
import { defaultDatabasePath } from '../../../sandbox/paths.js';
import type { Factory } from '../../../ops/factory.js';
import { jsonText } from '../../../printable.js';
import { redactUrl } from '../../../redact.js';
import { gameSources, sandboxContentsAt } from '../../../client/sandbox-admin.js';
import { contentsOfFile } from './contents.js';
import { describeSandbox, describeText, type SandboxDescription, type ServedFrom } from './describe.js';
import { wantsJson } from './json.js';
import { probe, reachableUrl, sandboxState } from './pidfile.js';

/**
 * What the running sandbox serves each game from (GET /_sandbox/game-sources, bounded and shape-checked); undefined: it
 * did not say.
 */
async function gameSourcesAt(url: string): Promise<Map<string, ServedFrom | null> | undefined> {
  try {
    const body = await gameSources(url);
    if (!Array.isArray(body?.games)) return undefined;
    const served = new Map<string, ServedFrom | null>();
    for (const entry of body.games as Array<{ game_id?: unknown; source?: unknown }>) {
      if (typeof entry?.game_id !== 'string') continue;
      const source = entry.source as
        | { kind?: unknown; dir?: unknown; url?: unknown; from_content_uri?: unknown }
        | null
        | undefined;
      if (source === null) served.set(entry.game_id, null);
      else if (source?.kind === 'dir' && typeof source.dir === 'string')
        served.set(entry.game_id, { kind: 'folder', path: source.dir });
      else if (source?.kind === 'url' && typeof source.url === 'string')
        served.set(entry.game_id, {
          kind: 'url',
          url: redactUrl(source.url),
          from_content_uri: source.from_content_uri === true,
        });
    }
    return served;
  } catch {
    return undefined;
  }
}

function withServedFrom(
  description: SandboxDescription,
  served: Map<string, ServedFrom | null> | undefined,
): SandboxDescription {
  if (served === undefined) return description;
  return {
    ...description,
    games: description.games.map((g) => (served.has(g.id) ? { ...g, served_from: served.get(g.id)! } : g)),
  };
}

/** The sandbox a profile or flag names: the one answering there, never a local file. */
async function describeNamed(
  url: string,
  local: { pid: number; url: string; db: string } | null,
): Promise<SandboxDescription> {
  const pid = await probe(url);
  const contents = pid === null ? undefined : await sandboxContentsAt(url);
  if (pid === null || contents === undefined) {
    throw new NetworkError(`no udcli sandbox answers at ${redactUrl(url)}`, 'unreachable', false, {
      hint: 'sandbox info describes a sandbox: start one (udcli sandbox start --port N) or name one with --base-url URL',
    });
  }
  // This machine's sandbox, reached by the URL: its database file is known too.
  const same = local !== null && local.pid === pid && new URL(url).port === new URL(local.url).port;
  const db = same ? local.db : null;
  return describeSandbox(url, db, { pid }, contents);
}

export async function infoCommand(factory: Factory, raw: { json?: boolean }): Promise<void> {
  const { stdout, stderr, env } = factory.io;
  const g = factory.globals();
  const { loadSettings } = await import('../../../config/index.js');
  const settings = loadSettings(
    { ...(g.profile ? { profile: g.profile } : {}), ...(g.baseUrl ? { baseUrl: g.baseUrl } : {}) },
    env,
  );
  const current = await sandboxState(env, (line) => stderr.write(line));
  const running = current.state === 'running' ? current.record : null;
  let description: SandboxDescription;
  if (!settings.builtInSandbox) {
    description = await describeNamed(settings.baseUrl.replace(/\/+$/, ''), running);
  } else if (running !== null) {
    const url = reachableUrl(running.url);
    // A sandbox of an older udcli gives an older description: its database file, read by the same function, tells the
    // same.
    const contents = (await sandboxContentsAt(url)) ?? (await contentsOfFile(running.db));
    if (contents === undefined)
      throw new UdcliError(`the sandbox at ${running.url} (pid ${running.pid}) did not say what it holds`, {
        hint: 'udcli sandbox status',
      });
    description = describeSandbox(running.url, running.db, running, contents);
  } else {
    const dbPath = defaultDatabasePath(env);
    description = describeSandbox(settings.baseUrl, dbPath, null, await contentsOfFile(dbPath));
  }
  if (description.running)
    description = withServedFrom(description, await gameSourcesAt(reachableUrl(description.url)));
  stdout.write(wantsJson(factory, raw.json) ? `${jsonText(description, 2)}\n` : describeText(description));
}
