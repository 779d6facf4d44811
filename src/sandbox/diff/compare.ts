/**
 * Two replies to the same request, the recorded one and the sandbox's, compared: the HTTP
 * status; the format (JSON, XML, HTML, text, empty: when it differs, nothing more of the body is
 * compared); then the JSON from the envelope's root down, a field only in the recording
 * `missing`, only in the sandbox `extra`, a JSON type that differs `type`, a value `value`.
 * Values that drift between two runs are not differences unless strict (see `drifts`). Paths are
 * written `payload[].product.price` (`[]`: any element); one difference per kind and path.
 */
import { isPlaceholder } from '../../har/redaction.js';

export type Kind = 'status' | 'format' | 'missing' | 'extra' | 'type' | 'value' | 'schema';

export interface Found {
  kind: Kind;
  at: string;
  recorded: unknown;
  sandbox: unknown;
}

export interface Reply {
  status: number;
  mimeType: string;
  text: string;
}

export interface Rules {
  strict: boolean;
  /** Paths dropped with everything below them (`--ignore`). */
  ignore: readonly string[];
  /** The scratch sandbox's own origin: its URLs (avatars) are its own, not the platform's. */
  ownOrigin: string;
}

export type Format = 'json' | 'xml' | 'html' | 'text' | 'empty';

/** Deeper than this, a subtree is compared as a whole (hostile nesting never recurses far). */
const MAX_DEPTH = 48;

