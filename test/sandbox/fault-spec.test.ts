/**
 * The --faults spec and the clock's inputs (issue 11): what is accepted, and for every bad input
 * one message naming the bad part. Pure functions; the CLI wraps them as usage errors (exit 2).
 */
import { describe, expect, it } from 'vitest';
import { parseFaultOptions } from '../../src/cli/commands/sandbox/options.js';
import { UsageError } from '../../src/errors.js';
import { parseAdvance, parseSetTime } from '../../src/sandbox/clock-input.js';
import { createFaultInjector, seededRandom } from '../../src/sandbox/faults/injector.js';
import { FAULT_KINDS, parseFaultSeed, parseFaultSpec } from '../../src/sandbox/faults/spec.js';

describe('parseFaultSpec', () => {
  it('reads a comma list of kind=probability; slow takes a delay (ms or s, default 1500 ms)', () => {
    expect(parseFaultSpec(' reset=0.1, html-502=.05 ,slow=0.2:2s').rules).toEqual([
      { kind: 'reset', probability: 0.1 },
      { kind: 'html-502', probability: 0.05 },
      { kind: 'slow', probability: 0.2, delayMs: 2000 },
    ]);
    expect(parseFaultSpec('slow=1').rules).toEqual([{ kind: 'slow', probability: 1, delayMs: 1500 }]);
    expect(parseFaultSpec('slow=0.5:250ms').text).toBe('slow=0.5:250ms');
    expect(parseFaultSpec('reset=0.1,html-502=.05').text).toBe('reset=0.1,html-502=0.05');
  });

  it('accepts every kind, and probabilities that add up to exactly 1', () => {
    for (const kind of FAULT_KINDS) expect(parseFaultSpec(`${kind}=1`).rules[0]!.kind).toBe(kind);
    expect(parseFaultSpec('reset=0.5,empty=0.5,truncated=0').rules).toHaveLength(3);
    expect(parseFaultSpec('reset=0.1,empty=0.2,truncated=0.7').rules).toHaveLength(3);
  });

  it.each([
    ['', /^empty spec/],
    ['reset', /^"reset" is not kind=probability/],
    ['reset=0.1,', /^empty entry in "reset=0.1,"/],
    ['reset=0.1,,empty=0.1', /^empty entry/],
    [
      'explode=0.1',
      /^unknown kind "explode" in "explode=0.1" \(kinds: envelope-error, html-502, truncated, empty, slow, reset, rate-limit, challenge-again\)/,
    ],
    ['RESET=0.1', /^unknown kind "RESET"/],
    ['reset=1.5', /^bad probability "1.5" in "reset=1.5": expected a number from 0 to 1/],
    ['reset=-0.1', /^bad probability "-0.1"/],
    ['reset=abc', /^bad probability "abc"/],
    ['reset=', /^bad probability ""/],
    ['reset=10%', /^bad probability "10%"/],
    ['slow=0.2:15x', /^bad delay "15x" in "slow=0.2:15x": expected a duration like 1500ms or 2s/],
    ['slow=0.2:', /^bad delay ""/],
    ['slow=0.2:999s', /^bad delay "999s".*at most 120s/],
    ['reset=0.2:100ms', /^only slow takes a delay: "reset=0.2:100ms"/],
    ['reset=0.1,reset=0.2', /^reset is given twice/],
    ['reset=0.6,html-502=0.5', /^the probabilities add up to 1.1, more than 1/],
  ])('refuses %j', (spec, message) => {
    expect(() => parseFaultSpec(spec)).toThrow(message);
  });

  it('--fault-seed is an integer 0..2^32-1', () => {
    expect(parseFaultSeed('0')).toBe(0);
    expect(parseFaultSeed('4294967295')).toBe(4294967295);
    for (const bad of ['-1', '4294967296', '1.5', 'seven', ''])
      expect(() => parseFaultSeed(bad)).toThrow(/expected an integer from 0 to 4294967295/);
  });
});

describe('--faults and --fault-seed as options', () => {
  it('a bad spec is a UsageError naming the option and the bad part, on one line', () => {
    const error = (() => {
      try {
        parseFaultOptions({ faults: 'reset=2' });
      } catch (e) {
        return e as Error;
      }
      throw new Error('expected a usage error');
    })();
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe('invalid --faults: bad probability "2" in "reset=2": expected a number from 0 to 1');
  });

  it('--fault-seed alone, or a bad seed, is a UsageError', () => {
    expect(() => parseFaultOptions({ faultSeed: '7' })).toThrow(UsageError);
    expect(() => parseFaultOptions({ faultSeed: '7' })).toThrow('--fault-seed needs --faults');
    expect(() => parseFaultOptions({ faults: 'reset=0.1', faultSeed: 'x' })).toThrow(
      'invalid --fault-seed: expected an integer',
    );
  });

  it('no --faults: none; a spec without a seed leaves the seed to the start', () => {
    expect(parseFaultOptions({})).toBeUndefined();
    expect(parseFaultOptions({ faults: 'reset=0.1' })).toMatchObject({ seed: undefined, spec: { text: 'reset=0.1' } });
    expect(parseFaultOptions({ faults: 'reset=0.1', faultSeed: '42' })).toMatchObject({ seed: 42 });
  });
});

