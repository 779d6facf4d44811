import { BUILT_IN_PROFILE, parseProfileKey, updateConfig } from '../../../config/index.js';
import { UsageError } from '../../../errors.js';
import type { Factory } from '../../../ops/factory.js';
import type { StoredProfile } from '../../../config/types.js';
import { recordPolicyChange } from './policy-trail.js';
import { forgetImported, targetProfile } from './target.js';

export async function run(factory: Factory, args: { key: string }): Promise<void> {
  const key = parseProfileKey(args.key);
  let name = '';
  let had = false;
  let before: StoredProfile | undefined;
  const written = await updateConfig(factory.io.env, (data) => {
    name = targetProfile(factory, data);
    const profile = data.profiles[name];
    before = profile;
    forgetImported(data, name, key);
    if (key === 'base_url' && name !== BUILT_IN_PROFILE) {
      throw new UsageError(`base_url is required in profile ${name}`, {
        hint: `remove the profile instead: udcli profile remove ${name}`,
      });
    }
    if (!profile || profile[key] === undefined) return;
    had = true;
    const { [key]: _removed, ...rest } = profile;
    if (name === BUILT_IN_PROFILE && Object.keys(rest).length === 0) delete data.profiles[name];
    else data.profiles[name] = rest;
  });
  await recordPolicyChange(factory, written.data, name, before, ['config', 'unset', '--profile', name, key]);
  const out = await factory.output();
  const fallback = name === BUILT_IN_PROFILE ? ' (the built-in default applies)' : '';
  out.info(had ? `Unset ${key} of profile ${name}${fallback}.` : `${key} was not set in profile ${name}.`);
}
