/** `--reason` and `--ticket` (issue 38): bounded, one line, and required where the profile says so. */
import { describe, expect, it } from 'vitest';
import { MAX_REASON, parseWhy } from '../../src/batch/flags.js';
import { UsageError } from '../../src/errors.js';

describe('parseWhy', () => {
  it('keeps a reason and a ticket, trimmed', () => {
    expect(parseWhy({ reason: '  refund for a lost purchase ', ticket: 'SUP-1234' }, null)).toEqual({
      reason: 'refund for a lost purchase',
      ticket: 'SUP-1234',
    });
    expect(parseWhy({}, null)).toEqual({});
    expect(parseWhy({ reason: 'from a file\n', ticket: '\tSUP-1' }, null)).toEqual({
      reason: 'from a file',
      ticket: 'SUP-1',
    });
  });

  it('refuses control characters, empty or oversized values, and a ticket with spaces', () => {
    for (const flags of [
      { reason: 'a\u001b[2Jb' },
      { reason: 'two\nlines' },
      { reason: '   ' },
      { reason: 'x'.repeat(MAX_REASON + 1) },
      { ticket: 'SUP 1234' },
      { ticket: 'x'.repeat(101) },
      { ticket: '\u202eSUP' },
      // Shows nothing, so SUP-779 would never find it; also at an end, where trim() would drop some.
      { ticket: 'SUP\u200b-779' },
      { ticket: 'SUP-779\u2028' },
      { ticket: '\ufeffSUP-779' },
      { reason: 'soft\u00adhyphen' },
      { reason: 'tagged\u{e0041}' },
    ]) {
      expect(() => parseWhy(flags, null), JSON.stringify(flags)).toThrow(UsageError);
    }
    expect(parseWhy({ reason: 'x'.repeat(MAX_REASON) }, null).reason).toHaveLength(MAX_REASON);
  });

  it('require_reason: both are needed, and the refusal names what is missing', () => {
    expect(() => parseWhy({}, { profile: 'prod' })).toThrow(
      'profile prod requires a reason for every change: give --reason TEXT and --ticket REF; nothing was sent',
    );
    expect(() => parseWhy({ ticket: 'SUP-1' }, { profile: 'prod' })).toThrow('give --reason TEXT; nothing was sent');
    expect(parseWhy({ reason: 'r', ticket: 'SUP-1' }, { profile: 'prod' })).toEqual({ reason: 'r', ticket: 'SUP-1' });
  });
});
