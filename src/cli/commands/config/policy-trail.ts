/**
 * A change to what a profile allows (its policy keys: production, require_reason, the operator
 * and policy keys of issue 52) is itself a trail line, kind `policy`: who loosened a bound, when,
 * from what to what, is there for the team to read beside the changes it let through.
 */
import { auditEntry } from '../../../audit/log.js';
import { openTrail } from '../../../audit/trail.js';
import { POLICY_KEYS, displayValue, resolveSettings, type ConfigData, type ProfileKey } from '../../../config/index.js';
import type { StoredProfile } from '../../../config/types.js';
import type { Factory } from '../../../ops/factory.js';

/** The policy keys whose value differs between the two. */
export function policyChanges(
  before: StoredProfile | undefined,
  after: StoredProfile | undefined,
): Array<{ key: ProfileKey; before: unknown; after: unknown }> {
  const out: Array<{ key: ProfileKey; before: unknown; after: unknown }> = [];
  for (const key of POLICY_KEYS) {
    const b = before?.[key];
    const a = after?.[key];
    if (JSON.stringify(b) !== JSON.stringify(a)) out.push({ key, before: b ?? null, after: a ?? null });
  }
  return out;
}

/** Appends the `policy` line of `profile`'s policy changes to that profile's trail; nothing when none changed. */
export async function recordPolicyChange(
  factory: Factory,
  data: ConfigData,
  profile: string,
  before: StoredProfile | undefined,
  argv: readonly string[],
): Promise<void> {
  const changes = policyChanges(before, data.profiles[profile]);
  if (changes.length === 0) return;
  const env = factory.io.env;
  // The trail of the profile changed (its database, when it names one), not of the active one.
  let settings: Parameters<typeof openTrail>[1] & { baseUrl?: string; operator?: string };
  try {
    settings = resolveSettings({ profile }, env, data);
  } catch {
    settings = { profile };
  }
  const show = (key: ProfileKey, v: unknown) => (v === null ? 'unset' : displayValue(key, v as never));
  const trail = await openTrail(env, settings);
  try {
    await trail.append(
      auditEntry({
        env,
        ...(settings.operator !== undefined ? { operator: settings.operator } : {}),
        profile,
        ...(settings.baseUrl !== undefined ? { server: settings.baseUrl } : {}),
        argv,
        uid: '',
        kind: 'policy',
        before: Object.fromEntries(changes.map((c) => [c.key, c.before])),
        after: Object.fromEntries(changes.map((c) => [c.key, c.after])),
        change: `policy of profile ${profile}: ${changes.map((c) => `${c.key} ${show(c.key, c.before)} → ${show(c.key, c.after)}`).join(', ')}`,
      }),
    );
  } finally {
    await trail.close();
  }
}
