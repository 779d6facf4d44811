/**
 * JSON text re-indented without being parsed into numbers: `JSON.parse` then `stringify` would
 * turn a saved 12345678901234567890 into 12345678901234567000 and `1.0` into `1`; a support
 * person reading a save must see the digits the game stored.
 */

/** True when the text is one JSON value. */
export function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Where the string that opens at `start` (a `"`) closes, escapes skipped. */
function closingQuote(text: string, start: number): number {
  let j = start + 1;
  while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
  return j;
}

/**
 * The JSON text indented by two spaces, every token kept as written (strings, numbers).
 * Only for text that isJsonText() accepts.
 */
export function prettyJson(text: string, indent = '  '): string {
  const p = pieces(text);
  let out = '';
  let depth = 0;
  const newline = (): string => `\n${indent.repeat(depth)}`;
  for (let k = 0; k < p.length; k++) {
    const c = p[k]!;
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      if (p[k + 1] === close) {
        out += c + close;
        k++;
      } else {
        depth++;
        out += c + newline();
      }
    } else if (c === '}' || c === ']') {
      depth--;
      out += newline() + c;
    } else if (c === ',') {
      out += `,${newline()}`;
    } else if (c === ':') {
      out += ': ';
    } else {
      out += c;
    }
  }
  return out;
}

/** The JSON text on one line: whitespace outside strings dropped, every token kept as written. */
export function compactJson(text: string): string {
  return pieces(text).join('');
}

/** The text outside whitespace: each string whole, with its quotes; every other character alone. */
function pieces(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const j = closingQuote(text, i);
      out.push(text.slice(i, j + 1));
      i = j;
    } else if (!/\s/.test(c)) {
      out.push(c);
    }
  }
  return out;
}
