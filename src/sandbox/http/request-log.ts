/**
 * The request log (issue 11): every request the app answered, kept in a ring of the last 1000
 * for `GET /_sandbox/requests`, and told as one text line each to whoever asked (the foreground
 * `sandbox start` prints them; a detached one's output is its log file).
 *
 * Cheap on the hot path: a request costs one small object in the ring; its time, path and
 * redacted query are worked out only when someone reads it (a form body's fields, redacted and
 * cut short, when the request ends), and lines (when wanted) are formatted and written together
 * a few milliseconds later (see batched).
 *
 * The agi handshake (docs/PLATFORM.md "Signing": every signed change is sent unsigned first, answered
 * by a 401 challenge, then retried signed) is shown as one request: the challenge and its retry
 * are linked by the challenge's session (request-notes.ts), the challenge's line waits for the
 * retry's and the two are written together and marked (request-line.ts), and the ring marks both,
 * so readers can fold the challenge into its retry. A challenge no signed retry answers stays a
 * plain 401: a client that cannot sign is a real failure. Not logged: the polling of
 * `/_sandbox/requests` itself, the pid probe `/_sandbox/status` and `/_sandbox/contents` (unless they fail), requests
 * Node could not parse (answered before any route), and requests whose connection was reset
 * before the reply went out.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { redactQuery, shownFormBody } from '../../redact.js';
import { STATUS_PATH } from '../constants.js';
import { formatRequestLine, type Handshake, type RequestRecord } from '../request-line.js';
import { ADMIN_PREFIX, registerAdminRoute } from './admin.js';
import { fail } from './failure.js';
import { parseQuery, splitTarget } from './query.js';
import { handshakeOf, reasonOf } from './request-notes.js';

export const REQUEST_LOG_CAPACITY = 1000;
export const REQUESTS_PATH = '/requests';
const DEFAULT_LIMIT = 100;

export interface LoggedRequest extends RequestRecord {
  /** 1 for the first request this sandbox answered, then one more each. */
  id: number;
  /** On a signed retry (`handshake: 'retry'`): the id of the challenge it answers. */
  challengeId?: number;
}

interface Entry {
  id: number;
  atMs: number;
  method: string;
  /** The target as sent (secrets in it are redacted when the entry is read). */
  url: string;
  /** A form body's fields as shown (redacted and cut when the request ends: the ring never holds a whole body). */
  body: string;
  status: number;
  ms: number;
  reason: string | null;
  /** `open`: a plain challenge waiting for its signed retry; then `challenge`. `retry`: that retry. */
  handshake?: 'open' | Handshake;
  /** On a retry: the challenge it answers. */
  answers?: Entry;
}

/** The two halves of the handshake a request may be (request-notes.ts): sessions, in memory only. */
interface HandshakeNotes {
  challenge?: string;
  signedWith?: string;
}

/**
 * Polled endpoints, and what `udcli sandbox status` and `info` read (`/_sandbox/contents`):
 * logging them would drown the requests a developer wants to see.
 */
const QUIET_PATHS = new Set([`${ADMIN_PREFIX}${REQUESTS_PATH}`, STATUS_PATH, `${ADMIN_PREFIX}/contents`]);

function isQuiet(url: string, status: number): boolean {
  if (status >= 400 || !url.startsWith(ADMIN_PREFIX)) return false;
  return QUIET_PATHS.has(splitTarget(url).path);
}

/**
 * The time of a line, ISO-8601 UTC: lines come in thousands a second, so the text up to the
 * second is worked out once a second and only the milliseconds are written each time.
 */
