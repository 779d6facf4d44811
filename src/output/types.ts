/** How commands print results. src/output/ implements it; commands never write to stdout directly. */

import type { OutputFormat } from '../runtime/io.js';

export type { OutputFormat } from '../runtime/io.js';

export type TextStyle = 'green' | 'yellow' | 'red' | 'dim' | 'bold';

export interface Column<T> {
  /** Field name, matched by --fields. */
  key: string;
  header: string;
  /** Table/CSV cell text. JSON output ignores columns and prints the object as received. */
  cell: (row: T) => string;
}

export interface Output {
  readonly format: OutputFormat;
  readonly color: boolean;
  /** One resource: a key/value table, or the object as JSON (every field the server sent). */
  item<T extends object>(value: T, columns: ReadonlyArray<Column<T>>): void;
  /** A list; ndjson and csv stream row by row, json prints one array, table buffers. */
  list<T extends object>(rows: Iterable<T> | AsyncIterable<T>, columns: ReadonlyArray<Column<T>>): Promise<void>;
  /**
   * A list that arrives a page at a time (`friends --all`): as list(), each page written whole as it
   * arrives. Says how many rows it printed, and whether the pages ran out (not the reader going away).
   */
  listPages<T extends object>(
    pages: AsyncIterable<readonly T[]>,
    columns: ReadonlyArray<Column<T>>,
  ): Promise<{ rows: number; complete: boolean }>;
  /** --raw: the body as received (control and bidi characters as \u escapes: the same JSON value). */
  raw(bodyText: string): void;
  /** Plain text result to stdout (e.g. `auth token --export`). */
  text(line: string): void;
  /**
   * One line of parts, each through the one escaping rule, then coloured here when colour is on
   * (a command never writes an escape of its own: nothing else can tell it from the data's).
   */
  styledLine(parts: ReadonlyArray<{ text: string; style?: TextStyle }>): void;
  /** Status/progress to stderr; silenced by --quiet. */
  info(message: string): void;
  warn(message: string): void;
  /** An ora spinner on stderr when it is a terminal and the format is table; otherwise just runs fn. */
  spin<T>(text: string, fn: () => Promise<T>): Promise<T>;
}
