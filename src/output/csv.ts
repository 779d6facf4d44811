import { printable } from '../printable.js';

/** CSV per RFC 4180: fields holding a comma, quote, CR or LF are quoted, quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * One record and its line end (LF, for Unix tools; RFC 4180 readers accept it). Values come from
 * a server: controls and bidi characters are escaped (printable.ts), so no cell holds a line break
 * or a terminal escape.
 */
export function csvLine(values: readonly string[]): string {
  return `${values.map((value) => csvField(printable(value))).join(',')}\n`;
}
