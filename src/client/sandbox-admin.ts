/**
 * The client of the sandbox's own admin API, `/_sandbox/*` (plain JSON, never envelopes:
 * docs/ARCHITECTURE.md, "A new admin route"). The one place that sends to it, bounds and parses
 * the reply, checks its shape and says what went wrong. The reply types are src/domain's
 * (sandbox-admin-replies.ts), which the routes answer in, so nothing of the sandbox is imported
 * here. Which sandbox to ask is the caller's (src/cli/commands/sandbox/pidfile.ts and the
 * built-in profile know where one runs).
 *
 * Whatever answers at a URL may be no sandbox: every reply is read up to a bound and trusted only
 * in the sandbox's shape.
 */
import { UdcliError, UsageError } from '../errors.js';
import { printable } from '../printable.js';
import type {
  ClockReply,
  GameSourceEntry,
  GameSourceList,
  PresentedContents,
  ResetReply,
  StatusReply,
} from '../domain/sandbox-admin-replies.js';

export type { ClockReply, GameSourceEntry, GameSourceList, PresentedContents, ResetReply, StatusReply };

/** A description is a few kilobytes; anything past this is no sandbox's reply. */
export const CONTENTS_MAX_BYTES = 4 * 1024 * 1024;
const STATUS_MAX_BYTES = 64 * 1024;

interface AdminReply {
  status: number;
  ok: boolean;
  /** The parsed JSON; undefined when the body is not JSON or is past the bound. */
  body: unknown;
}

interface Sending {
  method?: 'GET' | 'POST' | 'PUT';
  body?: { text: string; type: 'application/json' | 'application/x-www-form-urlencoded' };
  timeoutMs: number;
  maxBytes?: number;
}

