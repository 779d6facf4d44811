import type { Factory } from '../../../ops/factory.js';
import { parseUserBeforeKey } from '../../../ops/args.js';
import { compactJson, isJsonText, prettyJson } from '../../../ops/json-text.js';
import { notSaved, parseSaveKey } from '../../../ops/saves.js';
import { resolveUid } from '../../../ops/users.js';
import { csvLine } from '../../../output/csv.js';
import { jsonSafe, jsonText, printableLines } from '../../../printable.js';

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
  if (format === 'json') out.text(json ? jsonSafe(prettyJson(value)) : jsonText(value));
  else if (format === 'ndjson') out.text(json ? jsonSafe(compactJson(value)) : jsonText(value));
  else if (format === 'csv') out.text(`${csvLine(['key', 'value'])}${csvLine([key, value])}`.slice(0, -1));
  // Everywhere else the value as saved, the one rule applied: a JSON save is still the same JSON
  // value (its controls as \u escapes), any other shows its controls escaped. The exact
  // characters of any save: `-o json`, a JSON string.
  else out.text(json ? jsonSafe(prettyJson(value)) : printableLines(value.endsWith('\n') ? value.slice(0, -1) : value));
}
