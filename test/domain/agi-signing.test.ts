import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  AGI_STATIC_SECRET,
  agiJoined,
  agiSignature,
  agiSignedValues,
  agiSortedValues,
  lastPathSegment,
} from '../../src/domain/agi-signing.js';
import { AGI_SIGNING_VECTORS, SHARED_AGI_VECTORS_FILE } from '../fixtures/agi-signing-vectors.js';

const { vectors } = AGI_SIGNING_VECTORS;

describe('agi signing vectors', () => {
  it.each(vectors.map((v, i) => [i, v] as const))('vector %i: joined string and sig', (_i, v) => {
    const input = { path: v.path, query: v.query, session: v.session, key: v.key, body: v.body };
    expect(agiJoined(input)).toBe(v.joined);
    expect(agiSignature(input)).toBe(v.sig);
    // The explainer's list (with each value's source) and the signer's are one list.
    expect(agiSortedValues(input)).toEqual(agiSignedValues(input).map((s) => s.value));
  });

  it('uses the static secret of the vectors file', () => {
    expect(AGI_SIGNING_VECTORS.static_secret).toBe(AGI_STATIC_SECRET);
  });

  it.runIf(existsSync(SHARED_AGI_VECTORS_FILE))('the fixture is the same as the shared spec copy', () => {
    expect(JSON.parse(readFileSync(SHARED_AGI_VECTORS_FILE, 'utf8'))).toEqual(AGI_SIGNING_VECTORS);
  });

  it('leaves sig and session out, and lower-cases only after sorting', () => {
    const input = {
      path: '/x/y/Z.json',
      query: [
        ['b', 'B'],
        ['a', 'a'],
        ['sig', 'zzz'],
        ['session', 'S'],
      ] as Array<[string, string]>,
      session: 'S',
      key: 'K',
    };
    // 'B' (66) sorts before 'K' (75) and 'S' (83), which sort before 'Shield2', 'Z.json', then 'a'.
    expect(agiSortedValues(input)).toEqual(['B', 'K', 'S', 'Shield2', 'Z.json', 'a']);
    expect(agiJoined(input)).toBe('bksshield2z.jsona');
  });

  it('signs the last path segment only', () => {
    expect(lastPathSegment('/services/rest/v1/products/user/abc.json?x=1')).toBe('abc.json');
  });
});
