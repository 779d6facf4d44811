/**
 * The one escaping rule for text that came from outside (a request, a server's reply, a data file)
 * on its way to a terminal or a log: C0 and C1 control characters, DEL, and the bidi formatting
 * characters (overrides, isolates, marks) are shown escaped (`\x1b`, `\u202e`), never emitted, so
 * nothing a client or a server sends can move the cursor, erase a line, forge a row or reorder
 * what a reader sees. Everything else passes as it is.
 */

// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function escaped(ch: string): string {
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

export function printable(text: string): string {
  return text.replace(UNPRINTABLE, escaped);
}

