import { BUILT_IN_PROFILE, unknownProfile, updateConfig } from '../../../config/index.js';
import { UsageError } from '../../../errors.js';
import type { Factory } from '../../../ops/factory.js';

export async function run(factory: Factory, args: { name: string }): Promise<void> {
  const { name } = args;
  if (name === BUILT_IN_PROFILE) {
    throw new UsageError('the built-in sandbox profile cannot be removed', {
      hint: 'undo a change to one of its keys with: udcli config unset --profile sandbox KEY',
    });
  }
  let wasActive = false;
  await updateConfig(factory.io.env, (data) => {
    if (!data.profiles[name]) throw unknownProfile(name, data);
    delete data.profiles[name];
    if (data.current_profile === name) {
      delete data.current_profile;
      wasActive = true;
    }
  });
  const out = await factory.output();
  out.info(`Removed profile ${name}.${wasActive ? ` The active profile is now ${BUILT_IN_PROFILE}.` : ''}`);
}
