/**
 * The built-in `sandbox` profile follows the local sandbox. Where it listens (issue 33): the
 * running sandbox the pid file records, on whatever port it was started (`sandbox start --detach
 * --port 47703`), so a command talks to it, is in its request log and its dashboard, rather than
 * starting another on the default port. What it holds (issue 23): after `sandbox start --data
 * racers.yaml` its game and key are the data's first game with a key; after `sandbox load` of one
 * game onto the demo, that game (src/sandbox/loaded.ts), so `udcli user speedy` and `doctor` work
 * without a profile. Which database: the running sandbox's, else the default one a new sandbox
 * would use. Only the keys the profile leaves to their built-in defaults change; anything that
 * goes wrong leaves the demo's in place (doctor then says why a key is refused).
 */
import { existsSync } from 'node:fs';
import type { Settings } from '../config/types.js';
import { isAlive } from '../lock-file.js';
import { choiceLine, preferred, reachableUrl, sandboxRecords } from './commands/sandbox/pidfile.js';
import {
  cachedCredentials,
  cachePath,
  databaseStamp,
  rememberCredentials,
  type FollowedCredentials,
  type FollowedData,
} from './sandbox-profile-cache.js';

/**
 * The running sandbox a record names (its process alive; whether it answers is the client's to
 * find out, which then starts one as it does when none runs), else undefined. Of several (issue
 * 53): the one on UDCLI_SANDBOX_PORT, else the default one, with the line that says so.
 */
function recordedSandbox(env: NodeJS.ProcessEnv): { url: string; db: string; note?: string } | undefined {
  const alive = sandboxRecords(env).filter((r) => isAlive(r.pid));
  const record = preferred(alive, env);
  if (record === undefined) return undefined;
  return {
    url: reachableUrl(record.url),
    db: record.db,
    ...(alive.length > 1 ? { note: choiceLine(record, alive, env) } : {}),
  };
}

/** What the database holds for the profile: remembered while the database is unchanged, else read. */
async function followedData(env: NodeJS.ProcessEnv, dbPath: string): Promise<FollowedData> {
  const { dataDir } = await import('../sandbox/paths.js');
  const cache = cachePath(dataDir(env));
  const stamp = databaseStamp(dbPath);
  if (stamp !== null) {
    const known = cachedCredentials(cache, dbPath, stamp);
    if (known !== undefined) return known;
  }
  const [{ openDatabase }, { followed }] = await Promise.all([
    import('../sandbox/database.js'),
    import('../sandbox/loaded.js'),
  ]);
  const db = openDatabase(dbPath);
  let data: FollowedData;
  try {
    data = followed(db);
  } finally {
    db.close();
  }
  // Stamped after reading: opening may itself have written (a migration, a WAL checkpoint).
  const after = databaseStamp(dbPath);
  if (after !== null && after === stamp) rememberCredentials(cache, dbPath, after, data);
  return data;
}

function useCredentials(settings: Settings, chosen: FollowedCredentials): void {
  settings.apiKey = chosen.api_key;
  if (settings.sources.signing_secret === 'default') settings.signingSecret = chosen.signing_secret;
  settings.gameId = chosen.game_id;
  // A game that takes hmac-sha256-v1 only is called that way, unless the profile says otherwise.
  if (chosen.signing === 'hmac-sha256-v1' && settings.sources.signing_scheme === 'default') {
    settings.signingScheme = 'hmac-sha256-v1';
    if (settings.sources.verb_override === 'default') settings.verbOverride = false;
  }
}

/** Why the game is the default: "game 4711, the only game loaded in the running sandbox". */
function whyText(data: FollowedData, game: string, where: string): string {
  switch (data.reason) {
    case 'loaded':
      return `game ${game}, the only game loaded in ${where}`;
    case 'demo':
      return `game ${game}, the demo game in ${where}`;
    default:
      return data.choices.length > 1
        ? `game ${game}, the first of the games loaded in ${where} (${data.choices.join(', ')})`
        : `game ${game}, the first game with a key in ${where}`;
  }
}

/** One line for stderr when several loaded games leave the default game a guess. */
function choiceNote(choices: string[], using: string | undefined): string {
  const shown = choices.slice(0, 5).join(', ') + (choices.length > 5 ? ', …' : '');
  return `udcli: the sandbox holds ${choices.length} loaded games (${shown}); using ${using ?? 'none'}: pick one with UDCLI_GAME_ID=${choices[0]} (or a profile)\n`;
}

/**
 * Points the built-in profile (settings.builtInSandbox) at the running sandbox and at what it
 * holds. Returns a line for stderr when the default game is a guess among several, else undefined.
 */
export async function followSandbox(
  settings: Settings,
  env: NodeJS.ProcessEnv,
  commandGame?: string,
): Promise<string | undefined> {
  let chose: string | undefined;
  try {
    let dbPath: string | undefined;
    let where: string;
    if (settings.builtInSandbox) {
      const running = recordedSandbox(env);
      chose = running?.note;
      if (running !== undefined && running.url !== settings.baseUrl) {
        settings.baseUrl = running.url;
        if (settings.sources.site_url === 'default') settings.siteUrl = running.url;
      }
      if (settings.sources.api_key !== 'default') return chose;
      dbPath = running?.db;
      where = running === undefined ? 'the sandbox database' : 'the running sandbox';
      if (dbPath === undefined) {
        const { defaultDatabasePath } = await import('../sandbox/paths.js');
        dbPath = defaultDatabasePath(env);
        where = `the sandbox database ${dbPath}`;
      }
    } else {
      // --base-url or UDCLI_BASE_URL names a sandbox: asked where its database is, and followed
      // as the pid file's is, when that file is on this machine.
      if (settings.sources.api_key !== 'default') return undefined;
      dbPath = await sandboxDatabaseAt(settings.baseUrl);
      where = `the sandbox at ${settings.baseUrl}`;
    }
    if (dbPath === undefined || dbPath === ':memory:' || !existsSync(dbPath)) return chose;
    const data = await followedData(env, dbPath);
    if (settings.sources.game_id !== 'default' || commandGame !== undefined) {
      // The game was named (the command's --game, UDCLI_GAME_ID, the profile): its key, when the
      // sandbox has one; the command's --game still decides the game (resolveParent).
      const wanted = commandGame ?? settings.gameId;
      const named = data.keyed.find((k) => k.game_id === wanted);
      if (named !== undefined) {
        useCredentials(settings, named);
        settings.followed = `game ${named.game_id} as named, with its key in ${where}`;
      }
      return chose;
    }
    if (data.primary !== null) {
      useCredentials(settings, data.primary);
      settings.followed = whyText(data, data.primary.game_id, where);
    }
    const note = data.choices.length > 1 ? choiceNote(data.choices, data.primary?.game_id) : undefined;
    return note === undefined && chose === undefined ? undefined : `${chose ?? ''}${note ?? ''}`;
  } catch {
    // The demo's credentials stay.
    return chose;
  }
}

/** The database of the sandbox answering at `url` (its status says), or undefined when no sandbox answers there. */
async function sandboxDatabaseAt(url: string): Promise<string | undefined> {
  const { sandboxStatus } = await import('../client/sandbox-admin.js');
  const status = await sandboxStatus(url);
  return typeof status?.database === 'string' ? status.database : undefined;
}
