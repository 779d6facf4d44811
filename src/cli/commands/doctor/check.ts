// Over 400 lines: one short check per line doctor prints, in the order it prints them.
import { statSync } from 'node:fs';
import { PROFILE_KEYS, readConfig } from '../../../config/index.js';
import type { Settings } from '../../../config/types.js';
import { parseEnvelope } from '../../../client/envelope.js';
import { ApiError, UdcliError } from '../../../errors.js';
import type { Column, Output, TextStyle } from '../../../output/types.js';
import { redact, redactUrl } from '../../../redact.js';
import { DEMO } from '../../../domain/demo.js';
import { TIMESTAMP_WINDOW_SECONDS } from '../../../domain/signing.js';
import type { Factory } from '../../../ops/factory.js';
import { sourceLabel } from '../profile/show.js';
import { confirmMutation } from '../../../ops/safety.js';
import type * as Http from 'node:http';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface Check {
  check: string;
  status: CheckStatus;
  detail: string;
}

/** Skew above this is worth a warning; above the signing window signed requests fail. */
export const CLOCK_WARN_SECONDS = 60;

const SYMBOL: Record<CheckStatus, string> = { ok: '✓', warn: '!', fail: '✗', skip: '-' };

export const CHECK_COLUMNS: ReadonlyArray<Column<Check>> = [
  { key: 'status', header: 'STATUS', cell: (c) => c.status },
  { key: 'check', header: 'CHECK', cell: (c) => c.check },
  { key: 'detail', header: 'DETAIL', cell: (c) => c.detail },
];

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function checkConfigFile(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Check {
  let loaded;
  try {
    loaded = readConfig(env);
  } catch (error) {
    return { check: 'config file', status: 'fail', detail: message(error) };
  }
  if (!loaded.exists) {
    return {
      check: 'config file',
      status: 'ok',
      detail: `none yet at ${loaded.path} (the built-in sandbox profile needs none)`,
    };
  }
  if (platform === 'win32') return { check: 'config file', status: 'ok', detail: loaded.path };
  const mode = statSync(loaded.path).mode & 0o777;
  const octal = mode.toString(8).padStart(4, '0');
  if (mode & 0o077) {
    return {
      check: 'config file',
      status: 'fail',
      detail: `${loaded.path} has mode ${octal}, expected 0600: chmod 600 ${loaded.path}`,
    };
  }
  return { check: 'config file', status: 'ok', detail: `${loaded.path} (mode ${octal})` };
}

/** "sandbox (built-in): base_url from env UDCLI_BASE_URL; others from the profile". */
export function describeProfile(s: Settings): string {
  const bySource = new Map<string, string[]>();
  for (const key of PROFILE_KEYS) {
    const source = s.sources[key];
    if (!source) continue;
    // The built-in profile's game and key come from the sandbox it follows, and why is said.
    const followed =
      s.followed !== undefined &&
      source === 'default' &&
      (key === 'game_id' || key === 'api_key' || key === 'signing_secret');
    const label = followed ? `the sandbox (${s.followed})` : sourceLabel(key, source);
    bySource.set(label, [...(bySource.get(label) ?? []), key]);
  }
  const parts = [...bySource].map(([label, keys]) => `${keys.join(', ')} from ${label}`);
  return `${s.profile}${s.builtInSandbox ? ' (built-in sandbox)' : ''}${s.production ? ' (production)' : ''}: ${parts.join('; ')}`;
}

export function checkClock(serverDate: string | null, nowMs: number): Check {
  if (!serverDate) return { check: 'clock', status: 'warn', detail: 'the server sent no Date header' };
  const serverMs = Date.parse(serverDate);
  if (Number.isNaN(serverMs))
    return { check: 'clock', status: 'warn', detail: `unreadable Date header ${JSON.stringify(serverDate)}` };
  // Date has whole seconds: a skew under a second is none.
  const skew = Math.trunc((nowMs - serverMs) / 1000);
  const text = `${skew > 0 ? 'ahead of' : skew < 0 ? 'behind' : 'in step with'} the server${skew ? ` by ${Math.abs(skew)} s` : ''}`;
  if (Math.abs(skew) > TIMESTAMP_WINDOW_SECONDS) {
    return {
      check: 'clock',
      status: 'fail',
      detail: `${text}: signed requests will be rejected (window ${TIMESTAMP_WINDOW_SECONDS} s)`,
    };
  }
  if (Math.abs(skew) > CLOCK_WARN_SECONDS)
    return { check: 'clock', status: 'warn', detail: `${text}: sync the system clock` };
  return { check: 'clock', status: 'ok', detail: text };
}

/**
 * The signing settings as written. An hmac secret that could not be tried (see verifySigning)
 * says why, plainly: `unverified` is the reason.
 */
export function checkSigning(s: Settings, unverified = 'no signed request was tried'): Check {
  if (s.signingScheme === 'agi')
    return {
      check: 'signing',
      status: 'ok',
      detail: 'agi: the server hands out the session and key to sign with (no secret needed)',
    };
  if (s.signingScheme === 'none')
    return { check: 'signing', status: 'ok', detail: 'signing_scheme none: requests are not signed' };
  if (!s.signingSecret) {
    return {
      check: 'signing',
      status: 'fail',
      detail: `${s.signingScheme} needs signing_secret: signed changes (achievements inc/set/reset, products give/take) will fail`,
    };
  }
  return {
    check: 'signing',
    status: 'ok',
    detail: `${s.signingScheme} with signing_secret ${redact(s.signingSecret)} (set; not verified: ${unverified})`,
  };
}

/**
 * The signed request doctor sends: a reset of a quest and for a uid both made up for the check.
 * The service checks the signature before it looks the user up (the sandbox's pipeline:
 * signature, then handler), so a right secret gets `not found` and a wrong one `bad signature`;
 * either way nothing changes, as there is nothing to reset.
 */
export const SIGNING_PROBE = {
  uid: '00000000000000000000000000000000',
  developerId: 'UDCLI_DOCTOR_SIGNING_PROBE',
} as const;

/**
 * A refusal's message in a line: the sandbox explains a bad signature at length (the canonical
 * string it expected, several lines); the detail keeps what was refused, `-v` shows the rest.
 */
function shortReason(text: string): string {
  const firstLine = text.split('\n')[0] ?? '';
  if (firstLine.length <= 80 && firstLine === text) return text;
  const cut = firstLine.indexOf(' (');
  return `${cut > 0 ? firstLine.slice(0, cut) : firstLine.slice(0, 80)} (the server's explanation: udcli doctor -v)`;
}

/** hmac-sha256-v1: one signed request that changes nothing tells whether the server takes the secret. */
export async function verifySigning(factory: Factory, s: Settings, gameId: string): Promise<Check> {
  const unverified = checkSigning(s);
  if (s.signingScheme !== 'hmac-sha256-v1' || !s.signingSecret) return unverified;
  const shown = `${s.signingScheme} with signing_secret ${redact(s.signingSecret)}`;
  try {
    const client = await factory.client();
    await client.changeUserAchievement(
      SIGNING_PROBE.uid,
      { type: 'Game', pid: gameId, developerId: SIGNING_PROBE.developerId },
      { reset: true },
    );
    // Only a server holding that made-up user and quest answers so: the signature was taken, and
    // something was reset after all, which must not pass as fine.
    return {
      check: 'signing',
      status: 'warn',
      detail: `${shown} accepted, but the check's reset of user ${SIGNING_PROBE.uid}, ${SIGNING_PROBE.developerId} was applied: that user exists there`,
    };
  } catch (error) {
    if (error instanceof ApiError && !error.withoutEnvelope) {
      const status = error.code >= 100 && error.code <= 599 ? error.code : error.httpStatus;
      if (status === 404) {
        return {
          check: 'signing',
          status: 'ok',
          detail: `${shown} accepted: a signed reset of a user that does not exist was answered "not found", not refused; nothing changed`,
        };
      }
      if (status === 401 || status === 403) {
        return {
          check: 'signing',
          status: 'fail',
          detail: `${shown} refused: ${shortReason(error.message)}: signed changes (achievements inc/set/reset, products give/take) will fail`,
        };
      }
    }
    return { check: 'signing', status: 'warn', detail: `${shown} (set; could not verify: ${message(error)})` };
  }
}

interface Probe {
  /** Something answered over HTTP. */
  reached: boolean;
  /** ... with the service's envelope. */
  ok: boolean;
  detail: string;
  date: string | null;
}

/** At most this much of a reply is read: an envelope is small, a web server's page may not be. */
const PROBE_BODY_LIMIT = 64 * 1024;

/**
 * One unauthenticated GET of the users service. The server is there only when the reply is the
 * service's envelope (any code): a web server's 404 page on that port is not the service.
 * node:http rather than fetch, which refuses some ports outright ("bad port").
 */
async function probe(baseUrl: string, timeoutMs: number): Promise<Probe> {
  const url = new URL(`${baseUrl}/services/rest/v1/users/${DEMO.user.uid}.json`);
  const { request } = (
    url.protocol === 'https:' ? process.getBuiltinModule('node:https') : process.getBuiltinModule('node:http')
  ) as typeof Http;
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(url, { method: 'GET', headers: { accept: 'application/json' }, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (body.length < PROBE_BODY_LIMIT) body += chunk;
      });
      res.on('end', () => {
        const ms = Math.round(performance.now() - started);
        const date = res.headers.date ?? null;
        const type = res.headers['content-type']?.split(';')[0]?.trim();
        if (parseEnvelope({ bodyText: body, headers: res.headers }) === null) {
          resolve({
            reached: true,
            ok: false,
            detail: `${redactUrl(baseUrl)} answered HTTP ${res.statusCode}${type ? ` (${type})` : ''}, which is not the service's envelope: check base_url`,
            date,
          });
          return;
        }
        resolve({
          reached: true,
          ok: true,
          detail: `${redactUrl(baseUrl)} answered in ${ms} ms (HTTP ${res.statusCode})`,
          date,
        });
      });
    });
    req.on('timeout', () =>
      req.destroy(Object.assign(new Error(`no reply within ${timeoutMs} ms`), { code: 'TIMEOUT' })),
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      resolve({
        reached: false,
        ok: false,
        detail: `${redactUrl(baseUrl)}: ${error.code === 'TIMEOUT' ? error.message : (error.code ?? error.message)}`,
        date: null,
      });
    });
    req.end();
  });
}