describe('the draws', () => {
  it('the same seed gives the same sequence; another seed another one', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const c = seededRandom(8);
    const seqA = Array.from({ length: 20 }, () => a());
    expect(Array.from({ length: 20 }, () => b())).toEqual(seqA);
    expect(Array.from({ length: 20 }, () => c())).not.toEqual(seqA);
    expect(seqA.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('probability 1 faults every request, 0 none; the shares follow the spec', () => {
    const all = createFaultInjector(parseFaultSpec('reset=1'), 1);
    expect(Array.from({ length: 50 }, () => all.draw()?.kind)).toEqual(Array(50).fill('reset'));
    const none = createFaultInjector(parseFaultSpec('reset=0'), 1);
    expect(Array.from({ length: 50 }, () => none.draw())).toEqual(Array(50).fill(null));
    const mixed = createFaultInjector(parseFaultSpec('reset=0.25,empty=0.5'), 3);
    const kinds = Array.from({ length: 4000 }, () => mixed.draw()?.kind ?? 'none');
    const share = (k: string) => kinds.filter((x) => x === k).length / kinds.length;
    expect(share('reset')).toBeCloseTo(0.25, 1);
    expect(share('empty')).toBeCloseTo(0.5, 1);
    expect(share('none')).toBeCloseTo(0.25, 1);
    expect(mixed.summary()).toMatchObject({
      spec: 'reset=0.25,empty=0.5',
      seed: 3,
      requests: 4000,
      counts: { reset: 0, empty: 0 },
    });
  });
});

describe('clock inputs', () => {
  it('advance: seconds, or a number with s, m, h or d', () => {
    expect(parseAdvance('901s')).toBe(901);
    expect(parseAdvance('901')).toBe(901);
    expect(parseAdvance('15m')).toBe(900);
    expect(parseAdvance('2h')).toBe(7200);
    expect(parseAdvance('1d')).toBe(86_400);
    expect(parseAdvance('1.5m')).toBe(90);
  });

  it.each(['5x', '', '-5s', 's', '1e3', '5 weeks', '99999d'])('advance refuses %j with one line', (bad) => {
    expect(() => parseAdvance(bad)).toThrow(/^invalid duration ".*": expected seconds or a number with s, m, h or d/);
  });

  it('set: ISO 8601; UTC without a zone; a date alone is midnight UTC', () => {
    expect(parseSetTime('2030-01-01T12:00:00Z')).toBe(Date.UTC(2030, 0, 1, 12));
    expect(parseSetTime('2030-01-01T12:00:00')).toBe(Date.UTC(2030, 0, 1, 12));
    expect(parseSetTime('2030-01-01 12:00')).toBe(Date.UTC(2030, 0, 1, 12));
    expect(parseSetTime('2030-01-01T12:00:00+02:00')).toBe(Date.UTC(2030, 0, 1, 10));
    expect(parseSetTime('2030-01-01T12:00:00.250Z')).toBe(Date.UTC(2030, 0, 1, 12, 0, 0, 250));
    expect(parseSetTime('2020-01-01')).toBe(Date.UTC(2020, 0, 1));
  });

  it.each(['notadate', '', '2030-02-31', '2030-13-01T00:00:00Z', '2030-01-01T25:00:00Z', 'tomorrow', '1700000000'])(
    'set refuses %j with one line',
    (bad) => {
      expect(() => parseSetTime(bad)).toThrow(/^invalid date-time ".*": expected ISO 8601 like 2030-01-01T12:00:00Z$/);
    },
  );

  it.each([
    ['1969-12-31T23:59:59Z', 'before 1970-01-01T00:00:00Z'],
    ['0000-01-01', 'before 1970-01-01T00:00:00Z'],
    ['9999-12-31T23:30:00-01:00', 'after 9999-12-31T23:59:59Z'],
  ])('set refuses %j outside the years the sandbox keeps, naming the bound', (bad, bound) => {
    expect(() => parseSetTime(bad)).toThrow(
      `date-time "${bad}" is ${bound}: the sandbox's clock runs from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z`,
    );
  });
});
