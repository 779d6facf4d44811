import { BUILT_IN_PROFILE, parseProfileKey, updateConfig } from '../../../config/index.js';
import { UsageError } from '../../../errors.js';
import type { Factory } from '../../../ops/factory.js';
import { targetProfile } from './target.js';

export async function run(factory: Factory, args: { key: string }): Promise<void> {
  const key = parseProfileKey(args.key);
  let name = '';
  let had = false;
  await updateConfig(factory.io.env, (data) => {
    name = targetProfile(factory, data);
    const profile = data.profiles[name];
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
  const out = await factory.output();
  const fallback = name === BUILT_IN_PROFILE ? ' (the built-in default applies)' : '';
  out.info(had ? `Unset ${key} of profile ${name}${fallback}.` : `${key} was not set in profile ${name}.`);
}