async function checkApiKey(factory: Factory, s: Settings): Promise<Check> {
  if (!s.apiKey) {
    return { check: 'api key', status: 'fail', detail: 'api_key is not set: udcli config set api_key KEY' };
  }
  const shown = redact(s.apiKey);
  try {
    const client = await factory.client();
    // friends requires a valid key: 401 means it was refused; 200 or 404 (no such user) that it was accepted.
    await client.getFriends(DEMO.user.uid, { limit: 1 });
    return { check: 'api key', status: 'ok', detail: `${shown} accepted` };
  } catch (error) {
    if (error instanceof ApiError && error.withoutEnvelope) {
      return { check: 'api key', status: 'fail', detail: `could not check ${shown}: ${error.message}` };
    }
    if (error instanceof ApiError) {
      // The envelope code decides (the real platform may send HTTP 200 with an error code).
      const status = error.code >= 100 && error.code <= 599 ? error.code : error.httpStatus;
      if (status === 404) return { check: 'api key', status: 'ok', detail: `${shown} accepted` };
      if (status === 401 || status === 403) {
        const { keyNotInSandbox } = await import('./sandbox-key.js');
        // The embedded sandbox's throw-away URL when one runs (DefaultFactory knows it).
        const effective = (factory as { effectiveBaseUrl?: () => string | undefined }).effectiveBaseUrl?.();
        const why = await keyNotInSandbox(effective ?? s.baseUrl, s.apiKey);
        return { check: 'api key', status: 'fail', detail: `${shown} refused: ${why ?? error.message}` };
      }
    }
    return { check: 'api key', status: 'fail', detail: `could not check ${shown}: ${message(error)}` };
  }
}

