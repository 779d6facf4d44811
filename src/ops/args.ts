// Over 400 lines: every argument parser of the data commands, one short function each, so their refusals read alike.
/**
 * Argument validation shared by the data commands. Every parser either returns the value in
 * the form the client sends or throws a UsageError (exit 2) with one clear line, so a handler
 * can check everything before a single request goes out.
 */
import { readdirSync } from 'node:fs';
import { UsageError } from '../errors.js';
import type { Settings } from '../config/types.js';
import type { QueryParams } from '../domain/signing.js';
import { isGameId } from '../domain/contract.js';
import { normalizeHex32 } from '../domain/ids.js';
import type { ParentType } from '../domain/types.js';
import { isSecretParam, redact } from '../redact.js';
import type { HttpMethod } from '../client/types.js';
import type { Column } from '../output/types.js';
import { dataCell } from '../output/fields.js';
import type { Factory } from './factory.js';
import { hasControl, jsonText } from '../printable.js';
import { CHANGES_SOURCE_DIR } from '../package-paths.js';

/** Shown in quotes inside error messages: control characters escaped, long values cut. */
export function quote(value: string): string {
  const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
  return jsonText(shown);
}

/*
 * The mutating commands (`achievements inc`), read from the names of the change declaration
 * files in src/cli/changes/ (`achievements-inc.ts`, one a verb: src/cli/change-registry.ts), so
 * this layer names them (the @FILE hint) without loading any, nor a module more at start-up.
 */

/** A declaration's file name: `achievements-inc.js` (`.ts` when run from the sources). */
export const DECLARATION_FILE = /^([a-z]+)-([a-z][a-z-]*)\.(?:js|ts)$/;

/** The built file's list of src/cli/changes/, made by scripts/build.js (there is no folder to read then). */
declare const UDCLI_DECLARATION_FILES: readonly string[] | undefined;

/** The declaration files, in name order: [file, noun, verb]. */
export function declarationFiles(): RegExpExecArray[] {
  const names =
    typeof UDCLI_DECLARATION_FILES === 'undefined' ? readdirSync(CHANGES_SOURCE_DIR) : UDCLI_DECLARATION_FILES;
  return [...names]
    .sort()
    .map((name) => DECLARATION_FILE.exec(name))
    .filter((m): m is RegExpExecArray => m !== null);
}

/** `achievements delete|inc, products give|take and saves erase|set`: the commands that take @FILE, by noun. */
export function batchCommandsPhrase(batchVerbs: ReadonlyArray<readonly [noun: string, verb: string]>): string {
  const byNoun = new Map<string, string[]>();
  for (const [noun, verb] of batchVerbs) byNoun.set(noun, [...(byNoun.get(noun) ?? []), verb]);
  const parts = [...byNoun].map(([noun, verbs]) => `${noun} ${verbs.join('|')}`);
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? '');
}

/**
 * `@FILE` where a command takes one user: batch input is for the declared changes only, every
 * one of which takes it (docs/CLI.md "Batch mode"); they are named from their declaration files.
 */
function rejectBatchInput(value: string, command: string): void {
  if (value.startsWith('@')) {
    const changes = declarationFiles().map((m) => [m[1]!, m[2]!] as const);
    throw new UsageError(
      `batch input (@FILE) is not supported by \`udcli ${command}\`; it works with ${batchCommandsPhrase(changes)}`,
    );
  }
}

