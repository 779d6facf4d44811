/**
 * --fields for the replies of mutations, checked before anything is sent: exit 2 promises that
 * nothing was sent, so an unknown field must not surface only when the reply is printed. The
 * fields a reply can have are known in advance (the spec's reply shapes); a reply that lacks
 * one prints it as null rather than failing after the change was made.
 */
import type { Column } from '../output/types.js';
import { checkFields } from '../output/fields.js';
import type { Factory } from './factory.js';

/** Spec 2.8, plus what the platform's submit and reset replies add (docs/PLATFORM.md "Quests"). */
export const UPDATE_FIELDS = ['state', 'current_value', 'percent_complete', 'developer_id', 'score_awarded', 'already_completed', 'completed_date'] as const;

/** Spec 2.7: the user achievement a DELETE returns. */
export const USER_ACHIEVEMENT_FIELDS = [
  'id', 'uid', 'achievement_id', 'parent_id', 'current_value', 'percent_complete', 'state', 'started_date',
  'completed_date', 'updated_date', 'developer_id', 'type', 'name', 'target_value',
] as const;

/** A products entry as --fields sees it: the product's fields, `quantity`, and `purchase`/`product` whole. */
export const PRODUCT_ENTRY_FIELDS = [
  'id', 'sku', 'name', 'description', 'type', 'price', 'display_order', 'data', 'media', 'status', 'parent_type',
  'sold', 'created_on', 'updated_on', 'quantity', 'purchase', 'product',
] as const;

/**
 * Checks --fields against the columns and the reply's known fields (UsageError, nothing sent)
 * and returns what makes a reply printable with them: every known field present, null when the
 * server left it out, so printing never fails once the change is made.
 */
export function checkReplyFields<T extends object>(
  factory: Pick<Factory, 'globals'>,
  columns: ReadonlyArray<Column<T>>,
  known: readonly string[],
): (payload: T) => T {
  const { fields } = factory.globals();
  if (!fields) return (payload) => payload;
  checkFields(columns, fields, Object.fromEntries(known.map((k) => [k, null])) as T);
  return (payload) => ({ ...Object.fromEntries(known.map((k) => [k, null])), ...payload }) as T;
}
