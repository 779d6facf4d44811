import type { Factory } from '../../../ops/factory.js';
import { parseUserBeforeKey } from '../../../ops/args.js';
import { compactJson, isJsonText, prettyJson } from '../../../ops/json-text.js';
import { notSaved, parseSaveKey } from '../../../ops/saves.js';
import { resolveUid } from '../../../ops/users.js';

export async function run(factory: Factory, args: { uid: string; key: string }): Promise<void> {
  const user = parseUserBeforeKey(args.uid, args.key, 'key', 'saves get');
  const key = parseSaveKey(args.key);
  const client = await factory.client();
  const uid = await resolveUid(client, user);
  const out = await factory.output();
  const reply = await out.spin(`Fetching save ${key}`, () => client.getSaves(uid, key));
  const value = reply.payload[key];
  if (typeof value !== 'string') throw notSaved(uid, key);
  if (factory.globals().raw) return out.raw(reply.bodyText);
  const json = isJsonText(value);
  // Only an explicit -o asks for JSON: piped or not, the value is what a script wants by default.
  const format = factory.globals().output;
  if (format === 'json') out.text(json ? prettyJson(value) : JSON.stringify(value));
  else if (format === 'ndjson') out.text(json ? compactJson(value) : JSON.stringify(value));
  else out.raw(json ? prettyJson(value) : value);
}