/** `forbidden: this api_key belongs to game 1001` → `1001`. */
function keysGame(text: string): string | null {
  return /belongs to game (\S+?)[.,;)]?(\s|$)/.exec(text)?.[1] ?? null;
}

/**
 * The key acts on its own game only (SERVICE.md: errors, 403): one read naming the profile's game
 * (its achievement definitions) tells whether the key is that game's, and a refusal names the
 * key's game, so the detail can say which is which.
 */
export async function checkGame(factory: Factory, s: Settings): Promise<Check> {
  if (s.gameId === undefined)
    return {
      check: 'game',
      status: 'warn',
      detail: 'no game_id: commands that act on a game need --game ID (udcli config set game_id ID)',
    };
  const from = sourceLabel('game_id', s.sources.game_id ?? 'profile');
  if (s.type === 'Website')
    return {
      check: 'game',
      status: 'skip',
      detail: `type Website (game_id ${s.gameId} from ${from}): keys belong to games`,
    };
  try {
    const client = await factory.client();
    await client.listAchievementDefinitions(s.gameId, { type: 'Game' });
    return {
      check: 'game',
      status: 'ok',
      detail: `the key acts on game ${s.gameId}, the profile's game_id (from ${from})`,
    };
  } catch (error) {
    if (error instanceof ApiError && !error.withoutEnvelope && (error.code === 403 || error.httpStatus === 403)) {
      const own = keysGame(error.message);
      return {
        check: 'game',
        status: 'fail',
        detail: `the key belongs to ${own ? `game ${own}` : 'another game'}, the profile's game_id is ${s.gameId} (from ${from}): every command on game ${s.gameId} will be refused (403)`,
      };
    }
    if (error instanceof ApiError && (error.code === 404 || error.httpStatus === 404) && !error.withoutEnvelope) {
      return {
        check: 'game',
        status: 'fail',
        detail: `game ${s.gameId} (game_id from ${from}) is not known to the service: ${error.message}`,
      };
    }
    return { check: 'game', status: 'warn', detail: `could not check game ${s.gameId}: ${message(error)}` };
  }
}

