import { SECRET_KEYS, displayValue, parseProfileKey, updateConfig, validateValue } from '../../../config/index.js';
import type { StoredProfile } from '../../../config/types.js';
import { recordPolicyChange } from './policy-trail.js';
import { UsageError } from '../../../errors.js';
import type { Factory } from '../../../ops/factory.js';
import { forgetImported, targetProfile, warnIfOverridden } from './target.js';

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += String(chunk);
  return text;
}

export async function run(factory: Factory, args: { key: string; value: string }): Promise<void> {
  const key = parseProfileKey(args.key);
  let raw = args.value;
  if (raw === '-') {
    raw = (await readAll(factory.io.stdin)).replace(/\r?\n$/, '');
    if (raw === '') throw new UsageError(`no value for ${key} on stdin`);
  }
  const value = validateValue(key, raw);
  let name = '';
  let before: StoredProfile | undefined;
  const written = await updateConfig(factory.io.env, (data) => {
    name = targetProfile(factory, data);
    before = data.profiles[name];
    data.profiles[name] = { ...data.profiles[name], [key]: value };
    forgetImported(data, name, key);
  });
  const shown = SECRET_KEYS.has(key) ? '-' : typeof value === 'boolean' ? String(value) : displayValue(key, value);
  await recordPolicyChange(factory, written.data, name, before, ['config', 'set', '--profile', name, key, shown]);
  const out = await factory.output();
  out.info(
    `Set ${key} of profile ${name} to ${typeof value === 'boolean' ? String(value) : displayValue(key, value)}.`,
  );
  warnIfOverridden(factory, out, key);
}
