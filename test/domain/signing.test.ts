import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalString, hmacSha256Hex, rfc3986, signaturesEqual } from '../../src/domain/signing.js';
import { isHex32, normalizeApiKey, uidForUsername } from '../../src/domain/ids.js';
import { DEMO } from '../../src/domain/demo.js';
import { SHARED_VECTORS_FILE, SIGNING_VECTORS } from '../fixtures/signing-vectors.js';

const vectors = SIGNING_VECTORS;

describe('hmac-sha256-v1 signing vectors', () => {
  it.each(vectors.vectors.map((v, i) => [i, v] as const))('vector %i: canonical string and signature', (_i, v) => {
    const canonical = canonicalString(v.sent_as, v.path, v.params);
    expect(canonical).toBe(v.canonical);
    expect(hmacSha256Hex(vectors.secret, canonical)).toBe(v.signature);
  });

  it.runIf(existsSync(SHARED_VECTORS_FILE))('the fixture is the same as the shared spec copy', () => {
    expect(JSON.parse(readFileSync(SHARED_VECTORS_FILE, 'utf8'))).toEqual(vectors);
  });

  it('the demo game signs with the vectors secret, so vectors verify against the sandbox', () => {
    expect(DEMO.game.signingSecret).toBe(vectors.secret);
  });
});

describe('signing helpers', () => {
  it('encodes RFC 3986 reserved characters that encodeURIComponent keeps', () => {
    expect(rfc3986("a!b'c(d)e*f~g")).toBe('a%21b%27c%28d%29e%2Af~g');
    expect(rfc3986('héros+épée')).toBe('h%C3%A9ros%2B%C3%A9p%C3%A9e');
  });

  it('compares signatures without accepting near misses', () => {
    const sig = hmacSha256Hex('k', 'data');
    expect(signaturesEqual(sig, sig)).toBe(true);
    expect(signaturesEqual(sig, sig.toUpperCase())).toBe(true);
    expect(signaturesEqual(sig, sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0'))).toBe(false);
    expect(signaturesEqual(sig, sig.slice(0, 10))).toBe(false);
  });
});

describe('identifiers', () => {
  it('accepts api keys in hex and UUID form, any case', () => {
    expect(normalizeApiKey('B84276AA-5397-4B89-A8BA-0F16FFB7566F')).toBe('b84276aa53974b89a8ba0f16ffb7566f');
    expect(normalizeApiKey('B84276AA53974B89A8BA0F16FFB7566F')).toBe('b84276aa53974b89a8ba0f16ffb7566f');
    expect(normalizeApiKey('B84276AA-5397-4B89-A8BA-0F16FFB7566')).toBeNull();
    expect(normalizeApiKey('not-a-key')).toBeNull();
  });

  it('sandbox uids are md5 of the username', () => {
    expect(uidForUsername(DEMO.user.username)).toBe(DEMO.user.uid);
    expect(isHex32(DEMO.user.uid.toUpperCase())).toBe(true);
    expect(isHex32('xyz')).toBe(false);
  });
});