/** A 32-hex-digit uid in lower case. Anything else is a usage error pointing at `udcli user`. */
export function parseUid(value: string | undefined, name = 'uid', command?: string): string {
  if (value === undefined || value === '') {
    throw new UsageError(`missing ${name}: expected 32 hex digits`);
  }
  const uid = normalizeHex32(value.trim());
  if (uid) return uid;
  if (command) rejectBatchInput(value, command);
  const looksLikeName = /^[^\s/?#]+$/.test(value) && !/^[0-9a-f]+$/i.test(value);
  throw new UsageError(`invalid ${name} ${quote(value)}: expected 32 hex digits`, {
    hint: looksLikeName
      ? `use \`udcli user ${value}\` to find the uid of a username`
      : 'a uid is 32 hex digits, e.g. 01e528d59829836fd23b09085b56edab; `udcli user <name>` finds one',
  });
}

/**
 * The uid of a `<uid> <key>` command (`achievements inc <uid> <developer_id>`). When the first
 * argument is no uid but the second is one, they were typed the wrong way round: say that,
 * rather than "invalid uid LEVEL_10".
 */
export function parseUidBeforeKey(uidArg: string, keyArg: string, keyName: string, command?: string): string {
  if (normalizeHex32(uidArg.trim()) === null && normalizeHex32(keyArg.trim()) !== null) {
    throw new UsageError(
      `arguments look swapped: ${quote(keyArg)} is a uid and ${quote(uidArg)} looks like the ${keyName}`,
      {
        hint: `the uid comes first${command ? `: udcli ${command} ${keyArg.trim()} ${uidArg}` : ''}`,
      },
    );
  }
  return parseUid(uidArg);
}

/** A user as a command names it: a uid, or a username looked up once (src/ops/users.ts). */
export type UserArg = { uid: string } | { username: string };

/** How a message names the user: the uid, or the username as typed. */
export const userLabel = (user: UserArg): string => ('uid' in user ? user.uid : user.username);

/** A name (no spaces, slashes, ? or #, not only hex digits, no controls): what is taken as a username. */
function isUsernameShaped(value: string): boolean {
  return (
    value !== '' &&
    !value.startsWith('@') &&
    /^[^\s/?#]+$/.test(value) &&
    !/^[0-9a-f]+$/i.test(value) &&
    !hasControl(value)
  );
}

/**
 * A studio's key as studios write them and usernames are not: UPPER_SNAKE (`LEVEL_10`,
 * `FIRST_WIN`), a pack sku (`gems:500`), or text no username can be (`SPEED RUN/100%`). A
 * lower-case key such as `xp-boost` looks like a username too: that order cannot be told
 * without asking the server, and a lookup is a request.
 */
function looksLikeKey(value: string): boolean {
  const text = value.trim();
  // Hex digits alone are a uid cut short (`abc123`): "invalid uid" says more than a swap.
  if (text === '' || text.startsWith('@') || /^[0-9a-f]+$/i.test(text) || hasControl(text)) return false;
  return /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(text) || /^[^\s:]+:\d+$/.test(text) || !isUsernameShaped(text);
}

/** A username as people write them, which keys are not: a name with a lower-case letter. */
function looksLikeUsername(value: string): boolean {
  return isUsernameShaped(value) && /[a-z]/.test(value) && !looksLikeKey(value);
}

/**
 * A user argument: 32 hex digits is a uid; a name (no spaces, slashes, ? or #, not only hex
 * digits) a username; anything else the "invalid uid" error of parseUid.
 */
export function parseUserArg(value: string | undefined, name = 'uid', command?: string): UserArg {
  const uid = value === undefined ? null : normalizeHex32(value.trim());
  if (uid) return { uid };
  if (value !== undefined && isUsernameShaped(value)) return { username: value };
  return { uid: parseUid(value, name, command) };
}

/**
 * Refuses `<user> <key>` arguments typed the wrong way round, in each form the user takes: a
 * uid (certain, see parseUidBeforeKey), `@FILE` (certain: only the user's place takes one), a
 * username after a key-shaped first argument (`reset LEVEL_10 alice`; a username written like a
 * key goes by its uid, which the hint says). Checks nothing else: run before anything that could
 * fail for a reason the swap explains (the batch options, the user's own form).
 */
export function rejectSwapped(userArg: string, keyArg: string, keyName: string, command?: string, batch = false): void {
  if (normalizeHex32(userArg.trim()) === null && normalizeHex32(keyArg.trim()) !== null)
    parseUidBeforeKey(userArg, keyArg, keyName, command);
  const right = command ? `: udcli ${command} ${keyArg.trim()} ${quoteArg(userArg)}` : '';
  if (batch && !userArg.startsWith('@') && keyArg.startsWith('@') && keyArg.length > 1) {
    throw new UsageError(
      `arguments look swapped: ${quote(keyArg)} is a batch input (@FILE) and ${quote(userArg)} looks like the ${keyName}`,
      {
        hint: `@FILE comes first, in the user's place${right}`,
      },
    );
  }
  if (looksLikeKey(userArg) && looksLikeUsername(keyArg)) {
    throw new UsageError(
      `arguments look swapped: ${quote(keyArg)} looks like a username and ${quote(userArg)} like the ${keyName}`,
      {
        hint: `the user comes first${right}${isUsernameShaped(userArg) ? ` (if ${userArg} is the username, give its uid: udcli user ${userArg})` : ''}`,
      },
    );
  }
}

/** parseUserArg for `<user> <key>` commands, saying when the two look swapped (rejectSwapped). */
export function parseUserBeforeKey(
  userArg: string,
  keyArg: string,
  keyName: string,
  command?: string,
  batch = false,
): UserArg {
  rejectSwapped(userArg, keyArg, keyName, command, batch);
  return parseUserArg(userArg, 'uid', command);
}

/** An argument as a shell line shows it: single-quoted when it holds a space or a shell character. */
function quoteArg(value: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/** A 32-hex-digit id such as user_id or auth_token, without the username hint. */
export function parseHex32(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new UsageError(`missing ${name}: expected 32 hex digits`);
  const id = normalizeHex32(value.trim());
  if (!id) throw new UsageError(`invalid ${name} ${quote(value)}: expected 32 hex digits`);
  return id;
}

export type UserRef = { kind: 'uid'; uid: string } | { kind: 'username'; username: string };

/** `user <uid|username>`: 32 hex digits is a uid, anything else (or --username) a username. */
export function parseUserRef(value: string, forceUsername = false): UserRef {
  if (!forceUsername) rejectBatchInput(value, 'user');
  if (!forceUsername) {
    const uid = normalizeHex32(value.trim());
    if (uid) return { kind: 'uid', uid };
  }
  if (value.trim() === '') throw new UsageError('missing username: give a uid (32 hex digits) or a username');
  if (hasControl(value)) throw new UsageError(`invalid username ${quote(value)}: control characters`);
  return { kind: 'username', username: value };
}

/**
 * A studio-chosen key such as a developer_id or sku, sent as a query parameter: any text
 * (`SPEED RUN/100%` and `héros+épée` are real keys) but not blank and no control characters.
 */
export function parseKey(value: string | undefined, name: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`missing ${name}`);
  if (hasControl(value)) throw new UsageError(`invalid ${name} ${quote(value)}: must not contain control characters`);
  return value;
}

/** A game id: a path element of several endpoints, so no whitespace, `/`, `?`, `#` or `\\`. */
export function parseGameId(value: string, name = 'game id'): string {
  const id = parseKey(value, name);
  if (/[\s/?#\\]/.test(id))
    throw new UsageError(`invalid ${name} ${quote(value)}: must not contain spaces, / ? # or \\`);
  return id;
}

/**
 * A game id of the sandbox, which takes only the contract's form (letters, digits, - _ ., at
 * most 64): stricter than parseGameId, which leaves the real platform's ids to the platform.
 */
export function parseSandboxGameId(value: string): string {
  if (!isGameId(value))
    throw new UsageError(`invalid game id ${JSON.stringify(value.slice(0, 80))}: letters, digits, - _ .`);
  return value;
}

/** An integer written in decimal, within [min, max]. */
export function parseInteger(value: string | number, name: string, range: { min?: number; max?: number } = {}): number {
  const text = String(value).trim();
  const { min, max } = range;
  const bounds =
    min !== undefined && max !== undefined
      ? ` from ${min} to ${max}`
      : min !== undefined
        ? ` ≥ ${min}`
        : max !== undefined
          ? ` ≤ ${max}`
          : '';
  if (!/^[+-]?\d+$/.test(text)) throw new UsageError(`invalid ${name} ${quote(text)}: expected an integer${bounds}`);
  const n = Number(text);
  if (!Number.isSafeInteger(n) || (min !== undefined && n < min) || (max !== undefined && n > max)) {
    throw new UsageError(`invalid ${name} ${quote(text)}: expected an integer${bounds}`);
  }
  return n;
}

/** parseInteger for an optional option value. */
export function optionalInteger(
  value: string | undefined,
  name: string,
  range: { min?: number; max?: number } = {},
): number | undefined {
  return value === undefined ? undefined : parseInteger(value, name, range);
}

/**
 * Achievement progress: a fraction 0..1 (`0.5`, `.25`, `1`) or a percentage `0%`..`100%`
 * (`75%`, `12.5%`). Returns the fraction the service takes.
 */
export function parseProgress(value: string): number {
  const text = value.trim();
  const pct = /^(\d+(?:\.\d*)?|\.\d+)%$/.exec(text);
  if (pct) {
    const n = Number(pct[1]);
    if (n > 100) throw new UsageError(`invalid progress ${quote(value)}: a percentage must be from 0% to 100%`);
    return n / 100;
  }
  if (/^(\d+(?:\.\d*)?|\.\d+)$/.test(text)) {
    const n = Number(text);
    if (n <= 1) return n;
  }
  throw new UsageError(
    `invalid progress ${quote(value)}: expected a fraction from 0 to 1 (e.g. 0.5) or a percentage (e.g. 75%)`,
  );
}

/** `Game` or `Website`, any case. */
export function parseParentType(value: string, name = 'type'): ParentType {
  const lower = value.trim().toLowerCase();
  if (lower === 'game') return 'Game';
  if (lower === 'website') return 'Website';
  throw new UsageError(`invalid ${name} ${quote(value)}: expected Game or Website`);
}

/** One of a fixed set of values (compared case-insensitively, returned as listed). */
export function parseChoice<T extends string>(value: string, name: string, choices: readonly T[]): T {
  const found = choices.find((c) => c.toLowerCase() === value.trim().toLowerCase());
  if (found === undefined)
    throw new UsageError(`invalid ${name} ${quote(value)}: expected one of ${choices.join(', ')}`);
  return found;
}

/** Throws when more than one of the named options was given. */
export function exclusive(opts: Record<string, unknown>, ...names: string[]): void {
  const given = names.filter((n) => opts[n] !== undefined && opts[n] !== false);
  if (given.length > 1) {
    throw new UsageError(`${given.map(flag).join(' and ')} cannot be used together`);
  }
}

/** `offset` → `--offset`, `developerId` → `--developer-id`. */
export function flag(optionName: string): string {
  return `--${optionName.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/**
 * The game a command works on: the explicit one, else the profile's game_id. With neither, a
 * usage error before anything is sent (docs/CLI.md "Commands").
 */
export function resolveGame(
  explicit: string | undefined,
  settings: Pick<Settings, 'gameId'>,
  howToPass: string,
): string {
  if (explicit !== undefined) return parseGameId(explicit);
  if (settings.gameId !== undefined && settings.gameId !== '')
    return parseGameId(settings.gameId, 'game_id in the profile');
  throw new UsageError(`no game: ${howToPass} or set game_id in the profile`, {
    hint: 'udcli config set game_id <id>   (or set UDCLI_GAME_ID)',
  });
}

/** `-f name=value` pairs of `udcli api`, in the order given. */
export function parseFieldPairs(values: readonly string[]): Array<[string, string]> {
  return values.map((v) => {
    const eq = v.indexOf('=');
    if (eq <= 0) throw new UsageError(`invalid field ${quote(v)}: expected name=value`);
    return [v.slice(0, eq), v.slice(eq + 1)];
  });
}

export const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'DELETE'];

export interface ApiPath {
  path: string;
  /** Parameters written after `?` in the path argument. */
  query: Array<[string, string]>;
  /** The site (login, token generator) rather than the REST service. */
  base: 'api' | 'site';
}

/**
 * The path argument of `udcli api`: relative to the base URL, leading `/` optional; anything not
 * under /services/, /service/ or /login is taken as a REST path and gets /services/rest/v1/.
 */
export function parseApiPath(value: string): ApiPath {
  const text = value.trim();
  if (text === '') throw new UsageError('missing path, e.g. users/01e528d59829836fd23b09085b56edab.json');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    throw new UsageError(`invalid path ${quote(value)}: give a path relative to the base URL`, {
      hint: 'use --base-url (or the profile) to choose the server',
    });
  }
  if (hasControl(text) || /\s/.test(text) || text.includes('#')) {
    throw new UsageError(`invalid path ${quote(value)}: must not contain spaces, control characters or #`);
  }
  const q = text.indexOf('?');
  let path = q < 0 ? text : text.slice(0, q);
  const query: Array<[string, string]> = q < 0 ? [] : [...new URLSearchParams(text.slice(q + 1))];
  if (!path.startsWith('/')) path = `/${path}`;
  if (hasDotSegment(path)) {
    throw new UsageError(
      `invalid path ${quote(value)}: must not contain . or .. segments, written out or percent-encoded; nothing was sent`,
    );
  }
  const site = path.startsWith('/service/') || path === '/login' || path.startsWith('/login/');
  if (!site && !path.startsWith('/services/')) path = `/services/rest/v1${path}`;
  return { path, query, base: site ? 'site' : 'api' };
}

/**
 * Does the path hold a `.` or `..` segment as some server on the way may read it? A front end
 * (nginx, any WHATWG URL parser) decodes `%2e` and resolves dot segments before routing, so
 * `service/%2e%2e/services/...` would leave the site for the service unseen by the guard. Read
 * here as the most lenient reader would: percent-decoding repeated until nothing changes (a
 * proxy may decode once and the server again), `\` as a separator (WHATWG URLs), a segment's
 * `;parameters` dropped (`..;x` is `..` to some servers).
 */
function hasDotSegment(path: string): boolean {
  let decoded = path;
  for (;;) {
    // Each round removes two characters per escape: it ends.
    const next = decoded.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === decoded) break;
    decoded = next;
  }
  return decoded.split(/[/\\]/).some((segment) => {
    const name = segment.split(';')[0];
    return name === '.' || name === '..';
  });
}

/**
 * A canonical string (METHOD\npath\nquery) with every secret parameter's value redacted, for
 * --dry-run. Idempotent: redacting an already-redacted string changes nothing.
 */
export function redactCanonical(canonical: string): string {
  const lines = canonical.split('\n');
  if (lines.length < 3) return canonical;
  const query = lines.slice(2).join('\n');
  const redacted = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const name = safeDecode(pair.slice(0, eq));
      if (!isSecretParam(name)) return pair;
      return `${pair.slice(0, eq)}=${redact(safeDecode(pair.slice(eq + 1)))}`;
    })
    .join('&');
  return [lines[0], lines[1], redacted].join('\n');
}