function isoTime(): (atMs: number) => string {
  let second = NaN;
  let prefix = '';
  return (atMs) => {
    if (!(Number.isInteger(atMs) && atMs >= 0)) return new Date(atMs).toISOString();
    const ms = atMs % 1000;
    if (atMs - ms !== second) {
      second = atMs - ms;
      // `…:SS.` before `mmmZ`, whatever the year's width.
      prefix = new Date(second).toISOString().slice(0, -4);
    }
    return `${prefix}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
  };
}

/** The last query redacted, and what it became: a client sends the same query (its api_key) again and again. */
function lastRedacted(): (query: string) => string {
  let given = '';
  let shown = '';
  return (query) => {
    if (query !== given) {
      shown = redactQuery(query);
      given = query;
    }
    return shown;
  };
}

const timeOf = isoTime();
const redactedQuery = lastRedacted();

function toRecord(entry: Entry): LoggedRequest {
  const { path, query } = splitTarget(entry.url);
  const record: LoggedRequest = {
    id: entry.id,
    time: timeOf(entry.atMs),
    method: entry.method,
    path,
    query: redactedQuery(query),
    body: entry.body,
    status: entry.status,
    ms: Math.round(entry.ms * 10) / 10,
    reason: entry.reason,
  };
  // Only when it has them (in this order: GET /_sandbox/requests shows them so).
  if (entry.handshake === 'challenge' || entry.handshake === 'retry') record.handshake = entry.handshake;
  if (entry.answers !== undefined) record.challengeId = entry.answers.id;
  return record;
}

export class RequestLog {
  private readonly ring: Array<Entry | undefined>;
  private lastId = 0;
  /** Plain challenges waiting for their signed retry, by session; the oldest go first beyond capacity. */
  private readonly open = new Map<string, Entry>();

  constructor(readonly capacity = REQUEST_LOG_CAPACITY) {
    this.ring = new Array<Entry | undefined>(capacity);
  }

  /** Stores the entry under the next id (one object per request: the hot path stays small). */
  add(entry: Entry, handshake?: HandshakeNotes): Entry {
    entry.id = ++this.lastId;
    this.ring[(entry.id - 1) % this.capacity] = entry;
    if (handshake === undefined) return entry;
    const challenge = handshake.signedWith === undefined ? undefined : this.open.get(handshake.signedWith);
    if (challenge !== undefined) {
      this.open.delete(handshake.signedWith!);
      challenge.handshake = 'challenge';
      entry.handshake = 'retry';
      entry.answers = challenge;
    }
    if (handshake.challenge !== undefined) {
      entry.handshake = 'open';
      this.open.set(handshake.challenge, entry);
      if (this.open.size > this.capacity) this.open.delete(this.open.keys().next().value!);
    }
    return entry;
  }

  /** Entries with id > since, the newest `limit` of them, oldest first. */
  list(since = 0, limit = DEFAULT_LIMIT): LoggedRequest[] {
    const first = Math.max(since + 1, this.lastId - this.capacity + 1, this.lastId - limit + 1, 1);
    const out: LoggedRequest[] = [];
    for (let id = first; id <= this.lastId; id++) out.push(toRecord(this.ring[(id - 1) % this.capacity]!));
    return out;
  }
}

/**
 * Lines are written in batches, off the requests' own path: a request only queues its entry; the
 * lines are formatted (time, redaction) and handed over in one piece LINE_FLUSH_MS after the first
 * of them was queued, or at once when LINE_BATCH entries wait: one write for many requests, where
 * one per turn of the event loop cost a write for every few. In order; what is queued when the app
 * closes is written.
 */
export const LINE_BATCH = 512;

/** How long a line waits for others to share its write: too short for a person watching to notice. */
export const LINE_FLUSH_MS = 20;

/**
 * How long a plain challenge's line waits for its signed retry's. The SDK retries 100 ms after the
 * challenge (200 and 300 ms for the next attempts); a retry later than this finds the challenge's
 * line written without a mark, and is still marked itself.
 */
export const CHALLENGE_HOLD_MS = 2000;

function batched(write: (text: string) => void, holdMs: number): { entry(entry: Entry): void; flush(): void } {
  let pending: Entry[] = [];
  let timer: NodeJS.Timeout | null = null;
  /**
   * Challenges' entries held back, each with when it is written alone, oldest first (each is held
   * as long as the others), so one timer for the oldest serves them all, not one timer each.
   */
  const held = new Map<Entry, number>();
  let sweeper: NodeJS.Timeout | null = null;
  const line = (entry: Entry) => `${formatRequestLine(toRecord(entry))}\n`;
  const release = (entry: Entry): string => (held.delete(entry) ? line(entry) : '');
  const sweep = () => {
    sweeper = null;
    // Lines of requests that ended before go out first, as they did when each turn wrote its own.
    flush();
    const now = Date.now();
    let text = '';
    for (const [entry, dueMs] of held) {
      if (dueMs > now) break;
      text += release(entry);
    }
    if (text !== '') write(text);
    // The flush may have armed it for a line just written: again, for the oldest still held.
    if (sweeper !== null) clearTimeout(sweeper);
    sweeper = null;
    armSweeper();
  };
  const armSweeper = () => {
    if (sweeper !== null) return;
    const oldest = held.values().next();
    if (oldest.done) return;
    sweeper = setTimeout(sweep, Math.max(0, oldest.value - Date.now()));
    // A held line never keeps the process alive; closing writes it (flushAll).
    sweeper.unref();
  };
  const hold = (entry: Entry) => {
    held.set(entry, Date.now() + holdMs);
    armSweeper();
  };
  const flush = () => {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    if (pending.length === 0) return;
    const entries = pending;
    pending = [];
    let text = '';
    for (const entry of entries) {
      if (entry.handshake === 'open') hold(entry);
      else {
        if (entry.answers !== undefined) text += release(entry.answers);
        text += line(entry);
      }
    }
    if (text !== '') write(text);
  };
  const flushAll = () => {
    flush();
    if (sweeper !== null) clearTimeout(sweeper);
    sweeper = null;
    let text = '';
    for (const entry of [...held.keys()]) text += release(entry);
    if (text !== '') write(text);
  };
  return {
    entry(entry) {
      pending.push(entry);
      if (pending.length >= LINE_BATCH) flush();
      else if (timer === null) timer = setTimeout(flush, LINE_FLUSH_MS);
    },
    flush: flushAll,
  };
}

function integerParam(request: FastifyRequest, name: string, min: number, max: number): number | undefined {
  const text = parseQuery(splitTarget(request.url).query).get(name);
  if (text === undefined) return undefined;
  const value = /^\d{1,10}$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) throw fail.invalidParameter(name, `expected an integer from ${min} to ${max}`);
  return value;
}

export interface RequestLogOptions {
  /** Receives whole lines (each ending in a newline), a batch at a time; unset = no lines. */
  lines?: (text: string) => void;
  capacity?: number;
  /** Default CHALLENGE_HOLD_MS. */
  challengeHoldMs?: number;
}

/**
 * The status logged for a request answered with no reply at all (an injected `reset`): nginx's
 * 444, "connection closed without response", so the line keeps its one shape.
 */
export const NO_REPLY_STATUS = 444;

/** Per app: logs a request whose reply was hijacked (Fastify runs no onResponse hook for it). */
const hijackLoggers = new WeakMap<FastifyInstance, (request: FastifyRequest, ms: number) => void>();

/** Logs a request that ends with its connection torn down and no reply (see NO_REPLY_STATUS). */
export function logWithoutReply(request: FastifyRequest, ms: number): void {
  hijackLoggers.get(request.server)?.(request, ms);
}

/** What the game host's listener shares of the main app's request log. */
export interface RequestLogging {
  log: RequestLog;
  /** Logs every request `other` answers too (the game host's listener), in the same ring and lines. */
  watch(other: FastifyInstance): void;
  /** Logs an upgrade request (which no Fastify hook sees) once its handshake is answered. */
  recordRaw(entry: { method: string; url: string; status: number; ms: number; reason: string | null }): void;
}

/** Logs every request the app answers and serves `GET /_sandbox/requests`. */
export function installRequestLog(app: FastifyInstance, options: RequestLogOptions = {}): RequestLogging {
  const log = new RequestLog(options.capacity);
  const out = options.lines ? batched(options.lines, options.challengeHoldMs ?? CHALLENGE_HOLD_MS) : null;

  // One object per request, built field by field (no spread: this runs for every request).
  const add = (
    method: string,
    url: string,
    body: string,
    status: number,
    ms: number,
    reason: string | null,
    handshake?: HandshakeNotes,
  ): void => {
    const entry: Entry = { id: 0, atMs: Date.now(), method, url, body, status, ms, reason };
    log.add(entry, handshake);
    if (out) out.entry(entry);
  };
  const record = (request: FastifyRequest, status: number, ms: number): void => {
    if (isQuiet(request.url, status)) return;
    const body = typeof request.body === 'string' && request.body !== '' ? shownFormBody(request.body) : '';
    add(request.method, request.url, body, status, ms, reasonOf(request), handshakeOf(request));
  };
  const watch = (target: FastifyInstance): void => {
    hijackLoggers.set(target, (request, ms) => record(request, NO_REPLY_STATUS, ms));
    target.addHook('onResponse', (request, reply, done) => {
      record(request, reply.statusCode, reply.elapsedTime);
      done();
    });
  };
  watch(app);
  // Lines still waiting when the sandbox stops are written, not lost.
  if (out) {
    app.addHook('onClose', (_app, done) => {
      out.flush();
      done();
    });
  }

  registerAdminRoute(app, {
    method: 'GET',
    path: REQUESTS_PATH,
    handler: (request) => {
      const since = integerParam(request, 'since', 0, 9_999_999_999) ?? 0;
      const limit = integerParam(request, 'limit', 1, REQUEST_LOG_CAPACITY) ?? DEFAULT_LIMIT;
      return { requests: log.list(since, limit) };
    },
  });
  return {
    log,
    watch,
    recordRaw: ({ method, url, status, ms, reason }) => add(method, url, '', status, ms, reason),
  };
}
