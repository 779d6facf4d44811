import { amountText, unitsOfChange } from '../../src/domain/packs.js';
import { describe, expect, it } from 'vitest';
import { achievementReceipt, productReceipt, progressPercent } from '../../src/audit/receipt.js';
import type { ProductEntry, UserAchievement } from '../../src/domain/types.js';

const UID = '01e528d59829836fd23b09085b56edab';

function ach(current: number, state = 'In Progress', target = 10): UserAchievement {
  return {
    id: 1,
    uid: UID,
    achievement_id: 7,
    parent_id: '1001',
    current_value: current,
    percent_complete: (current / target) * 100,
    state,
    started_date: '2024-01-01 00:00:00',
    completed_date: state === 'Completed' ? '2024-01-02 00:00:00' : '0000-00-00 00:00:00',
    updated_date: '2024-01-02 00:00:00',
    developer_id: 'FIRST_WIN',
    type: 'Game',
    name: 'First win',
    target_value: target,
  };
}
const upd = (current: number, state = 'In Progress') => ({
  state,
  current_value: current,
  percent_complete: current * 10,
  developer_id: 'FIRST_WIN',
});

function entry(qty: number | false): ProductEntry {
  return {
    purchase: { success: true, data: qty === false ? false : { quantity: qty }, message: '' },
    product: { sku: 'sword' } as ProductEntry['product'],
  };
}

describe('achievement receipts', () => {
  it('reset from 3 of 10: describes the change and undoes with set 30%', () => {
    expect(
      achievementReceipt({ uid: UID, developerId: 'FIRST_WIN', action: 'reset', before: ach(3), after: upd(0) }),
    ).toEqual({
      change: 'FIRST_WIN of 01e5…: 3/10 In Progress → 0/10 In Progress',
      undo: `udcli achievements set ${UID} FIRST_WIN 30%`,
    });
  });

  it('reset takes the start value from the reply, so the undo percentage is exact for start ≠ 0', () => {
    const r = achievementReceipt({
      uid: UID,
      developerId: 'FIRST_WIN',
      action: 'reset',
      before: ach(7, 'In Progress', 12),
      after: upd(2),
    });
    expect(r.undo).toBe(`udcli achievements set ${UID} FIRST_WIN 50%`); // 2 + 0.5 * (12 - 2) = 7
  });

  it('undoing a reset of a completed achievement says the completion date is lost', () => {
    const r = achievementReceipt({
      uid: UID,
      developerId: 'FIRST_WIN',
      action: 'reset',
      before: ach(10, 'Completed'),
      after: upd(0),
    });
    expect(r.change).toBe('FIRST_WIN of 01e5…: 10/10 Completed → 0/10 In Progress');
    expect(r.undo).toBe(`udcli achievements set ${UID} FIRST_WIN 100%`);
    expect(r.note).toMatch(/completion date/);
  });

  it('set or inc on a user without a record is undone by deleting it', () => {
    const r = achievementReceipt({
      uid: UID,
      developerId: 'FIRST_WIN',
      action: 'inc',
      before: null,
      after: upd(1),
      targetValue: 10,
      startValue: 0,
    });
    expect(r.change).toBe('FIRST_WIN of 01e5…: (none) → 1/10 In Progress');
    expect(r.undo).toBe(`udcli achievements delete ${UID} FIRST_WIN`);
  });

  it('an inc capped at the target changed nothing and needs no undo', () => {
    const r = achievementReceipt({
      uid: UID,
      developerId: 'FIRST_WIN',
      action: 'inc',
      before: ach(10, 'Completed'),
      after: upd(10, 'Completed'),
      startValue: 0,
    });
    expect(r.undo).toBeNull();
    expect(r.note).toBe('nothing changed');
  });

  it('delete of a record with value V is undone by inc --by V-start, noting the dates', () => {
    const r = achievementReceipt({
      uid: UID,
      developerId: 'FIRST_WIN',
      action: 'delete',
      before: ach(6),
      after: ach(6),
      startValue: 1,
    });
    expect(r.change).toBe('FIRST_WIN of 01e5…: 6/10 In Progress → (deleted)');
    expect(r.undo).toBe(`udcli achievements inc ${UID} FIRST_WIN --by 5`);
    expect(r.note).toMatch(/dates cannot be restored/);
  });

  it('delete of a record at its start value cannot be undone', () => {
    const r = achievementReceipt({
      uid: UID,
      developerId: 'FIRST_WIN',
      action: 'delete',
      before: ach(0),
      after: null,
      startValue: 0,
    });
    expect(r.undo).toBeNull();
    expect(r.note).toMatch(/cannot be recreated/);
  });

  it('says so when it had to assume the start value', () => {
    const r = achievementReceipt({ uid: UID, developerId: 'FIRST_WIN', action: 'set', before: ach(4), after: upd(9) });
    expect(r.undo).toBe(`udcli achievements set ${UID} FIRST_WIN 40%`);
    expect(r.note).toMatch(/start value unknown, assumed 0/);
  });

  it('progressPercent gives the shortest percentage the service rounds back to the value', () => {
    expect(progressPercent(3, 0, 10)).toBe('30%');
    expect(progressPercent(1, 0, 3)).toBe('33%'); // round(0.33 * 3) = 1
    expect(progressPercent(2, 0, 3)).toBe('67%');
    for (const [v, s, t] of [
      [12345, 0, 1_000_000],
      [999_999, 0, 1_000_000],
      [5, 2, 9],
      [1, 0, 7],
    ] as const) {
      const p = Number(progressPercent(v, s, t).slice(0, -1)) / 100;
      expect(s + Math.round(p * (t - s))).toBe(v);
    }
  });
});

