import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { grouped } from '../../src/domain/grouped.js';

describe('grouped', () => {
  it.for([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1000, '1,000'],
    [1200, '1,200'],
    [100000, '100,000'],
    [1234567, '1,234,567'],
    [-1234, '-1,234'],
    [Number.MAX_SAFE_INTEGER, '9,007,199,254,740,991'],
  ] as const)('%d is %s', ([n, text]) => expect(grouped(n)).toBe(text));

  it("writes any whole number as toLocaleString('en-US') does, and any other number through it", () => {
    fc.assert(fc.property(fc.maxSafeInteger(), (n) => grouped(n) === n.toLocaleString('en-US')));
    expect(grouped(1234.5)).toBe((1234.5).toLocaleString('en-US'));
  });
});
