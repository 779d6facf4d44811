/**
 * The Output implementation: results to stdout as a table, JSON, NDJSON or CSV; status to
 * stderr. chalk and cli-table3 are imported only for table output, ora only when a spinner
 * actually shows.
 */
import type * as ChalkModule from 'chalk';
import type { ChalkInstance } from 'chalk';
import type CliTable3 from 'cli-table3';
import type * as OraModule from 'ora';
import type { GlobalOptions, IOStreams } from '../runtime/io.js';
import { bodySafe, jsonSafe, jsonText, printable, printableLines } from '../printable.js';
import { dynamicImport } from '../dynamic-import.js';
import { csvLine } from './csv.js';
import { checkFields, pickFields, selectColumns } from './fields.js';
import { isClosed, write } from './pipe.js';
import { resolveColor, resolveFormat, shouldSpin } from './policy.js';
import type { Column, Output, OutputFormat, TextStyle } from './types.js';

type TableConstructor = typeof CliTable3;

/** No borders: columns separated by two spaces, as gh and kubectl print them. */
const PLAIN_CHARS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};

export interface OutputOptions {
  io: IOStreams;
  globals: Pick<GlobalOptions, 'output' | 'fields' | 'color' | 'quiet'>;
}

/** JSON.stringify(value, null, 2) of one array element, indented as inside the array. */
function arrayElement(value: unknown): string {
  return JSON.stringify(value, null, 2)
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

/**
 * Rows are written in batches of about this many characters (one write, not one per row). Kept
 * under V8's large-object size: a larger string (and its Buffer) is freed only by a full
 * collection, and a page of 500 friends written whole raised `friends --all`'s peak RSS by a
 * third.
 */
const BATCH_CHARS = 64 * 1024;

/**
 * Collects streamed rows into few writes: rows that arrive together (a page of 500 friends)
 * become one write instead of 500, while a row is never held back once the source has to wait
 * (a flush is scheduled with setImmediate, which runs only when the rows on hand are done).
 */
class RowBatcher {
  #text = '';
  #scheduled: NodeJS.Immediate | undefined;
  #pending: Promise<void> | undefined;

  constructor(private readonly write: (text: string) => Promise<void> | undefined) {}

  /** Adds text; resolves when more may be added (back-pressure from earlier writes). */
  async add(text: string): Promise<void> {
    this.#text += text;
    if (this.#text.length >= BATCH_CHARS) return this.flush();
    if (this.#pending) {
      const pending = this.#pending;
      this.#pending = undefined;
      await pending;
    }
    this.#scheduled ??= setImmediate(() => {
      this.#scheduled = undefined;
      this.#pending = this.#writeOut();
    });
  }

  /** Writes what is collected; resolves when the stream can take more. */
  async flush(): Promise<void> {
    if (this.#scheduled) {
      clearImmediate(this.#scheduled);
      this.#scheduled = undefined;
    }
    const pending = this.#pending;
    this.#pending = undefined;
    await pending;
    await this.#writeOut();
  }

  #writeOut(): Promise<void> | undefined {
    if (this.#text === '') return undefined;
    const text = this.#text;
    this.#text = '';
    return this.write(text);
  }
}

class StreamOutput implements Output {
  readonly format: OutputFormat;
  readonly color: boolean;
  readonly #io: IOStreams;
  readonly #fields: string[] | undefined;
  readonly #quiet: boolean;
  readonly #Table: TableConstructor | undefined;
  readonly #chalk: ChalkInstance | undefined;

  constructor(
    options: OutputOptions,
    format: OutputFormat,
    color: boolean,
    Table?: TableConstructor,
    chalk?: ChalkInstance,
  ) {
    this.#io = options.io;
    this.format = format;
    this.color = color;
    this.#fields = options.globals.fields;
    this.#quiet = options.globals.quiet;
    this.#Table = Table;
    this.#chalk = chalk;
  }

  #out(text: string): Promise<void> | undefined {
    return write(this.#io.stdout, text);
  }

  #bold(text: string): string {
    return this.#chalk ? this.#chalk.bold(text) : text;
  }

  #render(head: string[] | undefined, rows: string[][]): string {
    const Table = this.#Table;
    if (!Table) throw new Error('table output was not prepared');
    const table = new Table({
      ...(head ? { head: head.map((h) => this.#bold(h)) } : {}),
      chars: PLAIN_CHARS,
      style: { 'padding-left': 0, 'padding-right': 0, head: [], border: [] },
    });
    table.push(...rows);
    return `${table
      .toString()
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n')}\n`;
  }

  item<T extends object>(value: T, columns: ReadonlyArray<Column<T>>): void {
    switch (this.format) {
      case 'table': {
        const selected = selectColumns(columns, this.#fields, value);
        void this.#out(
          this.#render(
            undefined,
            selected.map((c) => [this.#bold(c.header), printable(c.cell(value))]),
          ),
        );
        return;
      }
      case 'json':
        checkFields(columns, this.#fields, value);
        void this.#out(`${jsonText(pickFields(value, this.#fields), 2)}\n`);
        return;
      case 'ndjson':
        checkFields(columns, this.#fields, value);
        void this.#out(`${jsonText(pickFields(value, this.#fields))}\n`);
        return;
      case 'csv': {
        const selected = selectColumns(columns, this.#fields, value);
        void this.#out(csvLine(selected.map((c) => c.key)) + csvLine(selected.map((c) => csvCell(c, value))));
        return;
      }
    }
  }

  async list<T extends object>(rows: Iterable<T> | AsyncIterable<T>, columns: ReadonlyArray<Column<T>>): Promise<void> {
    if (this.format === 'table') {
      const buffered: T[] = [];
      for await (const row of rows) buffered.push(row as T);
      return this.#table(buffered, columns);
    }
    const stdout = this.#io.stdout;
    const rowText = this.#rowText(columns);
    let count = 0;
    const out = new RowBatcher((text) => this.#rowsOut(text));
    try {
      for await (const row of rows) {
        if (isClosed(stdout)) break; // the reader went away: stop fetching
        await out.add(rowText(row as T, count++));
      }
    } finally {
      // Rows already received are printed even when fetching the next ones failed.
      await out.flush();
    }
    await this.#listEnd(count, columns);
  }

  async listPages<T extends object>(
    pages: AsyncIterable<readonly T[]>,
    columns: ReadonlyArray<Column<T>>,
  ): Promise<{ rows: number; complete: boolean }> {
    if (this.format === 'table') {
      const buffered: T[] = [];
      for await (const page of pages) for (const row of page) buffered.push(row);
      await this.#table(buffered, columns);
      return { rows: buffered.length, complete: true };
    }
    const stdout = this.#io.stdout;
    const rowText = this.#rowText(columns);
    let count = 0;
    let complete = true;
    // Each page is let go of before the next is awaited (see the end of the loop).
    let page: readonly T[] | undefined;
    for await (page of pages) {
      if (isClosed(stdout)) {
        complete = false; // the reader went away: stop fetching
        break;
      }
      let text = '';
      for (const row of page) {
        text += rowText(row, count++);
        if (text.length >= BATCH_CHARS) {
          await this.#rowsOut(text);
          text = '';
        }
      }
      if (text !== '') await this.#rowsOut(text);
      // A suspended async function keeps what its variables last held: without this, the page
      // written stays alive beside the next one while it is fetched.
      page = undefined;
    }
    await this.#listEnd(count, columns);
    return { rows: count, complete };
  }

  async #table<T extends object>(rows: T[], columns: ReadonlyArray<Column<T>>): Promise<void> {
    if (rows.length === 0) {
      this.info('no results');
      return;
    }
    const selected = selectColumns(columns, this.#fields, rows[0]!);
    await this.#out(
      this.#render(
        selected.map((c) => c.header),
        rows.map((row) => selected.map((c) => printable(c.cell(row)))),
      ),
    );
  }

  /**
   * Rows as #rowText made them, written: JSON text through jsonSafe here, once for a batch of rows
   * (one pass over the batch rather than one a row; JSON.stringify never writes a raw CR, so no
   * escape depends on the next row). CSV lines are escaped cell by cell already (csvLine).
   */
  #rowsOut(text: string): Promise<void> | undefined {
    return this.#out(this.format === 'csv' ? text : jsonSafe(text));
  }

  /**
   * The text of the list's row at `index` in this format (the first also opens the list). JSON is
   * not escaped yet: #rowsOut does that for the batch.
   */
  #rowText<T extends object>(columns: ReadonlyArray<Column<T>>): (row: T, index: number) => string {
    const fields = this.#fields;
    switch (this.format) {
      case 'json':
        return (row, index) => {
          if (index === 0) checkFields(columns, fields, row);
          return `${index === 0 ? '[\n' : ',\n'}${arrayElement(pickFields(row, fields))}`;
        };
      case 'csv': {
        let selected: Array<Column<T>> = [];
        return (row, index) => {
          if (index > 0) return csvLine(selected.map((c) => csvCell(c, row)));
          selected = selectColumns(columns, fields, row);
          return csvLine(selected.map((c) => c.key)) + csvLine(selected.map((c) => csvCell(c, row)));
        };
      }
      default:
        return (row, index) => {
          if (index === 0) checkFields(columns, fields, row);
          return `${JSON.stringify(pickFields(row, fields))}\n`;
        };
    }
  }

  /** What closes a list of `count` rows: the array's end, or a CSV header alone. */
  async #listEnd<T extends object>(count: number, columns: ReadonlyArray<Column<T>>): Promise<void> {
    if (this.format === 'json') await this.#out(count === 0 ? '[]\n' : '\n]\n');
    if (this.format === 'csv' && count === 0) await this.#out(csvLine(this.#fields ?? columns.map((c) => c.key)));
  }

  raw(bodyText: string): void {
    // The body as received, but for the characters of the one rule, written as escapes a JSON (or
    // XML) reader takes for the same characters: nothing in it acts on the terminal.
    const shown = bodySafe(bodyText);
    void this.#out(shown.endsWith('\n') ? shown : `${shown}\n`);
  }

  text(line: string): void {
    void this.#out(`${printableLines(line)}\n`);
  }

  styledLine(parts: ReadonlyArray<{ text: string; style?: TextStyle }>): void {
    const chalk = this.#chalk;
    const line = parts
      .map(({ text, style }) => (chalk && style ? chalk[style](printable(text)) : printable(text)))
      .join('');
    void this.#out(`${line}\n`);
  }

  info(message: string): void {
    if (!this.#quiet) this.#io.stderr.write(`${printableLines(message)}\n`);
  }

  warn(message: string): void {
    this.#io.stderr.write(`warning: ${printableLines(message)}\n`);
  }

  async spin<T>(text: string, fn: () => Promise<T>): Promise<T> {
    if (!shouldSpin(this.format, { quiet: this.#quiet }, this.#io)) return fn();
    // A terminal that reports 0 columns (some pseudo-terminals) sends ora into an endless redraw.
    const { columns } = this.#io.stderr as { columns?: number };
    if (columns !== undefined && !(columns > 0)) return fn();
    const { default: ora } = await dynamicImport<typeof OraModule>('ora');
    const spinner = ora({
      text: printable(text),
      stream: this.#io.stderr,
      isEnabled: true,
      discardStdin: false,
      color: this.color ? 'cyan' : false,
    }).start();
    try {
      return await fn();
    } finally {
      spinner.stop();
    }
  }
}

/** The Output for this run's streams and global options. */
/**
 * A CSV field: the header is the field's raw name, so the field holds the raw value the service
 * sent (a number stays a number, a date stays in its one form); only a column that is no field
 * of the row (a computed one, such as HELD) takes its table text.
 */
function csvCell<T extends object>(column: Column<T>, row: T): string {
  const raw = (row as Record<string, unknown>)[column.key];
  if (raw === null) return '';
  if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  return column.cell(row);
}

export async function createOutput(options: OutputOptions): Promise<Output> {
  const { io, globals } = options;
  const format = resolveFormat(globals.output, io.stdoutIsTTY);
  const color = resolveColor({ format, flag: globals.color, env: io.env, stdoutIsTTY: io.stdoutIsTTY });
  if (format !== 'table') return new StreamOutput(options, format, false);
  const { default: Table } = await dynamicImport<{ default: typeof CliTable3 }>('cli-table3');
  let chalk: ChalkInstance | undefined;
  if (color) {
    const { Chalk } = await dynamicImport<typeof ChalkModule>('chalk');
    chalk = new Chalk({ level: 1 });
  }
  return new StreamOutput(options, format, color, Table, chalk);
}
