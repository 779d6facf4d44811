/**
 * The memory of used hmac-sha256-v1 signatures (issue 31, 5) is bounded: an entry lives until its
 * window closes (timestamp + 300 s), and when the set is full of live ones a new signature is
 * refused, never an old one forgotten (that would make it replayable).
 */
import { describe, expect, it } from 'vitest';
import { createUsedSignatures } from '../../src/sandbox/http/used-signatures.js';

const T = 1_795_000_000;

describe('used signatures', () => {
  it('a signature is refused from its second use on, whatever its case', () => {
    const used = createUsedSignatures();
    expect(used.spend('ab12', T, T)).toEqual({ ok: true });
    expect(used.spend('ab12', T, T + 10)).toEqual({ ok: false, reason: 'used' });
    expect(used.spend('AB12', T, T + 300)).toEqual({ ok: false, reason: 'used' });
  });

  it('forgets a signature once its window has closed, and not before', () => {
    const used = createUsedSignatures();
    used.spend('a', T, T);
    used.spend('b', T + 100, T);
    expect(used.spend('c', T, T + 300).ok).toBe(true);
    expect(used.size).toBe(3);
    used.spend('d', T + 301, T + 301);
    expect(used.size).toBe(2); // a and c closed at T + 300
    expect(used.spend('b', T + 100, T + 400)).toEqual({ ok: false, reason: 'used' });
    used.spend('e', T + 401, T + 401);
    expect(used.size).toBe(2);
  });

  it('full of live signatures: a new one is refused until the first window closes; none is forgotten early', () => {
    const used = createUsedSignatures(3);
    for (const [k, sig] of ['a', 'b', 'c'].entries()) expect(used.spend(sig, T + k, T + k).ok).toBe(true);
    expect(used.spend('d', T + 10, T + 10)).toEqual({ ok: false, reason: 'full', retryAfterSeconds: 291 });
    for (const sig of ['a', 'b', 'c']) expect(used.spend(sig, T, T + 10)).toEqual({ ok: false, reason: 'used' });
    expect(used.spend('d', T + 301, T + 301)).toEqual({ ok: true });
    expect(used.size).toBe(3);
  });
});
