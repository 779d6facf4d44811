import type { Column } from '../../output/types.js';
import { saveBytes, savePreview } from '../saves.js';

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

/**
 * The erase's reply as a row: the key and what the service says of it (`deleted`, the platform's
 * storage page; an older `{key, success}` reply reads as its success).
 */
export function eraseResultColumns(key: string): ReadonlyArray<Column<Record<string, unknown>>> {
  return [
    { key: 'key', header: 'KEY', cell: () => key },
    {
      key: 'result',
      header: 'RESULT',
      cell: (r) => (typeof r[key] === 'string' ? String(r[key]) : r.success === 1 ? 'deleted' : JSON.stringify(r)),
    },
  ];
}

export const SAVE_RESULT_COLUMNS: ReadonlyArray<Column<{ key: string; success: number }>> = [
  { key: 'key', header: 'KEY', cell: (r) => String(r.key) },
  { key: 'success', header: 'SUCCESS', cell: (r) => String(r.success) },
];
