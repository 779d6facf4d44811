/**
 * --fields: picks table/CSV columns by key and JSON keys by name. A field is known when it is
 * a column key or a key of the data (so JSON can select any field the server sent, and a table
 * can show a field that has no column of its own). Unknown fields are a usage error that
 * lists what is available.
 */
import { UsageError } from '../errors.js';
import type { Column } from './types.js';

function available<T extends object>(columns: ReadonlyArray<Column<T>>, sample: T | undefined): string[] {
  const names = columns.map((c) => c.key);
  if (sample) for (const key of Object.keys(sample)) if (!names.includes(key)) names.push(key);
  return names;
}

function unknownField(field: string, names: readonly string[]): UsageError {
  return new UsageError(`unknown field ${JSON.stringify(field)} for --fields; available: ${names.join(', ')}`);
}

/**
 * A cell for a data key that has no column: every scalar as text (`false` too: the column was
 * asked for by name, so its value is shown), objects as JSON, only null and undefined blank.
 */
export function dataCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The columns to show, in --fields order. Throws UsageError for an unknown field. */
export function selectColumns<T extends object>(
  columns: ReadonlyArray<Column<T>>,
  fields: readonly string[] | undefined,
  sample?: T,
): Array<Column<T>> {
  if (!fields) return [...columns];
  return fields.map((field) => {
    const column = columns.find((c) => c.key === field);
    if (column) return column;
    if (sample && Object.hasOwn(sample, field)) {
      return { key: field, header: field, cell: (row: T) => dataCell((row as Record<string, unknown>)[field]) };
    }
    throw unknownField(field, available(columns, sample));
  });
}

/** Checks --fields against the columns and a sample of the data. Throws UsageError for an unknown field. */
export function checkFields<T extends object>(
  columns: ReadonlyArray<Column<T>>,
  fields: readonly string[] | undefined,
  sample: T | undefined,
): void {
  if (!fields) return;
  const names = available(columns, sample);
  for (const field of fields) if (!names.includes(field)) throw unknownField(field, names);
}

/** The object with only the --fields keys, in that order; a key the object lacks is null. */
export function pickFields<T extends object>(
  value: T,
  fields: readonly string[] | undefined,
): Record<string, unknown> | T {
  if (!fields) return value;
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of fields) out[field] = Object.hasOwn(record, field) ? record[field] : null;
  return out;
}
