/**
 * Game saves (SERVICE.md: Game saves; docs/PLATFORM.md: the SDK's storage methods): the key and value
 * checks made before anything is sent, reading a value from the command line, a file or stdin
 * (bounded), and the player's auth token a save or an erase needs.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { ApiClient, EraseResult, Reply, SaveResult } from '../client/types.js';
import type { Settings } from '../config/types.js';
import { BUILT_IN_PROFILE } from '../config/resolve.js';
import { hasLoneSurrogate, isSaveKey, saveBytes, SAVE_LIMITS } from '../domain/contract.js';
import { normalizeHex32 } from '../domain/ids.js';
import { ApiError, UdcliError, UsageError } from '../errors.js';
import { printable } from '../printable.js';
import { redact, redactUrl } from '../redact.js';
import { parseHex32, quote, resolveGame } from './args.js';

/** The service's bounds (SERVICE.md: Game saves), checked here so a bad request is never sent. */
const { keyMaxLength: SAVE_KEY_MAX_LENGTH, valueMaxBytes: SAVE_VALUE_MAX_BYTES } = SAVE_LIMITS;

export { saveBytes };

/** A save's key: 1–64 of `A-Z a-z 0-9 _ . -`. */
export function parseSaveKey(value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError('missing key');
  if (!isSaveKey(value)) {
    const why =
      value.length > SAVE_KEY_MAX_LENGTH
        ? `${value.length} characters, at most ${SAVE_KEY_MAX_LENGTH}`
        : 'only A-Z a-z 0-9 _ . - are allowed';
    throw new UsageError(`invalid key ${quote(value)}: ${why}`, {
      hint: 'a save key is 1 to 64 of A-Z a-z 0-9 _ . -, e.g. slot1 or progress.v2',
    });
  }
  return value;
}

/** Checks a value to save: not empty, valid Unicode, at most 256 KiB of UTF-8. */
export function checkSaveValue(value: string, from: string): string {
  if (value === '')
    throw new UsageError(`empty value ${from}: the service saves 1 byte or more`, {
      hint: 'to remove a save, use `udcli saves erase <uid> <key>`',
    });
  if (hasLoneSurrogate(value)) throw new UsageError(`invalid value ${from}: not valid Unicode text`);
  const bytes = saveBytes(value);
  if (bytes > SAVE_VALUE_MAX_BYTES) throw tooLarge(from, `${bytes} bytes`);
  return value;
}

function tooLarge(from: string, size: string): UsageError {
  return new UsageError(
    `value too large ${from}: ${size} of UTF-8; a save holds at most ${SAVE_VALUE_MAX_BYTES} bytes (256 KiB)`,
  );
}

/**
 * The value argument of `saves set`: `-` reads standard input, `@FILE` a file, anything else is
 * the value itself. Reads at most one byte past the limit, so a huge file or an endless pipe
 * stops at once; a file must be UTF-8.
 */
export async function readSaveValue(
  arg: string,
  stdin: NodeJS.ReadableStream,
): Promise<{ value: string; from: string }> {
  if (arg === '-') {
    const from = 'from standard input';
    return { value: checkSaveValue(decodeUtf8(await readBounded(stdin, from), from), from), from };
  }
  if (arg.startsWith('@')) {
    const path = arg.slice(1);
    if (path === '') throw new UsageError('missing file name after @ (or give - to read standard input)');
    const from = `in ${path}`;
    return { value: checkSaveValue(decodeUtf8(readFileBounded(path, from), from), from), from };
  }
  return { value: checkSaveValue(arg, 'given'), from: 'given' };
}

async function readBounded(stream: NodeJS.ReadableStream, from: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Buffer);
    total += buf.length;
    if (total > SAVE_VALUE_MAX_BYTES) {
      // Stop reading: what is left is not ours to drain.
      (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      throw tooLarge(from, `more than ${SAVE_VALUE_MAX_BYTES} bytes`);
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

function readFileBounded(path: string, from: string): Buffer {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory' : (code ?? String(error))}`,
    );
  }
  try {
    const buf = Buffer.alloc(SAVE_VALUE_MAX_BYTES + 1);
    let total = 0;
    for (;;) {
      const n = readSync(fd, buf, total, buf.length - total, null);
      if (n === 0) break;
      total += n;
      if (total > SAVE_VALUE_MAX_BYTES) throw tooLarge(from, `more than ${SAVE_VALUE_MAX_BYTES} bytes`);
    }
    return buf.subarray(0, total);
  } catch (error) {
    if (error instanceof UdcliError) throw error;
    throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  } finally {
    closeSync(fd);
  }
}

function decodeUtf8(bytes: Buffer, from: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`invalid value ${from}: not UTF-8 text`);
  }
}

