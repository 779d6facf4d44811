import { BUILT_IN_PROFILE, unknownProfile, updateConfig } from '../../../config/index.js';
import type { Factory } from '../../../ops/factory.js';

export async function run(factory: Factory, args: { name: string }): Promise<void> {
  const env = factory.io.env;
  const { name } = args;
  await updateConfig(env, (data) => {
    if (name !== BUILT_IN_PROFILE && !data.profiles[name]) throw unknownProfile(name, data);
    data.current_profile = name;
  });
  const out = await factory.output();
  out.info(`Switched to profile ${name}.`);
  if (env.UDCLI_PROFILE && env.UDCLI_PROFILE !== name) {
    out.warn(`UDCLI_PROFILE=${env.UDCLI_PROFILE} is set and takes precedence in this environment`);
  }
}
