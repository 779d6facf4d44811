/**
 * `udcli profile import FILE` (issue 52, point 6): a team's profiles, their policy and which one
 * is the default, from one YAML or JSON file the lead hands out. The file holds no secret (an
 * api key, a signing secret, a cookie, a token is refused, naming the key): each agent's secrets
 * come from the environment or `config set KEY -`, as for any profile, and those already stored
 * for a profile are kept.
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type * as Yaml from 'yaml';
import {
  BUILT_IN_PROFILE,
  ENV_KEYS,
  PROFILE_KEYS,
  SECRET_KEYS,
  updateConfig,
  validateProfileName,
  validateValue,
  type ProfileKey,
} from '../../../config/index.js';
import type { RawValue } from '../../../config/keys.js';
import type { StoredProfile } from '../../../config/types.js';
import { dynamicImport } from '../../../dynamic-import.js';
import { UsageError } from '../../../errors.js';
import type { Factory } from '../../../ops/factory.js';
import { printable } from '../../../printable.js';
import { isSecretParam } from '../../../redact.js';
import { recordPolicyChange } from '../config/policy-trail.js';

/** A team file is a page of settings: anything larger is no such file. */
export const MAX_TEAM_FILE = 1024 * 1024;

/** Names that hold a secret, beside the profile's secret keys: refused wherever they appear. */
const SECRET_NAMES = new Set(['auth_token', 'token', 'password', 'secret']);

function isSecretName(key: string): boolean {
  const k = key.toLowerCase().replaceAll('-', '_');
  if ((PROFILE_KEYS as readonly string[]).includes(k)) return SECRET_KEYS.has(k as ProfileKey);
  return SECRET_NAMES.has(k) || isSecretParam(k);
}

interface TeamProfile {
  name: string;
  keys: StoredProfile;
  isDefault: boolean;
}

function bad(file: string, why: string): UsageError {
  return new UsageError(`team file ${printable(file)}: ${why}; nothing was installed`);
}

async function parseTeamFile(file: string): Promise<unknown> {
  let text: string;
  try {
    if (statSync(file).size > MAX_TEAM_FILE) throw bad(file, `larger than ${MAX_TEAM_FILE / 1024} KiB`);
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read team file ${printable(file)}: ${(error as Error).message}`);
  }
  // YAML is a superset of JSON: one parser reads either.
  const yaml = await dynamicImport<typeof Yaml>('yaml');
  try {
    return yaml.parse(text, { maxAliasCount: 0 });
  } catch (error) {
    throw bad(file, `not YAML or JSON: ${printable((error as Error).message.split('\n')[0] ?? '')}`);
  }
}

/** `{ profiles: { NAME: { KEY: VALUE, …, default: true } } }`, every key and value checked. */
function teamProfiles(file: string, raw: unknown): TeamProfile[] {
  const obj = raw as { profiles?: unknown } | null;
  if (!obj || typeof obj !== 'object' || Array.isArray(obj) || !obj.profiles || typeof obj.profiles !== 'object') {
    throw bad(file, 'expected "profiles:" with one entry per profile');
  }
  const out: TeamProfile[] = [];
  for (const [name, value] of Object.entries(obj.profiles as Record<string, unknown>)) {
    validateProfileName(name);
    if (name === BUILT_IN_PROFILE) throw bad(file, 'the sandbox profile is built in and cannot be imported');
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw bad(file, `profile ${name} is not a map`);
    const keys: StoredProfile = {};
    let isDefault = false;
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (isSecretName(key)) {
        const envName = ENV_KEYS[key as ProfileKey];
        throw new UsageError(
          `team file ${printable(file)}: profile ${name} holds ${printable(key)}, a secret; a team file holds no secrets; nothing was installed`,
          {
            hint: `remove it from the file; each agent gives it ${envName ? `in ${envName} or ` : ''}with: udcli --profile ${name} config set ${printable(key)} -`,
          },
        );
      }
      if (key === 'default') {
        if (typeof v !== 'boolean') throw bad(file, `profile ${name}: default is true or false`);
        isDefault = v;
        continue;
      }
      if (!(PROFILE_KEYS as readonly string[]).includes(key)) {
        throw bad(file, `profile ${name}: unknown key ${printable(JSON.stringify(key))}`);
      }
      try {
        Object.assign(keys, { [key]: validateValue(key as ProfileKey, v as RawValue) });
      } catch (error) {
        throw bad(file, `profile ${name}: ${(error as Error).message}`);
      }
    }
    if (!keys.base_url) throw bad(file, `profile ${name} has no base_url`);
    out.push({ name, keys, isDefault });
  }
  if (out.length === 0) throw bad(file, 'no profiles');
  if (out.filter((p) => p.isDefault).length > 1) throw bad(file, 'more than one profile says default: true');
  return out;
}

export async function run(factory: Factory, args: { file: string }): Promise<void> {
  const profiles = teamProfiles(args.file, await parseTeamFile(args.file));
  const from = resolve(args.file);
  const at = new Date().toISOString();
  const before = new Map<string, StoredProfile | undefined>();
  const written = await updateConfig(factory.io.env, (data) => {
    for (const p of profiles) {
      const old = data.profiles[p.name];
      before.set(p.name, old);
      // The team's settings replace the profile's; the agent's own secrets stay.
      const secrets = Object.fromEntries(
        Object.entries(old ?? {}).filter(([k]) => SECRET_KEYS.has(k as ProfileKey)),
      ) as StoredProfile;
      data.profiles[p.name] = { ...p.keys, ...secrets };
      data.imported = { ...data.imported, [p.name]: { from, at, keys: Object.keys(p.keys) } };
      if (p.isDefault) data.current_profile = p.name;
    }
  });
  for (const p of profiles) {
    await recordPolicyChange(factory, written.data, p.name, before.get(p.name), ['profile', 'import', from]);
  }
  const out = await factory.output();
  const def = profiles.find((p) => p.isDefault);
  out.info(
    `Imported ${profiles.length} ${profiles.length === 1 ? 'profile' : 'profiles'} from ${printable(args.file)}: ${profiles
      .map((p) => `${p.name}${p.keys.production ? ' (production)' : ''}`)
      .join(', ')}${def ? `; ${def.name} is the default` : ''}.`,
  );
  const needKey = profiles.filter((p) => !written.data.profiles[p.name]?.api_key).map((p) => p.name);
  if (needKey.length > 0) {
    out.info(
      `Secrets come from you, not the file: set UDCLI_API_KEY, or store it with: udcli --profile ${needKey[0]} config set api_key -`,
    );
  }
}
