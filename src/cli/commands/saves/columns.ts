import type { Column } from '../../../output/types.js';
import { savePreview } from '../../../audit/saves.js';
import { saveBytes } from '../../../ops/saves.js';

/** One save as a row: the key, its size in bytes of UTF-8, and the value. */
export interface SaveRow {
  key: string;
  size: number;
  value: string;
}

export function saveRows(payload: Record<string, unknown>): SaveRow[] {
  return Object.entries(payload)
    .filter((e): e is [string, string] => typeof e[1] === 'string')
    .map(([key, value]) => ({ key, size: saveBytes(value), value }));
}

/** The table and CSV show the start of each value on one line; JSON and NDJSON carry it whole. */
export const SAVE_COLUMNS: ReadonlyArray<Column<SaveRow>> = [
  { key: 'key', header: 'KEY', cell: (r) => r.key },
  { key: 'size', header: 'SIZE', cell: (r) => String(r.size) },
  { key: 'value', header: 'VALUE', cell: (r) => savePreview(r.value, 60).replace(/^\d+ bytes? /, '') },
];

export const SAVE_RESULT_COLUMNS: ReadonlyArray<Column<{ key: string; success: number }>> = [
  { key: 'key', header: 'KEY', cell: (r) => String(r.key) },
  { key: 'success', header: 'SUCCESS', cell: (r) => String(r.success) },
];
