/**
 * Two replies to the same request, the recorded one and the sandbox's, compared: the HTTP
 * status; the format (JSON, XML, HTML, text, empty: when it differs, nothing more of the body is
 * compared); then the body from the envelope's root down, JSON as parsed and XML as the same tree
 * (xml-tree.ts): a field only in the recording `missing`, only in the sandbox `extra`, a JSON
 * type that differs `type`, a value `value`, a number spelled otherwise (`55.0` for `55`)
 * `representation`; a list in another order than the request asked for `order`, a page larger
 * than its limit `limit`. Values that drift between two runs are not differences unless strict
 * (see `drifts`). Paths are written `payload[].product.price` (`[]`: any element); one
 * difference per kind and path.
 */
import { isPlaceholder } from '../../har/redaction.js';
import { parseSpelled } from './json-spelled.js';
import { xmlTree } from './xml-tree.js';

export type Kind =
  | 'status'
  | 'format'
  | 'missing'
  | 'extra'
  | 'type'
  | 'value'
  | 'representation'
  | 'order'
  | 'limit'
  | 'schema';

/** What the request asked of the list its reply's payload is. */
export interface Asked {
  /** `order` or `sort` given: the recorded order is part of the contract. */
  ordered: boolean;
  /** At most this many elements (the request's `limit`, or the documented default). */
  limit?: number;
}

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

const BOM = /^\uFEFF/;

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

/** A number's text in XML: compared as a number is in JSON. */
const NUMERIC = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
const form = (spelled: string): string =>
  /[eE]/.test(spelled) ? 'exponent' : spelled.includes('.') ? 'fraction' : 'integer';

/** How each side spells the number at hand, as its parent knows it. */
type Spellings = readonly [string | undefined, string | undefined];

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

interface Walk {
  rules: Rules;
  out: Collector;
  asked: Asked;
  /** Both replies XML: every leaf is text, a number's too. */
  xml: boolean;
  spellA: (container: object, key: string | number) => string | undefined;
  spellB: (container: object, key: string | number) => string | undefined;
}

const ids = (list: Iterable<string>): string[] => [...list].slice(0, 20);

/**
 * A number (or, in XML, a number's text) on both sides: `representation` when the two are
 * spelled in other forms (an integer, a fraction, an exponent) or spelled otherwise for the same
 * number, `value` when the numbers differ and do not drift.
 */
function compareNumbers(
  a: number | string,
  b: number | string,
  spelled: Spellings,
  path: string,
  inChallenge: boolean,
  w: Walk,
): void {
  const ra = spelled[0] ?? String(a);
  const rb = spelled[1] ?? String(b);
  const va = Number(a);
  const vb = Number(b);
  if (ra !== rb && (form(ra) !== form(rb) || va === vb))
    w.out.add({ kind: 'representation', at: path, recorded: ra, sandbox: rb });
  if (va !== vb && (w.rules.strict || !drifts(path, va, vb, inChallenge, w.rules)))
    w.out.add({ kind: 'value', at: path, recorded: a, sandbox: b });
}

