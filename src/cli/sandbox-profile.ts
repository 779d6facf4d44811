/**
 * The built-in `sandbox` profile follows what the local sandbox holds (issue 23): after
 * `sandbox start --data racers.yaml`, its game and key are the data's first game with a key, so
 * `udcli user speedy` and `doctor` work without a profile. Which database: the running sandbox's
 * (the pid file, its process alive), else the default one the embedded sandbox would use. Only
 * the keys the profile leaves to their built-in defaults change; anything that goes wrong leaves
 * the demo's in place (doctor then says why a key is refused).
 */
import { existsSync } from 'node:fs';
import type { Settings } from '../config/types.js';
import { isAlive } from '../lock-file.js';
import { readPidFile } from './commands/sandbox/pidfile.js';
import { cachedCredentials, cachePath, databaseStamp, rememberCredentials, type FollowedCredentials } from './sandbox-profile-cache.js';

async function sandboxDatabase(env: NodeJS.ProcessEnv, baseUrl: string): Promise<string | undefined> {
  const { defaultDatabasePath, pidFilePath } = await import('../sandbox/paths.js');
  const record = readPidFile(pidFilePath(env));
  if (record !== undefined && isAlive(record.pid)) {
    // Only the sandbox the profile points at (the same port).
    const port = new URL(baseUrl).port;
    return String(record.port) === port ? record.db : undefined;
  }
  return defaultDatabasePath(env);
}

/** The database's primary credentials: remembered while the database is unchanged, else read. */
async function followedCredentials(env: NodeJS.ProcessEnv, dbPath: string): Promise<FollowedCredentials | null> {
  const { dataDir } = await import('../sandbox/paths.js');
  const cache = cachePath(dataDir(env));
  const stamp = databaseStamp(dbPath);
  if (stamp !== null) {
    const known = cachedCredentials(cache, dbPath, stamp);
    if (known !== undefined) return known;
  }
  const [{ openDatabase }, { primaryCredentials }] = await Promise.all([import('../sandbox/database.js'), import('../sandbox/loaded.js')]);
  const db = openDatabase(dbPath);
  let primary: FollowedCredentials | null;
  try {
    primary = primaryCredentials(db);
  } finally {
    db.close();
  }
  // Stamped after reading: opening may itself have written (a migration, a WAL checkpoint).
  const after = databaseStamp(dbPath);
  if (after !== null && after === stamp) rememberCredentials(cache, dbPath, after, primary);
  return primary;
}

export async function followSandboxData(settings: Settings, env: NodeJS.ProcessEnv): Promise<void> {
  try {
    const dbPath = await sandboxDatabase(env, settings.baseUrl);
    if (dbPath === undefined || dbPath === ':memory:' || !existsSync(dbPath)) return;
    const primary = await followedCredentials(env, dbPath);
    if (primary === null || primary.api_key === settings.apiKey) return;
    settings.apiKey = primary.api_key;
    if (settings.sources.signing_secret === 'default') settings.signingSecret = primary.signing_secret;
    settings.gameId = primary.game_id;
    // A game that takes hmac-sha256-v1 only is called that way, unless the profile says otherwise.
    if (primary.signing === 'hmac-sha256-v1' && settings.sources.signing_scheme === 'default') {
      settings.signingScheme = 'hmac-sha256-v1';
      if (settings.sources.verb_override === 'default') settings.verbOverride = false;
    }
  } catch {
    // The demo's credentials stay.
  }
}