describe('product receipts', () => {
  it('take --qty 2 is undone by give --qty 2', () => {
    expect(
      productReceipt({ uid: UID, sku: 'sword', action: 'take', qty: 2, before: entry(5), after: entry(3) }),
    ).toEqual({
      change: 'sword of 01e5…: 5 → 3 (take 2 units)',
      undo: `udcli products give ${UID} sword --qty 2`,
    });
  });

  it('give to a user holding none is undone by take', () => {
    expect(productReceipt({ uid: UID, sku: 'sword', action: 'give', qty: 1, before: null, after: entry(1) })).toEqual({
      change: 'sword of 01e5…: 0 → 1 (give 1 unit)',
      undo: `udcli products take ${UID} sword --qty 1`,
    });
  });

  it('falls back to the requested quantity when the platform hides quantities (data: false)', () => {
    const r = productReceipt({
      uid: UID,
      sku: 'sword',
      action: 'take',
      qty: 4,
      before: entry(false),
      after: entry(false),
    });
    expect(r.change).toBe('sword of 01e5…: take 4 units');
    expect(r.undo).toBe(`udcli products give ${UID} sword --qty 4`);
    expect(r.note).toMatch(/quantities unknown/);
  });

  // contract: Products — purchase.data is the units of a consumable, "active" for a held unlockable, false when not
  // held.
  const platform = (success: boolean, data: unknown): ProductEntry => ({
    purchase: { success, data, message: '' },
    product: { sku: 'x' } as ProductEntry['product'],
  });

  it('a pack: the receipt names packs and units, and the undo takes the units back by the base', () => {
    const r = productReceipt({
      uid: UID,
      sku: 'gems:500',
      action: 'give',
      qty: 1000,
      amount: '2 × gems:500 = 1,000 units',
      before: platform(true, 250),
      after: platform(true, 1250),
    });
    expect(r).toEqual({
      change: 'gems:500 of 01e5…: 250 → 1250 (give 2 × gems:500 = 1,000 units)',
      undo: `udcli products take ${UID} gems --qty 1000`,
    });
    expect(amountText('gems:500', 2)).toBe('2 × gems:500 = 1,000 units');
    expect(amountText('gems', 25)).toBe('25 units');
    expect(amountText('gems', 1)).toBe('1 unit');
    expect(unitsOfChange('gems:500', 2)).toBe(1000);
    expect(unitsOfChange('gems', 2)).toBe(2);
  });

  it('a consumable in units: give 30 gems to a user holding 250 is undone by take 30', () => {
    expect(
      productReceipt({
        uid: UID,
        sku: 'gems',
        action: 'give',
        qty: 30,
        before: platform(true, 250),
        after: platform(true, 280),
      }),
    ).toEqual({
      change: 'gems of 01e5…: 250 → 280 (give 30 units)',
      undo: `udcli products take ${UID} gems --qty 30`,
    });
    expect(
      productReceipt({
        uid: UID,
        sku: 'gems',
        action: 'take',
        qty: 5,
        before: platform(true, 5),
        after: platform(false, false),
      }).undo,
    ).toBe(`udcli products give ${UID} gems --qty 5`);
  });

  it('an unlockable: giving one already held changed nothing and has no undo; a first give is undone by take 1', () => {
    const again = productReceipt({
      uid: UID,
      sku: 'sword',
      action: 'give',
      qty: 3,
      before: platform(true, 'active'),
      after: platform(true, 'active'),
    });
    expect(again).toEqual({
      change: 'sword of 01e5…: 1 → 1 (give 3 units)',
      undo: null,
      note: 'nothing changed',
      unchanged: true,
    });
    const first = productReceipt({
      uid: UID,
      sku: 'sword',
      action: 'give',
      qty: 3,
      before: platform(false, false),
      after: platform(true, 'active'),
    });
    expect(first).toEqual({
      change: 'sword of 01e5…: 0 → 1 (give 3 units)',
      undo: `udcli products take ${UID} sword --qty 1`,
    });
    const take = productReceipt({
      uid: UID,
      sku: 'sword',
      action: 'take',
      qty: 1,
      before: platform(true, 'active'),
      after: platform(false, false),
    });
    expect(take.undo).toBe(`udcli products give ${UID} sword --qty 1`);
  });
});

