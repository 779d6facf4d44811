import { printable } from '../printable.js';

/** CSV per RFC 4180: fields holding a comma, quote, CR or LF are quoted, quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** What a spreadsheet takes for the start of a formula (OWASP, CSV injection): = + - @, a tab or a CR. */
const FORMULA_START = /^[=+\-@\t\r]/;
/**
 * A plain number (`-5`, `+1.5`, `-2e3`): a spreadsheet reads it as that number and nothing else,
 * so a negative count or balance stays a number a sum can add, not text.
 */
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * One cell: escaped as every value from outside is (printable.ts), then, when a spreadsheet would
 * run it as a formula (a username `=HYPERLINK(...)`, a reason `@SUM(...)`), neutralized as OWASP
 * recommends: a single quote in front, inside a quoted field, so the cell shows the text as it is.
 */
export function csvCell(value: string): string {
  const shown = printable(value);
  if (FORMULA_START.test(value) && !PLAIN_NUMBER.test(value)) return `"'${shown.replaceAll('"', '""')}"`;
  return csvField(shown);
}

/**
 * One record and its line end (LF, for Unix tools; RFC 4180 readers accept it). Values come from
 * a server: controls and bidi characters are escaped (printable.ts), so no cell holds a line break
 * or a terminal escape, and none starts a formula (csvCell).
 */
export function csvLine(values: readonly string[]): string {
  return `${values.map(csvCell).join(',')}\n`;
}
