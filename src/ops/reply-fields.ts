/**
 * --fields for the replies of mutations, checked before anything is sent: exit 2 promises that
 * nothing was sent, so an unknown field must not surface only when the reply is printed. The
 * fields a reply can have are known in advance (the payload schemas, src/domain/payloads.ts); a reply that lacks
 * one prints it as null rather than failing after the change was made.
 */
import { ACHIEVEMENT_UPDATE, PRODUCT_ENTRY, USER_ACHIEVEMENT } from '../domain/payloads.js';
import type { Column } from '../output/types.js';
import { checkFields } from '../output/fields.js';
import type { Factory } from './factory.js';

const fieldsOf = <P extends object>(schema: { properties: P }) =>
  Object.keys(schema.properties) as Array<keyof P & string>;

/** Spec 2.8, plus what the platform's submit and reset replies add (docs/PLATFORM.md "Quests"). */
export const UPDATE_FIELDS = fieldsOf(ACHIEVEMENT_UPDATE);

/** Spec 2.7: the user achievement a DELETE returns. */
export const USER_ACHIEVEMENT_FIELDS = fieldsOf(USER_ACHIEVEMENT);

/** A products entry as --fields sees it: the product's fields, `quantity`, and `purchase`/`product` whole. */
export const PRODUCT_ENTRY_FIELDS = [
  ...fieldsOf(PRODUCT_ENTRY.properties.product),
  'quantity',
  'purchase',
  'product',
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
