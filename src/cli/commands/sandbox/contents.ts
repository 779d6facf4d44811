/**
 * What a sandbox holds, for `info` and `status`: asked of the sandbox over HTTP (GET
 * /_sandbox/contents), else read from its database file through the same function the endpoint
 * uses (src/sandbox/routes/contents.ts); undefined when there is no database yet (a first start
 * seeds the demo data) or the answer cannot be had. The reply comes from whatever answers at the
 * URL: it is read up to a bound, and its shape checked, before anything of it is used.
 */
import { existsSync } from 'node:fs';
import { reachableUrl } from './pidfile.js';
import type { PresentedContents } from '../../../sandbox/routes/contents.js';

/** A description is a few kilobytes; anything past this is not one. */
export const CONTENTS_MAX_BYTES = 4 * 1024 * 1024;

/** The body of a response, or undefined past `max` bytes (the rest is not read). */
export async function boundedText(response: Response, max: number): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const arrayOf = (v: unknown, each: (x: Record<string, unknown>) => boolean): boolean =>
  Array.isArray(v) && v.every((x) => typeof x === 'object' && x !== null && each(x as Record<string, unknown>));

/** The shape `info` and `status` print from, checked field by field. */
export function isContents(body: unknown): body is PresentedContents {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  const origin = b.origin as Record<string, unknown> | null | undefined;
  if (typeof origin !== 'object' || origin === null || !isString(origin.text) || !isString(origin.kind)) return false;
  const games = arrayOf(b.games, (g) =>
    isString(g.id) &&
    isString(g.name) &&
    isString(g.signing) &&
    isString(g.play_path) &&
    typeof g.launchable === 'boolean' &&
    arrayOf(g.keys, (k) => isString(k.api_key) && typeof k.partner === 'boolean' && typeof k.demo === 'boolean') &&
    arrayOf(g.achievements, (a) => isString(a.developer_id) && isString(a.name) && isNumber(a.target_value)) &&
    arrayOf(g.products, (p) => isString(p.sku) && isString(p.name) && isString(p.type) && isString(p.price)) &&
    isCount(g.achievement_count) &&
    isCount(g.product_count),
  );
  const users = arrayOf(b.users, (u) =>
    isString(u.username) &&
    isString(u.uid) &&
    typeof u.premium === 'boolean' &&
    isCount(u.friends) &&
    arrayOf(u.progress, (p) => isString(p.game_id) && isString(p.developer_id) && isNumber(p.current_value) && isNumber(p.target_value) && isString(p.state)) &&
    arrayOf(u.holdings, (h) => isString(h.game_id) && isString(h.item) && isNumber(h.units) && Array.isArray(h.skus) && h.skus.every(isString)),
  );
  const lists = Array.isArray(b.loaded_games) && b.loaded_games.every(isString) && Array.isArray(b.choices) && b.choices.every(isString);
  return games && users && lists && isCount(b.user_count) && (b.primary_game === null || isString(b.primary_game));
}

/** The description the sandbox at `url` gives, or undefined (not a sandbox, an older one, gone). */
export async function contentsAt(url: string): Promise<PresentedContents | undefined> {
  try {
    const response = await fetch(`${url.replace(/\/+$/, '')}/_sandbox/contents`, { signal: AbortSignal.timeout(3_000) });
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    const text = await boundedText(response, CONTENTS_MAX_BYTES);
    if (text === undefined) return undefined;
    const body: unknown = JSON.parse(text);
    return isContents(body) ? body : undefined;
  } catch {
    return undefined;
  }
}

/** The description of a database file, read in this process (no sandbox runs on it). */
export async function contentsOfFile(dbPath: string): Promise<PresentedContents | undefined> {
  if (dbPath === ':memory:' || !existsSync(dbPath)) return undefined;
  const [{ openDatabase }, { describeContents }] = await Promise.all([import('../../../sandbox/database.js'), import('../../../sandbox/routes/contents.js')]);
  const db = openDatabase(dbPath);
  try {
    return db.sqlite.transaction(() => describeContents(db))();
  } finally {
    db.close();
  }
}

/** The running sandbox's answer, else its database file's. */
export async function sandboxContents(dbPath: string, runningUrl: string | undefined): Promise<PresentedContents | undefined> {
  if (runningUrl !== undefined) {
    const asked = await contentsAt(reachableUrl(runningUrl));
    if (asked !== undefined) return asked;
  }
  return contentsOfFile(dbPath);
}
