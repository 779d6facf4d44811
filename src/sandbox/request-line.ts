/**
 * One logged request as `GET /_sandbox/requests` returns it, and as the one text line the
 * sandbox prints (and `udcli sandbox logs --json` reads back):
 *   2026-11-22T22:47:49.123Z GET /services/rest/v1/users/demo_player.json?uid=x 200 1.3ms
 * 2026-11-22T22:47:50.001Z POST /services/rest/v1/products/user/u.json?api_key=ABCD…WXYZ body:method=put&qty=1 401
 * 0.8ms bad signature (agi)
 * A form body's fields follow the target as `body:FIELDS` (redacted and shortened like the query).
 * The agi handshake (docs/PLATFORM.md "Signing") is one request in two lines, written together: the
 * unsigned change answered by the challenge, then its signed retry:
 * 2026-11-22T22:47:50.001Z POST /services/rest/v1/gamesave/u.json?api_key=ABCD…WXYZ body:… 401 0.4ms (signature
 * challenge, answered) signature required
 * 2026-11-22T22:47:50.104Z POST /services/rest/v1/gamesave/u.json?api_key=ABCD…WXYZ&sig=…&session=… body:… 200 1.3ms
 * (after signature challenge)
 * A challenge no signed retry answered has no mark: it is a failure like any other.
 * No field but the reason can hold a space (Node refuses a request target with one), so the
 * reason comes last and the line reads back exactly. Loads nothing: the CLI uses it too.
 * Nothing in a line reaches a terminal raw: the query and body stay percent-encoded (redacted
 * fragments re-encoded), and the target and the reason go through printable().
 */
import type { SandboxRequest } from './api/public.js';
import { printable } from '../printable.js';
import { redactUrl } from '../redact.js';

/** A request as one line holds it: the log's own id and a retry's link to its challenge are not in the line. */
export type RequestRecord = Omit<SandboxRequest, 'id' | 'challengeId'>;

export type Handshake = NonNullable<SandboxRequest['handshake']>;

const HANDSHAKE_MARK: Record<Handshake, string> = {
  challenge: '(signature challenge, answered)',
  retry: '(after signature challenge)',
};

/** The target as shown: a client sends the same one again and again, so the last is kept with what it became. */
let lastTarget: { path: string; query: string; body: string; shown: string } | null = null;

function shownTarget(record: RequestRecord): string {
  const last = lastTarget;
  if (last !== null && last.path === record.path && last.query === record.query && last.body === record.body) {
    return last.shown;
  }
  // An absolute-form target (`GET http://user:secret@host/ HTTP/1.1`) names its userinfo: redacted like every shown
  // URL.
  const path = redactUrl(record.path);
  const query = record.query === '' ? path : `${path}?${record.query}`;
  // A raw client may send bytes a percent-encoding client would not (Node reads a target's bytes as latin1: C1).
  const shown = printable(record.body === '' ? query : `${query} body:${record.body}`);
  lastTarget = { path: record.path, query: record.query, body: record.body, shown };
  return shown;
}

export function formatRequestLine(record: RequestRecord): string {
  const target = shownTarget(record);
  const reason = record.reason === null ? '' : ` ${printable(record.reason)}`;
  const mark = record.handshake === undefined ? '' : ` ${HANDSHAKE_MARK[record.handshake]}`;
  return `${record.time} ${record.method} ${target} ${record.status} ${record.ms}ms${mark}${reason}`;
}

// The mark, when there is one, comes before the reason. Reasons are the sandbox's own words (a
// game's messages begin "agi.v2"), so none begins with a mark's parenthesis.
const LINE =
  /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z) ([A-Z-]+) (\S+)(?: body:(\S+))? (\d{3}) (\d+(?:\.\d+)?)ms(?: \((signature challenge, answered|after signature challenge)\))?(?: (.+))?$/;

/** A request line read back; null for any other line of the log (start-up messages, errors). */
export function parseRequestLine(line: string): RequestRecord | null {
  const m = LINE.exec(line);
  if (!m) return null;
  const target = m[3]!;
  const q = target.indexOf('?');
  return {
    time: m[1]!,
    method: m[2]!,
    path: q === -1 ? target : target.slice(0, q),
    query: q === -1 ? '' : target.slice(q + 1),
    body: m[4] ?? '',
    status: Number(m[5]),
    ms: Number(m[6]),
    reason: m[8] ?? null,
    ...(m[7] === undefined ? {} : { handshake: m[7] === 'after signature challenge' ? 'retry' : 'challenge' }),
  };
}
