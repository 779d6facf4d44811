/**
 * Profile resolution. The active profile is `--profile` > `UDCLI_PROFILE` > the stored current
 * profile > the built-in `sandbox`. Each key then follows flag > environment > profile >
 * built-in default, and Settings records where every value came from.
 */
import { UsageError } from '../errors.js';
import { DEFAULT_SANDBOX_URL, DEMO } from '../domain/demo.js';
import type { ConfigData } from './file.js';
import { validateValue, type ProfileKey } from './keys.js';
import type { Policy, SettingSource, Settings, StoredProfile } from './types.js';

export const BUILT_IN_PROFILE = 'sandbox';

/** Environment variables that override profile keys (docs/CLI.md "Profiles and environment"). */
export const ENV_KEYS: Partial<Record<ProfileKey, string>> = {
  base_url: 'UDCLI_BASE_URL',
  site_url: 'UDCLI_SITE_URL',
  api_key: 'UDCLI_API_KEY',
  signing_secret: 'UDCLI_SIGNING_SECRET',
  signing_scheme: 'UDCLI_SIGNING_SCHEME',
  game_id: 'UDCLI_GAME_ID',
  operator: 'UDCLI_OPERATOR',
};

/** Keys a global flag can set. */
export const FLAG_KEYS: Partial<Record<ProfileKey, string>> = {
  base_url: '--base-url',
  api_key: '--api-key',
};

/**
 * The sandbox URL of the built-in profile. `UDCLI_SANDBOX_PORT` moves it to another port
 * (tests use it to point the built-in profile at a closed port) without counting as an override.
 */
export function builtInSandboxUrl(env: NodeJS.ProcessEnv): string {
  const port = env.UDCLI_SANDBOX_PORT;
  if (!port) return DEFAULT_SANDBOX_URL;
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
    throw new UsageError(`invalid UDCLI_SANDBOX_PORT ${JSON.stringify(port)}: expected a port number 1-65535`);
  }
  return `http://${DEMO.host}:${Number(port)}`;
}

/** The built-in `sandbox` profile: the local sandbox with the demo game's credentials. */
export function builtInSandboxProfile(env: NodeJS.ProcessEnv): StoredProfile {
  const url = builtInSandboxUrl(env);
  return {
    base_url: url,
    site_url: url,
    api_key: DEMO.game.apiKey,
    signing_secret: DEMO.game.signingSecret,
    signing_scheme: 'agi',
    game_id: DEMO.game.id,
    type: 'Game',
    production: false,
  };
}

export interface ProfileFlags {
  profile?: string;
  baseUrl?: string;
  apiKey?: string;
}

export type ActiveSource = 'flag' | 'env' | 'config' | 'default';

/** Which profile is active, and why. Does not check that it exists. */
export function activeProfileName(
  flags: ProfileFlags,
  env: NodeJS.ProcessEnv,
  config: ConfigData,
): { name: string; source: ActiveSource } {
  if (flags.profile) return { name: flags.profile, source: 'flag' };
  if (env.UDCLI_PROFILE) return { name: env.UDCLI_PROFILE, source: 'env' };
  if (config.current_profile) return { name: config.current_profile, source: 'config' };
  return { name: BUILT_IN_PROFILE, source: 'default' };
}

/** Every profile name a user can pick: the built-in one first, then the stored ones. */
export function profileNames(config: ConfigData): string[] {
  return [
    BUILT_IN_PROFILE,
    ...Object.keys(config.profiles)
      .filter((n) => n !== BUILT_IN_PROFILE)
      .sort(),
  ];
}

export function unknownProfile(name: string, config: ConfigData): UsageError {
  return new UsageError(`unknown profile ${JSON.stringify(name)}; profiles: ${profileNames(config).join(', ')}`, {
    hint: 'create one with: udcli profile add <name> --base-url URL --api-key KEY',
  });
}

/**
 * A profile's stored keys and its built-in defaults: for `sandbox`, the user's stored overlay
 * over the built-in profile; for any other, the stored profile alone.
 */
export function profileLayers(
  name: string,
  env: NodeJS.ProcessEnv,
  config: ConfigData,
): { stored: StoredProfile; defaults: StoredProfile } {
  const stored = config.profiles[name];
  if (name === BUILT_IN_PROFILE) return { stored: stored ?? {}, defaults: builtInSandboxProfile(env) };
  if (!stored) throw unknownProfile(name, config);
  return { stored, defaults: {} };
}

