import {
  BUILT_IN_PROFILE,
  ENV_KEYS,
  FLAG_KEYS,
  PROFILE_KEYS,
  activeProfileName,
  displayValue,
  profileLayers,
  readConfig,
  resolveSettings,
  type ProfileKey,
} from '../../../config/index.js';
import type { SettingSource, Settings, StoredProfile } from '../../../config/types.js';
import type { ImportRecord } from '../../../config/index.js';
import { printable } from '../../../printable.js';
import type { Column } from '../../../output/types.js';
import type { Factory } from '../../../ops/factory.js';

/** What `profile show` prints: every key (secrets redacted) and, for the active profile, its source. */
export type ProfileView = {
  name: string;
  active: boolean;
  builtin: boolean;
  sources?: Partial<Record<ProfileKey, string>>;
} & Record<ProfileKey, string | boolean | number | null>;

/** What the built-in profile takes from a sandbox (src/cli/sandbox-profile.ts), as every command's settings do. */
export async function followBuiltIn(settings: Settings, env: NodeJS.ProcessEnv): Promise<void> {
  if (settings.profile !== BUILT_IN_PROFILE || (!settings.builtInSandbox && settings.sources.api_key !== 'default'))
    return;
  const { followSandbox } = await import('../../sandbox-profile.js');
  await followSandbox(settings, env);
}

/**
 * `env UDCLI_BASE_URL`, `flag --api-key`, `import /path/team.yaml` (a key `profile import`
 * installed and nobody changed since), `profile` (set in the config file otherwise), `default`.
 */
export function sourceLabel(key: ProfileKey, source: SettingSource, imported?: ImportRecord): string {
  if (source === 'env') return `env ${ENV_KEYS[key] ?? ''}`.trim();
  if (source === 'flag') return `flag ${FLAG_KEYS[key] ?? ''}`.trim();
  if (source === 'profile' && imported?.keys.includes(key)) return `import ${printable(imported.from)}`;
  return source;
}

/** The values in effect, from resolved settings. */
export function settingsValues(s: Settings): StoredProfile {
  return {
    base_url: s.baseUrl,
    site_url: s.siteUrl,
    api_key: s.apiKey,
    signing_secret: s.signingSecret,
    signing_scheme: s.signingScheme,
    verb_override: s.verbOverride,
    game_id: s.gameId,
    type: s.type,
    cookie: s.cookie,
    production: s.production,
    audit_url: s.auditUrl,
    require_reason: s.requireReason,
    operator: s.operator,
    operator_required: s.operatorRequired,
    operators: s.operators,
    products_allowed: s.policy.productsAllowed,
    max_quantity: s.policy.maxQuantity,
    max_players: s.policy.maxPlayers,
    ticket_pattern: s.policy.ticketPattern,
    approval_over: s.policy.approvalOver,
  };
}

function column(key: ProfileKey): Column<ProfileView> {
  return {
    key,
    header: key,
    cell: (v) => {
      const value = v[key];
      const text = value === null ? '-' : String(value);
      const source = v.sources?.[key];
      return source ? `${text}  (${source})` : text;
    },
  };
}

export const PROFILE_SHOW_COLUMNS: ReadonlyArray<Column<ProfileView>> = [
  {
    key: 'name',
    header: 'profile',
    cell: (v) => `${v.name}${v.builtin ? ' (built-in)' : ''}${v.active ? ' (active)' : ''}`,
  },
  ...PROFILE_KEYS.map(column),
];

export async function run(factory: Factory, args: { name?: string }): Promise<void> {
  const env = factory.io.env;
  const globals = factory.globals();
  const { data } = readConfig(env);
  const active = activeProfileName({ profile: globals.profile }, env, data).name;
  const name = args.name ?? active;
  let values: StoredProfile;
  let sources: ProfileView['sources'];
  if (name === active) {
    const settings = resolveSettings({ profile: name, baseUrl: globals.baseUrl, apiKey: globals.apiKey }, env, data);
    // The built-in profile's game and key are the sandbox's: shown as the commands will use them, and why.
    await followBuiltIn(settings, env);
    values = settingsValues(settings);
    sources = {};
    for (const key of PROFILE_KEYS) {
      const source = settings.sources[key];
      if (source) sources[key] = sourceLabel(key, source, data.imported?.[name]);
    }
    if (settings.followed !== undefined) {
      sources.game_id = settings.followed;
      if (settings.sources.api_key === 'default') sources.api_key = settings.followed;
    }
  } else {
    const { stored, defaults } = profileLayers(name, env, data);
    values = { ...defaults, ...stored };
    values.signing_scheme ??= 'agi';
    values.verb_override ??= values.signing_scheme === 'agi';
    // Another profile's sources are said only for the keys a team file installed.
    const imported = data.imported?.[name];
    if (imported && imported.keys.length > 0) {
      sources = {};
      for (const key of PROFILE_KEYS) {
        if (stored[key] !== undefined) sources[key] = sourceLabel(key, 'profile', imported);
      }
    }
  }
  const view = { name, active: name === active, builtin: name === BUILT_IN_PROFILE } as ProfileView;
  for (const key of PROFILE_KEYS) {
    const value = values[key];
    view[key] =
      value === undefined
        ? null
        : typeof value === 'boolean' || typeof value === 'number'
          ? value
          : displayValue(key, value);
  }
  if (sources) view.sources = sources;
  const out = await factory.output();
  out.item(view, PROFILE_SHOW_COLUMNS);
}