/** The body of a response, or undefined past `max` bytes (the rest is not read). */
async function boundedText(response: Response, max: number): Promise<string | undefined> {
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

/** Sends one admin request; throws what fetch throws when nothing answers (or not in time). */
async function ask(url: string, path: string, sending: Sending): Promise<AdminReply> {
  const { method = 'GET', body, timeoutMs, maxBytes = CONTENTS_MAX_BYTES } = sending;
  const response = await fetch(`${url.replace(/\/+$/, '')}/_sandbox${path}`, {
    method,
    ...(body === undefined ? {} : { body: body.text, headers: { 'content-type': body.type } }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await boundedText(response, maxBytes);
  let parsed: unknown;
  try {
    parsed = text === undefined ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, ok: response.ok, body: parsed };
}

/** The `message` of a refusal (`{status: false, code, message}`), when the reply has one: one line, escaped. */
function messageOf(body: unknown): string | undefined {
  const message = (body as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? printable(message) : undefined;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const arrayOf = (v: unknown, each: (x: Record<string, unknown>) => boolean): boolean =>
  Array.isArray(v) && v.every((x) => typeof x === 'object' && x !== null && each(x as Record<string, unknown>));

type Fields = Record<string, unknown>;

const isKey = (k: Fields) => isString(k.api_key) && typeof k.partner === 'boolean' && typeof k.demo === 'boolean';
const isQuest = (a: Fields) => isString(a.developer_id) && isString(a.name) && isNumber(a.target_value);
const isProduct = (p: Fields) => isString(p.sku) && isString(p.name) && isString(p.type) && isString(p.price);
const isProgress = (p: Fields) =>
  isString(p.game_id) &&
  isString(p.developer_id) &&
  isNumber(p.current_value) &&
  isNumber(p.target_value) &&
  isString(p.state);
const isHolding = (h: Fields) =>
  isString(h.game_id) && isString(h.item) && isNumber(h.units) && Array.isArray(h.skus) && h.skus.every(isString);

function isGame(g: Fields): boolean {
  const named = isString(g.id) && isString(g.name) && isString(g.signing) && isString(g.play_path);
  const launchable = typeof g.launchable === 'boolean';
  const lists = arrayOf(g.keys, isKey) && arrayOf(g.achievements, isQuest) && arrayOf(g.products, isProduct);
  return named && launchable && lists && isCount(g.achievement_count) && isCount(g.product_count);
}

function isUser(u: Fields): boolean {
  const who = isString(u.username) && isString(u.uid) && typeof u.premium === 'boolean' && isCount(u.friends);
  return who && arrayOf(u.progress, isProgress) && arrayOf(u.holdings, isHolding);
}

/** The shape `info` and `status` print from, checked field by field. */
export function isContents(body: unknown): body is PresentedContents {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Fields;
  const origin = b.origin as Fields | null | undefined;
  if (typeof origin !== 'object' || origin === null || !isString(origin.text) || !isString(origin.kind)) return false;
  const names = (v: unknown) => Array.isArray(v) && v.every(isString);
  const lists = names(b.loaded_games) && names(b.choices);
  const primary = b.primary_game === null || isString(b.primary_game);
  return arrayOf(b.games, isGame) && arrayOf(b.users, isUser) && lists && isCount(b.user_count) && primary;
}

/**
 * What the sandbox at `url` says of itself (`GET /_sandbox/status`); undefined when nothing, or no sandbox, answers.
 */
export async function sandboxStatus(url: string, timeoutMs = 1500): Promise<StatusReply | undefined> {
  try {
    const reply = await ask(url, '/status', { timeoutMs, maxBytes: STATUS_MAX_BYTES });
    const body = reply.body as Partial<StatusReply> | undefined;
    const sandbox = reply.ok && body?.service === 'udcli-sandbox' && typeof body.pid === 'number';
    return sandbox ? (body as StatusReply) : undefined;
  } catch {
    return undefined;
  }
}

/** What the sandbox at `url` holds (`GET /_sandbox/contents`), or undefined (not a sandbox, an older one, gone). */
export async function sandboxContentsAt(url: string): Promise<PresentedContents | undefined> {
  try {
    const reply = await ask(url, '/contents', { timeoutMs: 3_000 });
    return reply.ok && isContents(reply.body) ? reply.body : undefined;
  } catch {
    return undefined;
  }
}

/** A refusal of `/_sandbox/game-sources`, in the words `sandbox play` has always used. */
function gameSourceFailure(url: string, reply: AdminReply, listing: boolean): UdcliError {
  const message = messageOf(reply.body) ?? `HTTP ${reply.status}`;
  if (reply.status === 404 && listing) {
    return new UdcliError(`the sandbox at ${url} cannot serve games (${message})`, {
      hint: 'it is an older udcli: restart it with udcli sandbox stop, then udcli sandbox play',
    });
  }
  return new UsageError(
    `the sandbox at ${url} refused the game source: ${message}`,
    reply.status === 403
      ? { hint: 'stop it (udcli sandbox stop) and run this again, or start it with --allow-game-dir DIR' }
      : {},
  );
}

async function askGameSources(url: string, path: string, sending: Omit<Sending, 'timeoutMs'>): Promise<AdminReply> {
  let reply: AdminReply;
  try {
    reply = await ask(url, `/game-sources${path}`, { ...sending, timeoutMs: 5_000 });
  } catch (error) {
    throw new UdcliError(`the sandbox at ${url} did not answer`, { cause: error });
  }
  if (!reply.ok) throw gameSourceFailure(url, reply, path === '');
  return reply;
}

/**
 * What serves each game's play page (`GET /_sandbox/game-sources`). The body is as the sandbox
 * sent it (possibly not JSON: undefined): its entries are for the caller to check.
 */
export async function gameSources(url: string): Promise<Partial<GameSourceList> | undefined> {
  return (await askGameSources(url, '', {})).body as Partial<GameSourceList> | undefined;
}

/** Sets what serves a game's play page (`PUT /_sandbox/game-sources/{game_id}`). */
export async function setGameSource(
  url: string,
  gameId: string,
  source: Record<string, unknown>,
): Promise<GameSourceEntry | undefined> {
  const sending = { method: 'PUT', body: { text: JSON.stringify(source), type: 'application/json' } } as const;
  return (await askGameSources(url, `/${encodeURIComponent(gameId)}`, sending)).body as GameSourceEntry | undefined;
}

/**
 * The virtual clock (`GET /_sandbox/clock`), or moved by one form field (`POST`: `advance=901`, `set=…`, `reset=1`).
 */
export async function sandboxClock(url: string, field: string | null): Promise<ClockReply> {
  let reply: AdminReply;
  try {
    reply = await ask(url, '/clock', {
      ...(field === null ? {} : { method: 'POST', body: { text: field, type: 'application/x-www-form-urlencoded' } }),
      timeoutMs: 5_000,
    });
  } catch (error) {
    throw new UdcliError(`no sandbox answers at ${url}`, {
      hint: 'start one with `udcli sandbox start --detach`, or name its port with --port',
      cause: error,
    });
  }
  if (!reply.ok || typeof (reply.body as ClockReply | undefined)?.now !== 'string') {
    const message = messageOf(reply.body);
    throw new UdcliError(
      message !== undefined
        ? `the sandbox at ${url} refused: ${message}`
        : `${url} did not answer as a sandbox with a clock (HTTP ${reply.status})`,
    );
  }
  return reply.body as ClockReply;
}

/** Resets the running sandbox (`POST /_sandbox/reset`) with the form `form` (seed, or data and file). */
export async function resetSandbox(url: string, form: string): Promise<ResetReply> {
  let reply: AdminReply;
  try {
    const formBody = { text: form, type: 'application/x-www-form-urlencoded' } as const;
    reply = await ask(url, '/reset', { method: 'POST', body: formBody, timeoutMs: 60_000 });
  } catch (error) {
    throw new UdcliError(`no sandbox answers at ${url}; nothing was reset`, { cause: error });
  }
  const body = reply.body as Partial<ResetReply> | undefined;
  if (!reply.ok || body === undefined || !Array.isArray(body.games)) {
    throw new UdcliError(`the sandbox at ${url} did not reset: ${messageOf(reply.body) ?? `HTTP ${reply.status}`}`);
  }
  return body as ResetReply;
}