/** The policy without its unset keys. */
function policyOf(all: { [K in keyof Policy]: Policy[K] | undefined }): Policy {
  const out: Policy = {};
  for (const [k, v] of Object.entries(all)) if (v !== undefined) Object.assign(out, { [k]: v });
  return out;
}

/** Resolves the active profile against flags and environment. Throws UsageError. */
/** Settings left out when no source gives them. */
type OptionalSetting = 'apiKey' | 'signingSecret' | 'gameId' | 'cookie' | 'auditUrl' | 'operator' | 'operators';

export function resolveSettings(flags: ProfileFlags, env: NodeJS.ProcessEnv, config: ConfigData): Settings {
  const { name } = activeProfileName(flags, env, config);
  const { stored, defaults } = profileLayers(name, env, config);
  const sources: Settings['sources'] = {};

  const pick = <K extends ProfileKey>(key: K, flagValue?: string): StoredProfile[K] | undefined => {
    let value: StoredProfile[K] | undefined;
    let source: SettingSource | undefined;
    const envName = ENV_KEYS[key];
    const envValue = envName ? env[envName] : undefined;
    if (flagValue !== undefined && flagValue !== '') {
      value = validateValue(key, flagValue, FLAG_KEYS[key] ?? key);
      source = 'flag';
    } else if (envName && envValue !== undefined && envValue !== '') {
      value = validateValue(key, envValue, envName);
      source = 'env';
    } else if (stored[key] !== undefined) {
      value = stored[key];
      source = 'profile';
    } else if (defaults[key] !== undefined) {
      value = defaults[key];
      source = 'default';
    }
    if (source) sources[key] = source;
    return value;
  };

  const baseUrl = pick('base_url', flags.baseUrl);
  if (baseUrl === undefined) {
    throw new UsageError(`profile ${JSON.stringify(name)} has no base_url`, {
      hint: `set one with: udcli config set --profile ${name} base_url URL`,
    });
  }
  let siteUrl = pick('site_url');
  if (siteUrl === undefined || (sources.site_url === 'default' && sources.base_url !== 'default')) {
    // The site is the same server as the API unless said otherwise (SERVICE.md: Tokens and the site).
    siteUrl = baseUrl;
    sources.site_url = 'default';
  }
  const settings: Settings = {
    profile: name,
    builtInSandbox: name === BUILT_IN_PROFILE && sources.base_url === 'default',
    baseUrl,
    siteUrl,
    signingScheme: pick('signing_scheme') ?? 'agi',
    verbOverride: false,
    type: pick('type') ?? 'Game',
    production: pick('production') ?? false,
    requireReason: pick('require_reason') ?? false,
    operatorRequired: false,
    policy: {},
    sources,
  };
  sources.signing_scheme ??= 'default';
  // The platform's SDK sends PUT and DELETE as POST with `method=`; so does agi unless told otherwise.
  settings.verbOverride = pick('verb_override') ?? settings.signingScheme === 'agi';
  sources.verb_override ??= 'default';
  sources.type ??= 'default';
  sources.production ??= 'default';
  sources.require_reason ??= 'default';
  // Left out, not undefined, where nothing gives them (exactOptionalPropertyTypes).
  const optional: { [K in OptionalSetting]: Settings[K] | undefined } = {
    apiKey: pick('api_key', flags.apiKey),
    signingSecret: pick('signing_secret'),
    gameId: pick('game_id'),
    cookie: pick('cookie'),
    auditUrl: pick('audit_url'),
    operator: pick('operator'),
    operators: pick('operators'),
  };
  for (const [field, value] of Object.entries(optional))
    if (value !== undefined) Object.assign(settings, { [field]: value });
  settings.operatorRequired = pick('operator_required') ?? false;
  settings.policy = policyOf({
    productsAllowed: pick('products_allowed'),
    maxQuantity: pick('max_quantity'),
    maxPlayers: pick('max_players'),
    ticketPattern: pick('ticket_pattern'),
    approvalOver: pick('approval_over'),
  });
  if (settings.builtInSandbox) {
    const production = Object.entries(config.profiles)
      .filter(([n, p]) => n !== BUILT_IN_PROFILE && p.production === true)
      .map(([n]) => n);
    if (production.length > 0) settings.productionElsewhere = production;
  }
  return settings;
}