function walk(
  a: unknown,
  b: unknown,
  path: string,
  depth: number,
  inChallenge: boolean,
  w: Walk,
  spelled: Spellings = [undefined, undefined],
): void {
  const { rules, out } = w;
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
    const payload = path === 'payload';
    const limit = payload ? w.asked.limit : undefined;
    // The recording's page held more than its limit: the sandbox cannot show the surplus, and
    // what is missing is the limit kept, not items of the state.
    const overLimit = limit !== undefined && x.length > limit && y.length < x.length;
    if (overLimit)
      out.add({
        kind: 'limit',
        at: path,
        recorded: `${x.length} items for a limit of ${limit}`,
        sandbox: `${y.length} items`,
      });
    const paired = pairByIdentity(x, y);
    if (paired) {
      for (const [id, rx] of paired.recorded) {
        const sx = paired.sandbox.get(id);
        if (sx === undefined) {
          if (!overLimit) out.add({ kind: 'missing', at: `${path}[]`, recorded: id, sandbox: null });
        } else walk(rx, sx, `${path}[]`, depth + 1, false, w);
      }
      for (const id of paired.sandbox.keys())
        if (!paired.recorded.has(id)) out.add({ kind: 'extra', at: `${path}[]`, recorded: null, sandbox: id });
      if (payload && w.asked.ordered && !ignored(path, rules)) {
        // The elements both hold, each side in its own order.
        const recorded = [...paired.recorded.keys()].filter((id) => paired.sandbox.has(id));
        const sandbox = [...paired.sandbox.keys()].filter((id) => paired.recorded.has(id));
        if (recorded.some((id, i) => id !== sandbox[i]))
          out.add({ kind: 'order', at: path, recorded: ids(recorded), sandbox: ids(sandbox) });
      }
      return;
    }
    if (x.length !== y.length && !overLimit)
      out.add({ kind: 'value', at: path, recorded: `${x.length} items`, sandbox: `${y.length} items` });
    for (let i = 0; i < Math.min(x.length, y.length); i++)
      walk(x[i], y[i], `${path}[]`, depth + 1, false, w, [w.spellA(x, i), w.spellB(y, i)]);
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
      else walk(x[name], y[name], at, depth + 1, challenge, w, [w.spellA(x, name), w.spellB(y, name)]);
    }
    for (const name of Object.keys(y)) {
      const at = join(path, name);
      if (!(name in x) && !ignored(at, rules)) out.add({ kind: 'extra', at, recorded: null, sandbox: sample(y[name]) });
    }
    return;
  }
  if (ta === 'number' || (w.xml && ta === 'string' && NUMERIC.test(a as string) && NUMERIC.test(b as string))) {
    compareNumbers(a as number | string, b as number | string, spelled, path, inChallenge, w);
    return;
  }
  if (a !== b && (rules.strict || !drifts(path, a, b, inChallenge, rules)))
    out.add({ kind: 'value', at: path, recorded: a, sandbox: b });
}

const NO_SPELLING = (): undefined => undefined;

export function compareReplies(
  recorded: Reply,
  sandbox: Reply,
  rules: Rules,
  asked: Asked = { ordered: false },
): Found[] {
  const out = new Collector();
  if (recorded.status !== sandbox.status && !ignored('status', rules))
    out.add({ kind: 'status', at: 'status', recorded: recorded.status, sandbox: sandbox.status });
  const fr = formatOf(recorded);
  const fs = formatOf(sandbox);
  if (fr !== fs) {
    out.add({ kind: 'format', at: '', recorded: fr, sandbox: fs });
    return out.found;
  }
  if (fr === 'json') {
    // A byte order mark parses away but fails Go's, C#'s and JSON.parse's readers alike.
    const boms = [BOM.test(recorded.text), BOM.test(sandbox.text)] as const;
    if (boms[0] !== boms[1])
      out.add({
        kind: 'representation',
        at: '',
        recorded: boms[0] ? 'a byte order mark, then JSON' : 'JSON',
        sandbox: boms[1] ? 'a byte order mark, then JSON' : 'JSON',
      });
    const a = parseSpelled(recorded.text.trim().replace(BOM, ''));
    const b = parseSpelled(sandbox.text.trim().replace(BOM, ''));
    walk(a.value, b.value, '', 0, false, { rules, out, asked, xml: false, spellA: a.spelling, spellB: b.spelling });
  } else if (fr === 'xml') {
    const a = xmlTree(recorded.text);
    const b = xmlTree(sandbox.text);
    if (!a || !b) {
      if (a !== b)
        out.add({
          kind: 'format',
          at: '',
          recorded: a ? 'xml' : 'xml, not well-formed',
          sandbox: b ? 'xml' : 'xml, not well-formed',
        });
      return out.found;
    }
    if (a.root !== b.root) out.add({ kind: 'value', at: '', recorded: `<${a.root}>`, sandbox: `<${b.root}>` });
    walk(a.value, b.value, '', 0, false, {
      rules,
      out,
      asked,
      xml: true,
      spellA: NO_SPELLING,
      spellB: NO_SPELLING,
    });
  }
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
