/**
 * Help that fits the terminal without a word broken. commander wraps a description only when at
 * least 40 columns are left beside the widest term, else it writes the line whole and the
 * terminal breaks it anywhere (`defi` / `nitions` at 80 columns); and the examples added with
 * addHelpText are never wrapped. Here the term column is capped, a longer term gets a line of
 * its own, and every line of help still too wide is wrapped at a space, its continuation lines
 * indented under the text they continue.
 */

/** Columns before the description: the item's indent and the gap after the term. */
const INDENT = 2;
const GAP = 2;
/** Narrower than this, a description is not worth a column beside its term. */
const MIN_DESCRIPTION = 24;

/** Splits `text` into lines of at most `width` columns at spaces; a word longer than a line stays whole. */
export function wrapWords(text: string, width: number): string[] {
  const words = text.split(/\s+/).filter((w) => w !== '');
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

/**
 * One item of a help list (an option, a command, an argument): the term in a column at most
 * 40% of the width (a longer one on a line of its own), the description beside it, wrapped.
 */
export function formatHelpItem(term: string, termWidth: number, description: string, width: number): string {
  const indent = ' '.repeat(INDENT);
  if (!description) return `${indent}${term}`;
  let column = Math.min(termWidth, Math.max(12, Math.floor(width * 0.4)));
  if (width - INDENT - column - GAP < MIN_DESCRIPTION) column = Math.max(4, width - INDENT - GAP - MIN_DESCRIPTION);
  const descriptionWidth = width - INDENT - column - GAP;
  const hanging = ' '.repeat(INDENT + column + GAP);
  const lines = description.split('\n').flatMap((paragraph) => wrapWords(paragraph, descriptionWidth));
  if (term.length <= column) {
    const [first, ...rest] = lines;
    return [
      `${indent}${term.padEnd(column)}${' '.repeat(GAP)}${first ?? ''}`,
      ...rest.map((l) => `${hanging}${l}`),
    ].join('\n');
  }
  return [`${indent}${term}`, ...lines.map((l) => `${hanging}${l}`)].join('\n');
}

/**
 * Any line of help text wider than `width`, wrapped at spaces: continuation lines start under
 * the line's text after a gap of two or more spaces (an item's description, an example's
 * note), else under its first word plus four (a usage line, an example command).
 */
export function wrapHelpText(text: string, width: number): string {
  return reflowProse(text.split('\n'), width)
    .map((line) => (line.length <= width ? line : wrapLine(line, width)))
    .join('\n');
}

/** Prose: a line at the left margin that is no usage line or list item. */
function isProse(line: string): boolean {
  return /^\S/.test(line) && !line.startsWith('Usage:') && !/\S {2,}\S/.test(line);
}

/**
 * A paragraph of prose (lines at the left margin, up to one ending in a colon, which introduces
 * what follows) is joined and wrapped again at the width: text added with addHelpText is written
 * with line breaks for one width, which commander keeps (boxWrap), so at any other the lines
 * came out ragged (`…with its input and` / `output on this` / `terminal`).
 */
function reflowProse(lines: string[], width: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    if (!isProse(lines[i]!)) {
      out.push(lines[i]!);
      i++;
      continue;
    }
    let end = i;
    while (end < lines.length && isProse(lines[end]!) && !lines[end]!.endsWith(':')) end++;
    if (end < lines.length && isProse(lines[end]!)) end++; // the line with the colon ends it
    out.push(...wrapWords(lines.slice(i, end).join(' '), width));
    i = end;
  }
  return out;
}

/** `text` at `indent`, or further left when a word too long for the line would pass the width. */
function indented(text: string, indent: number, width: number): string {
  return `${' '.repeat(Math.max(0, Math.min(indent, width - text.length)))}${text}`;
}

/** Words from `first` on, the first line `firstWidth` wide, the others `restWidth` wide at `indent`. */
function hang(words: string, firstWidth: number, indent: number, width: number): { first: string; rest: string[] } {
  const all = wrapWords(words, Math.max(1, firstWidth));
  const [first = '', ...more] = all;
  const rest =
    more.length === 0
      ? []
      : wrapWords(more.join(' '), Math.max(1, width - indent)).map((l) => indented(l, indent, width));
  return { first, rest };
}

function wrapLine(line: string, width: number): string {
  const lead = /^ */.exec(line)![0].length;
  const under = Math.min(lead + 4, Math.max(0, width - MIN_DESCRIPTION));
  const gap = / {2,}(?=\S)/g;
  gap.lastIndex = lead;
  const column = gap.exec(line);
  if (column === null) {
    const { first, rest } = hang(line.slice(lead), width - lead, under, width);
    return [`${' '.repeat(lead)}${first}`, ...rest].join('\n');
  }
  const head = line.slice(0, column.index + column[0].length);
  const body = line.slice(head.length);
  if (width - head.length >= MIN_DESCRIPTION / 2) {
    const indent = width - head.length >= MIN_DESCRIPTION ? head.length : under;
    const { first, rest } = hang(body, width - head.length, indent, width);
    return [`${head}${first}`, ...rest].join('\n');
  }
  // The text before the gap leaves too little room: it goes on its own line(s), the rest under it.
  const term = wrapLine(line.slice(0, column.index), width);
  const rest = wrapWords(body, Math.max(1, width - under)).map((l) => indented(l, under, width));
  return [term, ...rest].join('\n');
}