describe('undo commands that land where the change was made (issue 15)', () => {
  it('carry the scope flags (profile, game) on every command, shell-quoted', () => {
    const r = productReceipt({
      uid: UID,
      sku: 'sword',
      action: 'take',
      qty: 5,
      before: entry(5),
      after: entry(0),
      scope: ['--profile', 'prod2'],
    });
    expect(r.undo).toBe(`udcli products give ${UID} sword --qty 5 --profile prod2`);
    const quoted = achievementReceipt({
      uid: UID,
      developerId: 'SPEED RUN/100%',
      action: 'reset',
      before: ach(3),
      after: upd(0),
      scope: ['--profile', "ann's live"],
    });
    expect(quoted.undo).toBe(`udcli achievements set ${UID} 'SPEED RUN/100%' 30% --profile 'ann'\\''s live'`);
    const sku = productReceipt({
      uid: UID,
      sku: 'héros+épée',
      action: 'give',
      qty: 1,
      before: entry(0),
      after: entry(1),
    });
    expect(sku.undo).toBe(`udcli products take ${UID} 'héros+épée' --qty 1`);
  });

  it('a change that completed the achievement is undone by reset then set (Completed is kept through set)', () => {
    const r = achievementReceipt({
      uid: UID,
      developerId: 'LEVEL_10',
      action: 'set',
      before: ach(4),
      after: upd(10, 'Completed'),
      startValue: 0,
      targetValue: 10,
      scope: ['--profile', 'live'],
    });
    expect(r.change).toBe('LEVEL_10 of 01e5…: 4/10 In Progress → 10/10 Completed');
    expect(r.undo).toBe(
      `udcli achievements reset ${UID} LEVEL_10 --profile live && udcli achievements set ${UID} LEVEL_10 40% --profile live`,
    );
    const inc = achievementReceipt({
      uid: UID,
      developerId: 'LEVEL_10',
      action: 'inc',
      before: ach(0),
      after: upd(10, 'Completed'),
      startValue: 0,
      targetValue: 10,
    });
    expect(inc.undo).toBe(`udcli achievements reset ${UID} LEVEL_10`);
  });
});
