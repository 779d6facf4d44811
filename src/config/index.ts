/** Profiles and settings: read the config file, resolve the active profile. */
import { readConfig } from './file.js';
import { resolveSettings, type ProfileFlags } from './resolve.js';
import type { Settings } from './types.js';

export { configDir, configFilePath } from './paths.js';
export {
  readConfig,
  updateConfig,
  parseConfigData,
  CONFIG_FILE_MODE,
  type ConfigData,
  type ImportRecord,
  type LoadedConfig,
} from './file.js';
export {
  BUILT_IN_PROFILE,
  ENV_KEYS,
  FLAG_KEYS,
  activeProfileName,
  builtInSandboxProfile,
  builtInSandboxUrl,
  profileLayers,
  profileNames,
  resolveSettings,
  unknownProfile,
  type ProfileFlags,
} from './resolve.js';
export {
  PROFILE_KEYS,
  POLICY_KEYS,
  SECRET_KEYS,
  displayValue,
  parseProfileKey,
  validateProfileName,
  validateValue,
  type ProfileKey,
} from './keys.js';

/** The settings of this run: the config file read once, resolved against flags and environment. */
export function loadSettings(flags: ProfileFlags, env: NodeJS.ProcessEnv): Settings {
  return resolveSettings(flags, env, readConfig(env).data);
}
