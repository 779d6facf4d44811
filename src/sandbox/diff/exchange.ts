/**
 * A HAR entry as a platform exchange, whoever wrote the recording (udcli's --har, Chromium's and
 * Firefox's developer tools, Playwright's recordHar): the request's method, path, query and form
 * fields (`postData.params` or `postData.text`), and the reply's status, type and text
 * (`content.encoding: "base64"` decoded). Entries that are not platform exchanges say why.
 */
import { xmlTree } from './xml-tree.js';

export const PLATFORM_PREFIX = '/services/rest/v1/';
/** A reply body longer than this is compared by its start only (a recording never makes the diff hold more). */
export const MAX_REPLY_CHARS = 8 * 1024 * 1024;

export type Pairs = Array<[string, string]>;

export interface PlatformExchange {
  index: number;
  host: string;
  /** As recorded: GET or POST (with a `method=` override), PUT, DELETE. */
  method: string;
  /** From the origin: `/services/rest/v1/users/<uid>.json`. */
  path: string;
  query: Pairs;
  /** Form fields of the body. */
  body: Pairs;
  /**
   * `recorded: false`: the recording has no body for it (browsers and their sanitized exports may
   * leave bodies out); `text` is then empty, and stands for nothing the platform said.
   */
  reply: { status: number; mimeType: string; text: string; recorded: boolean };
}

export type Classified =
  | { kind: 'platform'; exchange: PlatformExchange }
  | { kind: 'skip'; reason: string; host?: string };

const asRecord = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const asString = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function decode(raw: string): string {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return raw;
  }
}

export function parseForm(text: string): Pairs {
  const out: Pairs = [];
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    out.push(eq === -1 ? [decode(part), ''] : [decode(part.slice(0, eq)), decode(part.slice(eq + 1))]);
  }
  return out;
}

function bodyFields(request: Record<string, unknown>): Pairs {
  const post = asRecord(request.postData);
  if (Array.isArray(post.params) && post.params.length > 0) {
    return post.params.map(
      (p) => [String(asRecord(p).name ?? ''), String(asRecord(p).value ?? '')] as [string, string],
    );
  }
  const text = asString(post.text);
  if (text === undefined) return [];
  const mime = asString(post.mimeType) ?? '';
  return /x-www-form-urlencoded/i.test(mime) || (mime === '' && !/^\s*[{[<]/.test(text)) ? parseForm(text) : [];
}

/**
 * Whether the recording holds the reply's body: `text` present (`""` for an empty one), or no
 * text and a size of 0 (an empty reply as Chromium writes it). No text with a size above 0 or
 * none at all: the body was left out.
 */
function bodyRecorded(content: Record<string, unknown>): boolean {
  return typeof content.text === 'string' || content.size === 0;
}

function replyText(content: Record<string, unknown>): string {
  const text = asString(content.text) ?? '';
  const shown = text.length > MAX_REPLY_CHARS ? text.slice(0, MAX_REPLY_CHARS) : text;
  if (content.encoding === 'base64') return Buffer.from(shown, 'base64').toString('utf8');
  return shown;
}

export function classify(entry: Record<string, unknown>, index: number): Classified {
  const request = asRecord(entry.request);
  const response = asRecord(entry.response);
  const method = (asString(request.method) ?? '').toUpperCase();
  let url: URL;
  try {
    url = new URL(asString(request.url) ?? '');
  } catch {
    return { kind: 'skip', reason: 'the request has no URL' };
  }
  const at = url.pathname.indexOf(PLATFORM_PREFIX);
  if (at === -1) return { kind: 'skip', reason: 'not a platform path', host: url.host };
  if (method === 'OPTIONS') return { kind: 'skip', reason: 'a CORS preflight', host: url.host };
  const status = typeof response.status === 'number' ? response.status : 0;
  if (status === 0) return { kind: 'skip', reason: 'no reply was recorded (status 0)', host: url.host };
  const content = asRecord(response.content);
  const headerType = Array.isArray(response.headers)
    ? asString(asRecord(response.headers.find((h) => String(asRecord(h).name).toLowerCase() === 'content-type')).value)
    : undefined;
  return {
    kind: 'platform',
    exchange: {
      index,
      host: url.host,
      method,
      path: url.pathname.slice(at),
      query: [...url.searchParams.entries()],
      body: bodyFields(request),
      reply: {
        status,
        mimeType: asString(content.mimeType) ?? headerType ?? '',
        text: replyText(content),
        recorded: bodyRecorded(content),
      },
    },
  };
}

/** The value of the first parameter `name`, query first, then the form body. */
export function param(exchange: Pick<PlatformExchange, 'query' | 'body'>, name: string): string | undefined {
  return exchange.query.find(([n]) => n === name)?.[1] ?? exchange.body.find(([n]) => n === name)?.[1];
}

/** What the request does: the `method` override of a POST, else its verb. */
export function effectiveMethod(exchange: PlatformExchange): string {
  const override = param(exchange, 'method')?.toUpperCase();
  return exchange.method === 'POST' && (override === 'PUT' || override === 'DELETE' || override === 'GET')
    ? override
    : exchange.method;
}

/** The resource path after the prefix, without the format: `users/<uid>`, `achievements/user/<uid>`. */
export function resourceOf(exchange: PlatformExchange): { resource: string; id: string; format: string } {
  const rest = exchange.path.slice(PLATFORM_PREFIX.length);
  const dot = rest.lastIndexOf('.');
  const format = dot === -1 ? '' : rest.slice(dot + 1).toLowerCase();
  const bare = dot === -1 ? rest : rest.slice(0, dot);
  const slash = bare.lastIndexOf('/');
  return {
    resource: slash === -1 ? bare : bare.slice(0, slash),
    id: decode(slash === -1 ? '' : bare.slice(slash + 1)),
    format,
  };
}

type Envelope = { code?: unknown; message?: unknown; payload?: unknown };

/** The JSON envelope of a reply, if it is one (behind a byte order mark too: the bytes are kept as sent). */
export function envelopeOf(text: string): Envelope | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(trimmed) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The envelope a reply shows, JSON or XML (read as the same tree, every leaf text): what a
 * recording tells of the state, whichever format the server answered in.
 */
export function shownEnvelope(text: string): Envelope | undefined {
  const json = envelopeOf(text);
  if (json !== undefined || !text.trim().startsWith('<')) return json;
  const tree = xmlTree(text)?.value;
  return tree !== null && typeof tree === 'object' && !Array.isArray(tree) ? (tree as Envelope) : undefined;
}
