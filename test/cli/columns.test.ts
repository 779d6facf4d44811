/**
 * The products table's HELD column and the achievements list's --started filter (issue 9),
 * from the reply shapes contract.md and platform.md name, and an awkward platform's.
 */
import { describe, expect, it } from 'vitest';
import { isStarted } from '../../src/cli/commands/achievements/list.js';
import { fieldView, heldText, PRODUCT_COLUMNS } from '../../src/cli/commands/products/columns.js';
import type { ProductEntry, UserAchievement } from '../../src/domain/types.js';

const entry = (success: unknown, data: unknown, type = 'consumable'): ProductEntry =>
  ({ purchase: { success, data, message: '' }, product: { sku: 'x', name: 'X', type } }) as unknown as ProductEntry;

describe('products: HELD', () => {
  it('tells held from not held, with units for a consumable, whatever form purchase.data takes', () => {
    expect(heldText(entry(true, 'active', 'unlockable'))).toBe('yes');
    expect(heldText(entry(true, 17))).toBe('17');
    expect(heldText(entry(true, '17'))).toBe('17');
    expect(heldText(entry(true, { quantity: 3 }))).toBe('3');
    expect(heldText(entry(true, { qty: '4' }))).toBe('4');
    expect(heldText(entry(true, { anything: 'else' }))).toBe('yes');
    expect(heldText(entry(false, false, 'unlockable'))).toBe('-');
    expect(heldText(entry(true, false))).toBe('-');
    expect(heldText(entry(true, 0))).toBe('-');
    expect(heldText({} as ProductEntry)).toBe('-');
  });

  it('is a column of the table and a field of --fields', () => {
    expect(PRODUCT_COLUMNS.map((c) => c.header)).toEqual(['SKU', 'NAME', 'TYPE', 'HELD', 'PRICE']);
    expect(fieldView(entry(true, 20))).toMatchObject({ sku: 'x', held: '20', quantity: 20 });
    expect(fieldView(entry(false, false))).toMatchObject({ held: '-', quantity: 0 });
    expect(fieldView(entry(true, 'active'))).toMatchObject({ held: 'yes', quantity: 1 });
  });
});

describe('achievements list --started', () => {
  it("hides the rows in state 'Not Started' only", () => {
    const rows = [{ state: 'Not Started' }, { state: 'Started' }, { state: 'Completed' }, { state: 'not started' }, {}] as UserAchievement[];
    expect(rows.filter(isStarted)).toEqual([{ state: 'Started' }, { state: 'Completed' }, {}]);
  });
});
