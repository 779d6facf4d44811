import { displayValue, parseProfileKey } from '../../../config/index.js';
import type { Factory } from '../../../ops/factory.js';
import { settingsValues, sourceLabel } from '../profile/show.js';

export async function run(factory: Factory, args: { key: string }): Promise<void> {
  const key = parseProfileKey(args.key);
  const settings = await factory.settings();
  const value = settingsValues(settings)[key];
  const source = settings.sources[key];
  const out = await factory.output();
  if (value === undefined) {
    out.info(`${key} is not set in profile ${settings.profile}`);
    return;
  }
  out.text(typeof value === 'boolean' ? String(value) : displayValue(key, value));
  if (source && source !== 'profile') out.info(`(${sourceLabel(key, source)})`);
}
