import {
  BUILT_IN_PROFILE,
  builtInSandboxProfile,
  updateConfig,
  validateProfileName,
  validateValue,
} from '../../../config/index.js';
import type { ProfileKey } from '../../../config/index.js';
import type { StoredProfile } from '../../../config/types.js';
import { UsageError } from '../../../errors.js';
import type { Factory } from '../../../ops/factory.js';

export interface AddOptions {
  baseUrl?: string;
  siteUrl?: string;
  apiKey?: string;
  signingSecret?: string;
  signingScheme?: string;
  verbOverride?: string;
  gameId?: string;
  type?: string;
  cookie?: string;
  auditUrl?: string;
  production?: boolean;
  requireReason?: boolean;
  fromSandbox?: boolean;
}

/** Flag per key, for error messages that name what the user typed. */
const FLAGS: Partial<Record<ProfileKey, keyof AddOptions>> = {
  base_url: 'baseUrl',
  site_url: 'siteUrl',
  api_key: 'apiKey',
  signing_secret: 'signingSecret',
  signing_scheme: 'signingScheme',
  verb_override: 'verbOverride',
  game_id: 'gameId',
  type: 'type',
  cookie: 'cookie',
  audit_url: 'auditUrl',
};

const flagName = (key: ProfileKey): string => `--${key.replaceAll('_', '-')}`;

export async function run(factory: Factory, args: { name: string }, opts: AddOptions): Promise<void> {
  const name = validateProfileName(args.name);
  if (name === BUILT_IN_PROFILE) {
    throw new UsageError('the sandbox profile is built in', {
      hint: 'change its keys with: udcli config set --profile sandbox KEY VALUE',
    });
  }
  // --base-url and --api-key are global options too; the program may have taken them.
  const globals = factory.globals();
  const given: Partial<Record<ProfileKey, string>> = {};
  for (const [key, option] of Object.entries(FLAGS) as Array<[ProfileKey, keyof AddOptions]>) {
    const value = opts[option];
    if (typeof value === 'string') given[key] = value;
  }
  given.base_url ??= globals.baseUrl;
  given.api_key ??= globals.apiKey;

  const profile: StoredProfile = {};
  if (opts.fromSandbox) {
    // The built-in profile's demo values; production stays unset unless --production says so.
    const { production: _production, require_reason: _requireReason, ...demo } = builtInSandboxProfile(factory.io.env);
    const url = given.base_url ?? demo.base_url;
    Object.assign(profile, demo, { base_url: url, site_url: url });
  }
  for (const [key, value] of Object.entries(given) as Array<[ProfileKey, string | undefined]>) {
    if (value !== undefined) Object.assign(profile, { [key]: validateValue(key, value, flagName(key)) });
  }
  if (opts.production) profile.production = true;
  if (opts.requireReason) profile.require_reason = true;
  if (!profile.base_url) {
    throw new UsageError('profile add needs --base-url URL (or --from-sandbox)');
  }

  await updateConfig(factory.io.env, (data) => {
    if (data.profiles[name]) {
      throw new UsageError(`profile ${JSON.stringify(name)} already exists`, {
        hint: `change it with: udcli config set --profile ${name} KEY VALUE, or remove it first`,
      });
    }
    data.profiles[name] = profile;
  });
  const out = await factory.output();
  out.info(`Added profile ${name}${profile.production ? ' (production)' : ''}. Use it with: udcli profile use ${name}`);
}
