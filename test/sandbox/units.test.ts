/** Small pure parts: the progress state machine, the query parser, the XML writer. */
import { describe, expect, it } from 'vitest';
import { nextProgress, percentComplete, RevokedQuest, type Progress } from '../../src/sandbox/domain/achievements.js';
import { toXml } from '../../src/sandbox/http/envelope.js';
import { ApiFailure } from '../../src/sandbox/http/failure.js';
import { parseQuery, splitTarget } from '../../src/sandbox/http/query.js';

const goal = { startValue: 0, targetValue: 10 };
const started: Progress = { currentValue: 4, state: 'In Progress', startedOn: 100, completedOn: null, updatedOn: 150 };
const completed: Progress = { currentValue: 10, state: 'Completed', startedOn: 100, completedOn: 200, updatedOn: 200 };

describe('nextProgress', () => {
  it('starts at start_value, adds, caps at the target and completes there', () => {
    expect(nextProgress(goal, undefined, { kind: 'increment', by: 3 }, 500)).toEqual({
      currentValue: 3,
      state: 'In Progress',
      startedOn: 500,
      completedOn: null,
      updatedOn: 500,
    });
    expect(nextProgress(goal, started, { kind: 'increment', by: 100 }, 500)).toEqual({
      currentValue: 10,
      state: 'Completed',
      startedOn: 100,
      completedOn: 500,
      updatedOn: 500,
    });
  });

  it('never changes a Completed record except by reset', () => {
    expect(nextProgress(goal, completed, { kind: 'increment', by: 1 }, 900)).toBeNull();
    expect(nextProgress(goal, completed, { kind: 'progress', fraction: 0.2 }, 900)).toBeNull();
    expect(nextProgress(goal, completed, { kind: 'reset' }, 900)).toEqual({
      currentValue: 0,
      state: 'In Progress',
      startedOn: 100,
      completedOn: null,
      updatedOn: 900,
    });
  });

  it('sets progress as start + round(P * (target - start)), down as well as up', () => {
    const g = { startValue: 5, targetValue: 8 };
    expect(nextProgress(g, undefined, { kind: 'progress', fraction: 0.5 }, 1)?.currentValue).toBe(7); // 5 + round(1.5)
    expect(nextProgress(g, { ...started, currentValue: 7 }, { kind: 'progress', fraction: 0.1 }, 1)?.currentValue).toBe(
      5,
    );
    expect(nextProgress(g, undefined, { kind: 'progress', fraction: 1 }, 1)).toMatchObject({
      currentValue: 8,
      state: 'Completed',
    });
  });

  it('a reset of a quest never started starts it, like a submit', () => {
    expect(nextProgress(goal, undefined, { kind: 'reset' }, 1)).toEqual({
      currentValue: 0,
      state: 'In Progress',
      startedOn: 1,
      completedOn: null,
      updatedOn: 1,
    });
  });

  it('a Revoked quest takes no change at all', () => {
    const revoked: Progress = { ...started, state: 'Revoked' };
    for (const change of [
      { kind: 'increment', by: 1 },
      { kind: 'progress', fraction: 1 },
      { kind: 'reset' },
    ] as const) {
      expect(() => nextProgress(goal, revoked, change, 1)).toThrow(RevokedQuest);
    }
  });

  it('percent_complete is an integer, floored, 100 only when complete', () => {
    expect(percentComplete({ startValue: 0, targetValue: 3 }, 1)).toBe(33);
    expect(percentComplete({ startValue: 0, targetValue: 3 }, 2)).toBe(66);
    expect(percentComplete({ startValue: 0, targetValue: 100 }, 29)).toBe(29);
    expect(percentComplete({ startValue: 0, targetValue: 1000 }, 999)).toBe(99);
    expect(percentComplete({ startValue: 1, targetValue: 10 }, 10, 'Completed')).toBe(100);
    expect(percentComplete({ startValue: 1, targetValue: 10 }, 10, 'Revoked')).toBe(99);
  });
});

describe('parseQuery', () => {
  it('keeps every pair in order, decodes percent-escapes and + as space', () => {
    expect(parseQuery('b=2&a=%C3%A9+x&a=3&flag&&c=').pairs).toEqual([
      ['b', '2'],
      ['a', 'é x'],
      ['a', '3'],
      ['flag', ''],
      ['c', ''],
    ]);
  });

  it('treats empty as missing and a repeated name as invalid when read', () => {
    const q = parseQuery('x=&y=1&y=2');
    expect(q.get('x')).toBeUndefined();
    expect(() => q.get('y')).toThrow('invalid parameter: y (given more than once)');
    expect(() => q.require('x')).toThrow('missing parameter: x');
  });

  it('rejects bad encodings with a 400 naming the parameter', () => {
    const error = (() => {
      try {
        parseQuery('ok=1&name=%zz');
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(ApiFailure);
    expect((error as ApiFailure).code).toBe(400);
    expect((error as ApiFailure).message).toBe('invalid parameter: name (bad percent-encoding)');
  });

  it('splits origin-form and absolute-form targets', () => {
    expect(splitTarget('/a/b.json?x=1#frag')).toEqual({ path: '/a/b.json', query: 'x=1' });
    expect(splitTarget('http://h:1/a?q')).toEqual({ path: '/a', query: 'q' });
  });
});

describe('toXml', () => {
  it('writes objects as elements, arrays as <item>, null as nil, and escapes text', () => {
    const xml = toXml({
      version: 1,
      code: 200,
      message: 'a<b & "c"',
      payload: [{ n: 1, ok: true, none: null, tags: { '7': 'x' } }],
    });
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<response><version>1</version><code>200</code><message>a&lt;b &amp; &quot;c&quot;</message>' +
        '<payload><item><n>1</n><ok>true</ok><none nil="true"/><tags><item key="7">x</item></tags></item></payload></response>\n',
    );
  });

  it('replaces characters XML cannot carry', () => {
    expect(toXml({ version: 1, code: 200, message: 'a\u0000b\ud800', payload: null })).toContain(
      '<message>a\ufffdb\ufffd</message>',
    );
  });
});
