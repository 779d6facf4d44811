/**
 * The string tokens of a JSON text, each with the member name it is the value of, read without
 * parsing the text: a recording redacts a reply in place (its other bytes kept as they came), and
 * a reply need not be JSON at all to hold a player's email. So this reads anything: a BOM or an
 * `)]}',` before the value, a body cut short (the strings and objects it leaves open count), stray
 * brackets, any depth (an explicit stack, no recursion). What is not a string is skipped.
 */

export interface JsonString {
  /** The token's span in the text: its quotes included; one cut short runs to the end. */
  start: number;
  end: number;
  /** Its value, escapes decoded (loosely: a bad escape stays as it is). */
  value: string;
  /** False for a string the text ends inside. */
  closed: boolean;
}

export interface JsonMember {
  name: string;
  value: JsonString;
}

export interface JsonVisitor {
  /** An object's string-valued members, once it closes (or the text ends inside it). */
  object(members: readonly JsonMember[]): void;
  /** Every string token, names included. */
  string(token: JsonString): void;
}

interface Frame {
  object: boolean;
  members: JsonMember[];
  /** In an object: reading a name, waiting for its colon, reading its value, or past it. */
  state: 'name' | 'colon' | 'value' | 'after';
  name: string;
}

const SPECIAL = /["{}[\]:,]/g;
const ESCAPE = /\\(u[0-9a-fA-F]{4}|["\\/bfnrt])/g;
const ESCAPED: Readonly<Record<string, string>> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

function decode(raw: string): string {
  if (!raw.includes('\\')) return raw;
  return raw.replace(ESCAPE, (_m, e: string) =>
    e.length === 5 ? String.fromCharCode(Number.parseInt(e.slice(1), 16)) : (ESCAPED[e] ?? e),
  );
}

/** The string token opening at `start` (a quote). */
function stringAt(text: string, start: number): JsonString {
  let quote = start;
  for (;;) {
    quote = text.indexOf('"', quote + 1);
    if (quote === -1) return { start, end: text.length, value: decode(text.slice(start + 1)), closed: false };
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) break;
  }
  return { start, end: quote + 1, value: decode(text.slice(start + 1, quote)), closed: true };
}

export function visitJsonStrings(text: string, visit: JsonVisitor): void {
  const stack: Frame[] = [];
  const open = (object: boolean): void => {
    const top = stack.at(-1);
    if (top?.object && top.state === 'value') top.state = 'after';
    stack.push({ object, members: [], state: 'name', name: '' });
  };
  const close = (object: boolean): void => {
    const top = stack.at(-1);
    // A bracket that closes nothing open (the `)]}'` before a value): not JSON, skipped.
    if (top?.object !== object) return;
    stack.pop();
    if (object) visit.object(top.members);
  };
  SPECIAL.lastIndex = 0;
  for (let m = SPECIAL.exec(text); m !== null; m = SPECIAL.exec(text)) {
    const top = stack.at(-1);
    switch (m[0]) {
      case '"': {
        const token = stringAt(text, m.index);
        SPECIAL.lastIndex = token.end;
        visit.string(token);
        if (top?.object && top.state === 'name') {
          top.name = token.value;
          top.state = 'colon';
        } else if (top?.object && top.state === 'value') {
          top.members.push({ name: top.name, value: token });
          top.state = 'after';
        }
        break;
      }
      case '{':
        open(true);
        break;
      case '[':
        open(false);
        break;
      case '}':
        close(true);
        break;
      case ']':
        close(false);
        break;
      case ':':
        if (top?.object && top.state === 'colon') top.state = 'value';
        break;
      case ',':
        if (top?.object) top.state = 'name';
        break;
    }
  }
  // A text cut short: the objects it leaves open hold what it said of them.
  for (let top = stack.pop(); top; top = stack.pop()) if (top.object) visit.object(top.members);
}