/** The saved value of one key, or null when nothing is saved under it. */
export async function readSave(client: ApiClient, uid: string, key: string): Promise<string | null> {
  const reply = await client.getSaves(uid, key);
  const value = reply.payload[key];
  return typeof value === 'string' ? value : null;
}

/** A 404 of the erase, when nothing is saved under the key, in the words of `saves get`. */
export function notSaved(uid: string, key: string): ApiError {
  return new ApiError(`not found: no save ${quote(key)} for user ${uid} in this game`, 404, 200, {
    hint: `\`udcli saves list ${uid}\` shows the user's saves`,
  });
}

/** A reply `{key, success: 0}`: the platform says it did not save (docs/PLATFORM.md). */
export function checkSaved<T extends SaveResult | EraseResult>(reply: Reply<T>, what: string): Reply<T> {
  const success = reply.payload?.success as unknown;
  if (success === 0 || success === '0' || success === false)
    throw new ApiError(`the service did not ${what} (success: 0)`, reply.envelope.code, reply.httpStatus);
  return reply;
}

export interface AuthTokenSource {
  token: string;
  /** How it was got: given (--auth-token, UDCLI_AUTH_TOKEN) or from the sandbox's token generator. */
  how: 'flag' | 'env' | 'sandbox';
}

/** `--auth-token T`, else UDCLI_AUTH_TOKEN; checked (32 hex digits) before anything is sent. */
export function givenAuthToken(flag: string | undefined, env: NodeJS.ProcessEnv): AuthTokenSource | null {
  if (flag !== undefined) return { token: parseHex32(flag, '--auth-token'), how: 'flag' };
  const fromEnv = env.UDCLI_AUTH_TOKEN;
  if (fromEnv !== undefined && fromEnv !== '') return { token: parseHex32(fromEnv, 'UDCLI_AUTH_TOKEN'), how: 'env' };
  return null;
}

const TOKEN_WAYS = 'pass --auth-token T or set UDCLI_AUTH_TOKEN (a token of that player for the game)';

/**
 * The player's token when none was given: against the sandbox the CLI logs in to the site as
 * the player and asks the token generator for one, as a developer would by hand. The built-in
 * `sandbox` profile is the sandbox; another profile is when its site answers the sandbox's
 * login with that player's token. Anywhere else a usage error (exit 2) naming both ways of
 * giving one; the save itself is never sent without a token.
 */
export async function sandboxAuthToken(
  client: ApiClient,
  settings: Pick<Settings, 'profile' | 'gameId' | 'siteUrl' | 'baseUrl'>,
  uid: string,
  trace: (line: string) => void,
): Promise<AuthTokenSource> {
  const builtIn = settings.profile === BUILT_IN_PROFILE;
  const gameId = resolveGame(undefined, settings, 'the token generator needs the game: set UDCLI_GAME_ID');
  try {
    const user = await client.getUser(uid);
    const username = String(user.payload.username ?? '');
    if (username === '') throw new UsageError(`the user ${uid} has no username to log in to the site with`);
    const cookie = await client.siteLogin(username);
    const { record } = await client.generateToken(gameId, cookie);
    const token = normalizeHex32(String(record.token ?? ''));
    if (!token || normalizeHex32(String(record.uid ?? '')) !== uid) {
      throw new UsageError("the site's token generator did not answer with a token of this user");
    }
    trace(`auth token for ${uid} in game ${gameId}: ${redact(token)} (sandbox login as ${username} + token generator)`);
    return { token, how: 'sandbox' };
  } catch (error) {
    // The sandbox's own answers (an unknown user, the network) stand as they are.
    if (builtIn) throw error;
    const why = error instanceof Error ? error.message : String(error);
    throw new UsageError(`no auth token for user ${uid}: ${TOKEN_WAYS}`, {
      hint: `without one, udcli gets a token only from a sandbox, and the site at ${redactUrl(settings.siteUrl ?? settings.baseUrl)} is not one (${why})`,
    });
  }
}

/** For a profile that is not the sandbox's and where no token was given: exit 2 at once. */
export function missingAuthToken(uid: string): UsageError {
  return new UsageError(`no auth token for user ${uid}: ${TOKEN_WAYS}`);
}

/** `12 bytes {"level":3,"hp":…}`: the size and the start of a value, on one line. */
export function savePreview(value: string | null, width = 40): string {
  if (value === null) return '(none)';
  const flat = value.replace(/\s+/g, ' ').trim();
  const shown = printable(flat.length > width ? `${flat.slice(0, width - 1)}…` : flat);
  const bytes = saveBytes(value);
  return `${bytes} byte${bytes === 1 ? '' : 's'} ${shown}`;
}