export function formatOf(reply: Reply): Format {
  const text = reply.text.trim();
  if (text === '') return 'empty';
  if (/^[[{"]/.test(text) || /^(-?\d|true$|false$|null$)/.test(text)) {
    try {
      JSON.parse(text);
      return 'json';
    } catch {
      // not JSON after all
    }
  }
  if (/html/i.test(reply.mimeType) || /^<!doctype html|^<html[\s>]/i.test(text)) return 'html';
  if (/xml/i.test(reply.mimeType) || /^<\?xml|^<[A-Za-z_][\w.-]*[\s/>]/.test(text)) return 'xml';
  return 'text';
}

type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'object' | 'array';
const typeOf = (v: unknown): JsonType => (v === null ? 'null' : Array.isArray(v) ? 'array' : (typeof v as JsonType));

const DATE_FORMATS: ReadonlyArray<[string, RegExp]> = [
  ['YYYY-MM-DD HH:MM:SS', /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/],
  ['YYYY-MM-DD', /^\d{4}-\d\d-\d\d$/],
  ['ISO 8601', /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?$/],
];
const dateFormat = (v: string): string | undefined => DATE_FORMATS.find(([, re]) => re.test(v))?.[0];

/** Credentials and challenge values: new ones every run. */
const CREDENTIALS = new Set(['session', 'sig', 'signature', 'token', 'auth_token', 'api_key', 'timestamp']);
/** Names of Unix times: numbers that move with the clock. */
const TIME_NAME = /(^|_)(date|on|at|time|created|updated|expires)$/;
/**
 * Database ids and aggregates over players the recording cannot show (a scratch sandbox numbers and counts its own).
 */
const ASSIGNED = new Set(['id', 'achievement_id', 'sold', 'completion_count']);

function leaf(path: string): string {
  const dot = path.lastIndexOf('.');
  return (dot === -1 ? path : path.slice(dot + 1)).replaceAll('[]', '');
}

/** A value that differs between two runs against the same state: not a difference unless strict. */
function drifts(path: string, a: unknown, b: unknown, inChallenge: boolean, rules: Rules): boolean {
  const name = leaf(path);
  if (CREDENTIALS.has(name) || (inChallenge && name === 'key')) return true;
  if (typeof a === 'string' && isPlaceholder(a)) return true;
  if (typeof a === 'string' && typeof b === 'string') {
    const fa = dateFormat(a);
    // A date's value drifts; its format does not.
    if (fa !== undefined && fa === dateFormat(b)) return true;
    if (/^https?:\/\//.test(a) && b.startsWith(`${rules.ownOrigin}/`)) return true;
  }
  if (
    TIME_NAME.test(name) &&
    typeOf(a) === typeOf(b) &&
    (typeof a === 'number' || (typeof a === 'string' && /^\d+$/.test(a) && /^\d+$/.test(String(b))))
  )
    return true;
  if (ASSIGNED.has(name) && typeof a === 'number' && typeof b === 'number') return true;
  return false;
}

export function ignored(path: string, rules: Pick<Rules, 'ignore'>): boolean {
  return rules.ignore.some((p) => path === p || path.startsWith(`${p}.`) || path.startsWith(`${p}[`));
}

const join = (path: string, name: string): string => (path === '' ? name : `${path}.${name}`);

class Collector {
  readonly found: Found[] = [];
  readonly #seen = new Set<string>();
  add(found: Found): void {
    const id = `${found.kind}\u0000${found.at}`;
    if (this.#seen.has(id)) return;
    this.#seen.add(id);
    this.found.push(found);
  }
}

function sample(v: unknown): unknown {
  if (Array.isArray(v)) return `[${v.length} items]`;
  if (v !== null && typeof v === 'object') return `{${Object.keys(v).length} fields}`;
  return v;
}

/**
 * What names an element of a list (a quest, a user, a product): lists are paired by it, since
 * their order follows dates a recording cannot seed (a quest's started date, a friendship's).
 */
function identity(element: unknown): string | undefined {
  if (element === null || typeof element !== 'object' || Array.isArray(element)) return undefined;
  const e = element as Record<string, unknown>;
  const product =
    e.product !== null && typeof e.product === 'object' ? (e.product as Record<string, unknown>) : undefined;
  const id = e.developer_id ?? e.uid ?? product?.sku ?? e.sku;
  return typeof id === 'string' ? id : undefined;
}

function pairByIdentity(
  x: unknown[],
  y: unknown[],
): { recorded: Map<string, unknown>; sandbox: Map<string, unknown> } | undefined {
  if (x.length === 0 && y.length === 0) return undefined;
  const index = (list: unknown[]): Map<string, unknown> | undefined => {
    const map = new Map<string, unknown>();
    for (const element of list) {
      const id = identity(element);
      if (id === undefined || map.has(id)) return undefined;
      map.set(id, element);
    }
    return map;
  };
  const recorded = index(x);
  const sandbox = recorded && index(y);
  return recorded && sandbox ? { recorded, sandbox } : undefined;
}

/** Equal as JSON text; a subtree too deep even to write out counts as different. */
function sameText(a: unknown, b: unknown): boolean {
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

function walk(
  a: unknown,
  b: unknown,
  path: string,
  depth: number,
  inChallenge: boolean,
  rules: Rules,
  out: Collector,
): void {
  if (path !== '' && ignored(path, rules)) return;
  const ta = typeOf(a);
  const tb = typeOf(b);
  if (ta !== tb) {
    if (!rules.strict && drifts(path, a, b, inChallenge, rules)) return;
    out.add({ kind: 'type', at: path, recorded: sample(a), sandbox: sample(b) });
    return;
  }
  if (depth > MAX_DEPTH) {
    if (!sameText(a, b)) out.add({ kind: 'value', at: path, recorded: sample(a), sandbox: sample(b) });
    return;
  }
  if (ta === 'array') {
    const x = a as unknown[];
    const y = b as unknown[];
    const paired = pairByIdentity(x, y);
    if (paired) {
      for (const [id, rx] of paired.recorded) {
        const sx = paired.sandbox.get(id);
        if (sx === undefined) out.add({ kind: 'missing', at: `${path}[]`, recorded: id, sandbox: null });
        else walk(rx, sx, `${path}[]`, depth + 1, false, rules, out);
      }
      for (const id of paired.sandbox.keys())
        if (!paired.recorded.has(id)) out.add({ kind: 'extra', at: `${path}[]`, recorded: null, sandbox: id });
      return;
    }
    if (x.length !== y.length)
      out.add({ kind: 'value', at: path, recorded: `${x.length} items`, sandbox: `${y.length} items` });
    for (let i = 0; i < Math.min(x.length, y.length); i++) walk(x[i], y[i], `${path}[]`, depth + 1, false, rules, out);
    return;
  }
  if (ta === 'object') {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    const challenge = 'session' in x || 'session' in y;
    for (const name of Object.keys(x)) {
      const at = join(path, name);
      if (ignored(at, rules)) continue;
      if (!(name in y)) out.add({ kind: 'missing', at, recorded: sample(x[name]), sandbox: null });
      else walk(x[name], y[name], at, depth + 1, challenge, rules, out);
    }
    for (const name of Object.keys(y)) {
      const at = join(path, name);
      if (!(name in x) && !ignored(at, rules)) out.add({ kind: 'extra', at, recorded: null, sandbox: sample(y[name]) });
    }
    return;
  }
  if (a !== b && (rules.strict || !drifts(path, a, b, inChallenge, rules)))
    out.add({ kind: 'value', at: path, recorded: a, sandbox: b });
}

export function compareReplies(recorded: Reply, sandbox: Reply, rules: Rules): Found[] {
  const out = new Collector();
  if (recorded.status !== sandbox.status && !ignored('status', rules))
    out.add({ kind: 'status', at: 'status', recorded: recorded.status, sandbox: sandbox.status });
  const fr = formatOf(recorded);
  const fs = formatOf(sandbox);
  if (fr !== fs) {
    out.add({ kind: 'format', at: '', recorded: fr, sandbox: fs });
    return out.found;
  }
  if (fr === 'json') walk(JSON.parse(recorded.text), JSON.parse(sandbox.text), '', 0, false, rules, out);
  return out.found;
}

/** `/0/premium` (Ajv's instancePath) in our notation: `payload[].premium`. */
export function pointerToPath(pointer: string, root = 'payload'): string {
  let path = root;
  for (const raw of pointer.split('/').slice(1)) {
    const name = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    path = /^\d+$/.test(name) ? `${path}[]` : `${path}.${name}`;
  }
  return path;
}

export { Collector, sample };