/** The signing check sends a signed change (a reset, of a made-up user): not to production unless asked. */
function sendsChange(s: Settings): boolean {
  return s.signingScheme === 'hmac-sha256-v1' && s.signingSecret !== undefined;
}

/** What doctor says instead of the signing check on production. */
export function skippedOnProduction(s: Settings): Check {
  return {
    check: 'signing',
    status: 'skip',
    detail: `skipped on production profile ${s.profile}: the check sends a signed change (a reset of user ${SIGNING_PROBE.uid}); run it on purpose with: udcli --profile ${s.profile} doctor --check-signing (asks for the profile name first)`,
  };
}

async function runChecks(factory: Factory, out: Output, opts: DoctorOptions): Promise<Check[]> {
  const checks: Check[] = [checkConfigFile(factory.io.env)];
  let settings: Settings;
  try {
    settings = await factory.settings();
  } catch (error) {
    checks.push({ check: 'profile', status: 'fail', detail: message(error) });
    for (const check of ['server', 'api key', 'game', 'signing', 'clock'])
      checks.push({ check, status: 'skip', detail: 'no usable profile' });
    return checks;
  }
  checks.push({ check: 'profile', status: 'ok', detail: describeProfile(settings) });
  const signingAllowed = !settings.production || opts.checkSigning === true || !sendsChange(settings);
  if (settings.production && opts.checkSigning && sendsChange(settings)) {
    // Before any request: the operator decides with nothing sent yet.
    await confirmMutation(
      factory,
      settings,
      `doctor --check-signing: one signed reset of achievement ${SIGNING_PROBE.developerId} of user ${SIGNING_PROBE.uid} (nothing changes unless that user exists) on ${redactUrl(settings.baseUrl)}`,
    );
  }

  const { timeoutMs } = factory.globals();
  const reached = await out.spin(`Contacting ${redactUrl(settings.baseUrl)}`, () => probe(settings.baseUrl, timeoutMs));
  let clock: Check;
  if (reached.ok) {
    checks.push({ check: 'server', status: 'ok', detail: reached.detail });
    clock = checkClock(reached.date, Date.now());
  } else if (settings.builtInSandbox && !reached.reached) {
    checks.push({
      check: 'server',
      status: 'warn',
      detail: `${reached.detail}; commands (this one too) start one there in the background on first use`,
    });
    clock = { check: 'clock', status: 'skip', detail: 'the sandbox runs on this machine' };
  } else {
    const why = reached.reached ? 'the server does not answer as the service' : 'server not reachable';
    checks.push({ check: 'server', status: 'fail', detail: reached.detail });
    checks.push({ check: 'api key', status: 'skip', detail: why });
    checks.push({ check: 'game', status: 'skip', detail: why });
    checks.push(checkSigning(settings, why));
    checks.push({ check: 'clock', status: 'skip', detail: why });
    return checks;
  }
  const key = await out.spin('Checking the api key', () => checkApiKey(factory, settings));
  checks.push(key);
  const game: Check =
    key.status === 'ok'
      ? await out.spin("Checking the key's game", () => checkGame(factory, settings))
      : { check: 'game', status: 'skip', detail: 'the api key was not accepted' };
  checks.push(game);
  if (!signingAllowed) {
    checks.push(skippedOnProduction(settings));
  } else if (game.status === 'ok' && settings.gameId !== undefined) {
    const gameId = settings.gameId;
    checks.push(await out.spin('Checking the signing secret', () => verifySigning(factory, settings, gameId)));
  } else {
    const why =
      key.status !== 'ok'
        ? 'the api key was not accepted'
        : settings.gameId === undefined
          ? 'no game_id to name in a signed request'
          : 'the game check did not pass';
    checks.push(checkSigning(settings, why));
  }
  checks.push(clock);
  return checks;
}

export interface DoctorOptions {
  checkSigning?: boolean;
}

export async function run(factory: Factory, opts: DoctorOptions = {}): Promise<void> {
  const out = await factory.output();
  const checks = await runChecks(factory, out, opts);
  if (out.format === 'table') {
    const colours: Record<CheckStatus, TextStyle> = { ok: 'green', warn: 'yellow', fail: 'red', skip: 'dim' };
    const width = Math.max(...checks.map((c) => c.check.length));
    for (const c of checks)
      out.styledLine([
        { text: SYMBOL[c.status], style: colours[c.status] },
        { text: ` ${c.check.padEnd(width)}  ${c.detail}` },
      ]);
  } else {
    await out.list(checks, CHECK_COLUMNS);
  }
  const failed = checks.filter((c) => c.status === 'fail').length;
  if (failed > 0) throw new UdcliError(`doctor: ${failed} of ${checks.length} checks failed`);
}
