/**
 * The products table's HELD column and the achievements list's cells and Not Started rows,
 * from the reply shapes docs/SERVICE.md and docs/PLATFORM.md name, and an awkward platform's.
 */
import { describe, expect, it } from 'vitest';
import { USER_ACHIEVEMENT_COLUMNS } from '../../src/ops/columns/achievements.js';
import { notStartedRow } from '../../src/cli/commands/achievements/list.js';
import { fieldView, heldText, PRODUCT_COLUMNS } from '../../src/ops/columns/products.js';
import { eraseResultColumns } from '../../src/ops/columns/saves.js';
import type { AchievementDefinition, ProductEntry, UserAchievement } from '../../src/domain/types.js';

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
    // The platform's data-objects page: a held unlockable is {success: true, data: true}.
    expect(heldText(entry(true, true, 'unlockable'))).toBe('yes');
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

describe('achievements list: the zero date and the Not Started rows', () => {
  it('shows the zero completed_date (not completed) as nothing, a real date in ISO 8601 like every table', () => {
    const cell = USER_ACHIEVEMENT_COLUMNS.find((c) => c.key === 'completed_date')!.cell;
    expect(cell({ completed_date: '0000-00-00 00:00:00' } as UserAchievement)).toBe('');
    expect(cell({ completed_date: '2024-05-01 10:05:00' } as UserAchievement)).toBe('2024-05-01T10:05:00Z');
    expect(cell({ completed_date: 'yesterday' } as UserAchievement)).toBe('yesterday');
    expect(cell({ completed_date: null } as UserAchievement)).toBe('');
  });

  it('builds a Not Started row from a definition: start value, 0 %, no id or dates', () => {
    const def = {
      id: 7,
      developer_id: 'X',
      parent_id: '1001',
      type: 'Game',
      name: 'Ex',
      start_value: 2,
      target_value: 9,
    } as AchievementDefinition;
    expect(notStartedRow('u', def)).toMatchObject({
      id: null,
      state: 'Not Started',
      current_value: 2,
      percent_complete: 0,
      started_date: null,
      completed_date: '0000-00-00 00:00:00',
      target_value: 9,
    });
  });
});

describe('saves erase: the reply as a row', () => {
  it('shows the key and what the service says of it: "deleted" (the platform\'s storage page)', () => {
    const [key, result] = eraseResultColumns('slot1');
    expect([key!.cell({ slot1: 'deleted' }), result!.cell({ slot1: 'deleted' })]).toEqual(['slot1', 'deleted']);
    // An older server's {key, success: 1} reads the same.
    expect(result!.cell({ key: 'slot1', success: 1 })).toBe('deleted');
  });
});
