/**
 * Where the config file lives. `UDCLI_CONFIG_DIR` wins (tests use it); otherwise the per-user
 * config directory of the platform. The path is always handed to `conf` as its `cwd`, so the
 * fast read path (src/config/file.ts) and conf's writes agree on one file by construction.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export const CONFIG_FILE_NAME = 'config.json';

export function configDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (env.UDCLI_CONFIG_DIR) return env.UDCLI_CONFIG_DIR;
  const home = env.HOME || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', 'udcli');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'udcli', 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'udcli');
}

export function configFilePath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), CONFIG_FILE_NAME);
}