/** ISO 8601 (UTC, seconds) from Unix seconds given as a number or a numeric string; '' otherwise. */
/**
 * A date of the service's (`YYYY-MM-DD HH:MM:SS`, UTC) in the one form every table shows dates
 * in, ISO 8601 (`2024-05-01T10:05:00Z`, as isoFromSeconds); other text as it came. JSON keeps the
 * service's value.
 */
export function isoFromServiceDate(value: string): string {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(value.trim());
  return m === null ? value : `${m[1]}T${m[2]}Z`;
}

export function isoFromSeconds(value: unknown): string {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isFinite(n)) return '';
  const d = new Date(n * 1000);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().replace('.000Z', 'Z');
}

/**
 * A cell of a command's own column: as dataCell, but `false` blank too, which is how the platform
 * says "none" in a field that otherwise holds text or a number (SERVICE.md: Tolerance).
 */
export function cellText(value: unknown): string {
  return value === false ? '' : dataCell(value);
}

/** True when any parameter named `name` is present. */
export function hasParam(params: QueryParams, name: string): boolean {
  return params.some(([n]) => n === name);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Prints one reply: the body exactly as received with --raw, else the payload as an item.
 * Shared by the data commands so --raw behaves the same everywhere.
 */
export async function printItem<T extends object>(
  factory: Pick<Factory, 'globals' | 'output'>,
  reply: { payload: T; bodyText: string },
  columns: ReadonlyArray<Column<T>>,
): Promise<void> {
  const out = await factory.output();
  if (factory.globals().raw) out.raw(reply.bodyText);
  else out.item(reply.payload, columns);
}

/** printItem for a list payload. */
export async function printList<T extends object>(
  factory: Pick<Factory, 'globals' | 'output'>,
  reply: { payload: T[]; bodyText: string },
  columns: ReadonlyArray<Column<T>>,
): Promise<void> {
  const out = await factory.output();
  if (factory.globals().raw) out.raw(reply.bodyText);
  else await out.list(reply.payload ?? [], columns);
}

/** --raw prints one reply as received; a command that pages through many cannot honour it. */
export function rejectRawWithAll(factory: Pick<Factory, 'globals'>, all: boolean | undefined): void {
  if (all && factory.globals().raw) {
    throw new UsageError('--raw prints one reply as received and cannot be combined with --all', {
      hint: 'page with --limit/--offset, or drop --raw',
    });
  }
}

/** `--game` and `--type` as commander hands them over: the game (or website) of an achievement or a product. */
export interface ScopeOptions {
  game?: string;
  type?: string;
}
