/**
 * The one escaping rule for text that came from outside (a request, a server's reply, a data file,
 * a saved value) on its way to a terminal, a log or a file a person reads: C0 and C1 control
 * characters, DEL, and the bidi formatting characters (embeddings, overrides, isolates, marks)
 * are shown escaped, never emitted, so nothing a client or a server sends can move the cursor,
 * erase a line, ring the bell, open a hyperlink, forge a row or reorder what a reader sees.
 * Everything else passes as it is. Every writer of the CLI and the sandbox uses one of the forms
 * below; no other module keeps its own list of such characters.
 *
 * - printable(): one value in a line or a cell: `\x1b`, `\x0a`, `\u202e`.
 * - printableLines(): text of several lines: the same, line breaks and tabs kept.
 * - jsonSafe() / jsonText(): JSON text: the same characters as `\u001b`, `\u202e` escapes, which
 *   JSON reads back as the very same value (JSON.stringify already escapes C0, not C1 or bidi);
 *   xmlSafe() the same for XML, as `&#x202e;`; bodySafe() picks one for a reply body.
 * - hasControl(): a value that must not hold any (a name, a file name, a command-line argument).
 * - firstInvisible(): for text people search by what they see (a ticket, a reason), the rule's
 *   characters and every other one that shows nothing.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// Line breaks and tabs of the text itself are kept by printableLines and jsonSafe; a CR only as
// the first half of a CRLF (alone, it returns to the start of the line and overwrites it).
const UNPRINTABLE_IN_LINES =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g;
// The same, not global: a test that leaves the text as it is when nothing matches (a global replace
// copies the text even then, and NDJSON of 100,000 rows is mostly such text).
const HAS_UNPRINTABLE_IN_LINES = new RegExp(UNPRINTABLE_IN_LINES.source);
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

function escaped(ch: string): string {
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

function jsonEscaped(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** One value for a line or a table cell: every control, DEL, C1 and bidi character escaped (line breaks too). */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, escaped);
}

/** Text of several lines (a message, a pretty-printed save): as printable(), its LF, CRLF and tabs kept. */
export function printableLines(text: string): string {
  return text.replace(UNPRINTABLE_IN_LINES, escaped);
}

/**
 * JSON text with every character of the rule written as a `\uXXXX` escape. Outside a string such
 * a character is no valid JSON anyway; inside one the escape reads back as the same character,
 * so the value a JSON reader gets is unchanged. Line breaks and tabs (JSON's whitespace) are kept.
 */
export function jsonSafe(json: string): string {
  return HAS_UNPRINTABLE_IN_LINES.test(json) ? json.replace(UNPRINTABLE_IN_LINES, jsonEscaped) : json;
}

/**
 * XML text (the service's `.xml` replies) with the same characters as character references
 * (`&#x202e;`): an XML reader gets the same text back wherever one is allowed.
 */
export function xmlSafe(xml: string): string {
  return xml.replace(UNPRINTABLE_IN_LINES, (ch) => `&#x${ch.charCodeAt(0).toString(16)};`);
}

/** A reply body as `--raw` and `api` print it: XML by xmlSafe, anything else (JSON) by jsonSafe. */
export function bodySafe(body: string): string {
  return /^\s*</.test(body) ? xmlSafe(body) : jsonSafe(body);
}

/** JSON.stringify, then jsonSafe: how every JSON document and NDJSON line is printed. */
export function jsonText(value: unknown, indent?: number): string {
  return jsonSafe(JSON.stringify(value, null, indent));
}

/**
 * The value with printable() applied to every string in it (keys and arrays included), for text built from its fields.
 */
export function printableFields<T>(value: T): T {
  if (typeof value === 'string') return printable(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => printableFields(v)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [printable(k), printableFields(v)])) as T;
  }
  return value;
}

/** Does the text hold a C0 or C1 control character or DEL (what a name or an argument must not)? */
export function hasControl(text: string): boolean {
  return CONTROL.test(text);
}

// Everything of the rule (Cc and the bidi characters, all Cf) and every other character a reader
// cannot see: the rest of Cf (zero-width space and joiners, soft hyphen, word joiner, BOM, ...),
// the line and paragraph separators, and the tag characters U+E0000-U+E007F (some unassigned).
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u{E0000}-\u{E007F}]/u;

/**
 * The first character of the text that shows nothing or acts on a terminal, as `U+200B`; undefined
 * when there is none. `SUP\u200b-779` looks like SUP-779 and is not: a search for SUP-779 never
 * finds it.
 */
export function firstInvisible(text: string): string | undefined {
  const found = INVISIBLE.exec(text)?.[0];
  return found === undefined ? undefined : `U+${found.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
