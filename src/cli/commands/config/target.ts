import {
  BUILT_IN_PROFILE,
  ENV_KEYS,
  FLAG_KEYS,
  activeProfileName,
  readConfig,
  unknownProfile,
  type ConfigData,
  type ProfileKey,
} from '../../../config/index.js';
import type { Output } from '../../../output/types.js';
import type { Factory } from '../../../ops/factory.js';

/** The profile `config set|unset` change: --profile, UDCLI_PROFILE, the current one, or sandbox. */
export function targetProfile(factory: Factory, data: ConfigData = readConfig(factory.io.env).data): string {
  const { name } = activeProfileName({ profile: factory.globals().profile }, factory.io.env, data);
  if (name !== BUILT_IN_PROFILE && !data.profiles[name]) throw unknownProfile(name, data);
  return name;
}

/** Warns when a flag or environment variable hides the stored value of `key` in this run. */
export function warnIfOverridden(factory: Factory, out: Output, key: ProfileKey): void {
  const envName = ENV_KEYS[key];
  if (envName && factory.io.env[envName])
    out.warn(`${envName} is set and takes precedence over the profile in this environment`);
  const g = factory.globals();
  if ((key === 'base_url' && g.baseUrl) || (key === 'api_key' && g.apiKey)) {
    out.warn(`${FLAG_KEYS[key]} on this command line takes precedence over the profile`);
  }
}

/** A key set here no longer comes from the team's file: `profile show` says the config file. */
export function forgetImported(data: ConfigData, profile: string, key: ProfileKey): void {
  const record = data.imported?.[profile];
  if (record) record.keys = record.keys.filter((k) => k !== key);
}
