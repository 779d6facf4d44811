import { describe, expect, it } from 'vitest';
import { createSigner } from '../../src/client/signer.js';
import { UsageError } from '../../src/errors.js';
import { hmacSha256Hex, NONCE_PATTERN } from '../../src/domain/signing.js';
import { AGI_SIGNING_VECTORS } from '../fixtures/agi-signing-vectors.js';
import { SIGNING_VECTORS } from '../fixtures/signing-vectors.js';

const fixture = SIGNING_VECTORS;
const CLOCK = 1795000000;

describe('createSigner("hmac-sha256-v1")', () => {
  // The vectors hold no nonce: a caller's own nonce parameter is kept, so `nonce` first in the list reproduces them.
  const NONCE = 'udcli-nonce_0123456789';
  const signer = createSigner('hmac-sha256-v1', fixture.secret, { nonce: () => NONCE });

  /** A vector's canonical string with `nonce=NONCE` in its sorted place (the vectors have unique names). */
  const withNonce = (canonical: string): string => {
    const [method, path, query] = canonical.split('\n');
    const pairs = [...query!.split('&'), `nonce=${NONCE}`].sort((a, b) =>
      a.split('=')[0]! < b.split('=')[0]! ? -1 : 1,
    );
    return `${method}\n${path}\n${pairs.join('&')}`;
  };

  it.each(fixture.vectors.map((v, i) => [i, v] as const))(
    'reproduces vector %i with the nonce added: exact parameters, canonical string and signature',
    (_i, v) => {
      // The vectors list the parameters as sent, timestamp included; the signer adds it itself, and the nonce.
      const unsigned = v.params.filter(([name]) => name !== 'timestamp');
      const { params, canonical } = signer.sign(v.sent_as, v.path, unsigned, CLOCK);
      expect(canonical).toBe(withNonce(v.canonical));
      expect(params).toEqual([
        ...v.params,
        ['nonce', NONCE],
        ['signature', hmacSha256Hex(fixture.secret, withNonce(v.canonical))],
      ]);
    },
  );

  it('a request without the nonce is the vector exactly: the server side checks the vectors as they are', () => {
    for (const v of fixture.vectors) expect(hmacSha256Hex(fixture.secret, v.canonical)).toBe(v.signature);
  });

  it('adds a nonce to every signing and signs it like any parameter (worked example: vector 0 with a nonce, computed with openssl)', () => {
    const v = fixture.vectors[0]!;
    const { params, canonical } = signer.sign(
      v.sent_as,
      v.path,
      v.params.filter(([n]) => n !== 'timestamp'),
      CLOCK,
    );
    expect(params).toEqual([
      ...v.params,
      ['nonce', NONCE],
      ['signature', 'e43c19286d052f80a7a0483312039d209f008e48be2cdf18552f24e1510d80f2'],
    ]);
    expect(canonical).toBe(v.canonical.replace('&pid=', `&nonce=${NONCE}&pid=`));
  });

  const give: Array<[string, string]> = [
    ['api_key', 'k'],
    ['sku', 'gems:500'],
    ['increment', 'true'],
  ];

  it('the real nonces: 22 characters of A-Z a-z 0-9 - _ (the contract: 16 to 64), new on every signing', () => {
    const own = createSigner('hmac-sha256-v1', fixture.secret);
    const signed = Array.from({ length: 50 }, () => own.sign('PUT', '/products/user/u.json', give, CLOCK).params);
    const nonces = signed.map((p) => p.find(([n]) => n === 'nonce')![1]);
    for (const nonce of nonces) expect(nonce).toMatch(NONCE_PATTERN);
    expect(new Set(nonces).size).toBe(50);
    expect(new Set(signed.map((p) => p.at(-1)![1])).size).toBe(50);
  });

  it('the timestamp is the clock’s second, never ahead of it, also for the same request many times in one second', () => {
    const own = createSigner('hmac-sha256-v1', fixture.secret);
    const timestamps = [0, 0.2, 0.9, 0.99].map(
      (dt) => own.sign('PUT', '/products/user/u.json', give, CLOCK + dt).params.find(([n]) => n === 'timestamp')![1],
    );
    expect(timestamps).toEqual([CLOCK, CLOCK, CLOCK, CLOCK].map(String));
    // A timestamp or a nonce the caller chose is kept as it is.
    const chosen: Array<[string, string]> = [...give, ['timestamp', '5'], ['nonce', 'mine-0123456789abcdef']];
    const params = own.sign('PUT', '/products/user/u.json', chosen, CLOCK).params;
    expect(params).toContainEqual(['timestamp', '5']);
    expect(params.filter(([n]) => n === 'nonce')).toEqual([['nonce', 'mine-0123456789abcdef']]);
  });

  it('signs the effective method: sent as POST with method=put, the PUT vector signature comes out', () => {
    const v = fixture.vectors.find((x) => x.sent_as === 'POST')!;
    const asPost = signer.sign(
      'POST',
      v.path,
      v.params.filter(([n]) => n !== 'timestamp'),
      CLOCK,
    );
    expect(asPost.canonical!.startsWith('PUT\n')).toBe(true);
    expect(asPost.params.at(-1)).toEqual(['signature', hmacSha256Hex(fixture.secret, withNonce(v.canonical))]);
  });

  it('uses whole seconds of the clock and replaces a signature already present', () => {
    const { params } = signer.sign(
      'PUT',
      '/p.json',
      [
        ['a', '1'],
        ['signature', 'stale'],
      ],
      CLOCK + 0.75,
    );
    expect(params.filter(([n]) => n === 'signature')).toHaveLength(1);
    expect(params).toContainEqual(['timestamp', String(CLOCK)]);
    expect(params.at(-1)![1]).not.toBe('stale');
  });

  it('signs form-body fields with the query (sorted together), so a changed body breaks the signature', () => {
    const query: Array<[string, string]> = [
      ['api_key', 'k'],
      ['key', 'slot1'],
    ];
    const signed = signer.sign('POST', '/gamesave/u.json', query, CLOCK, undefined, [['data', '{"a":1}']]);
    expect(signed.canonical).toBe(
      `POST\n/gamesave/u.json\napi_key=k&data=%7B%22a%22%3A1%7D&key=slot1&nonce=${NONCE}&timestamp=${CLOCK}`,
    );
    // The body is not added to the parameters sent in the query.
    expect(signed.params.map(([n]) => n)).toEqual(['api_key', 'key', 'timestamp', 'nonce', 'signature']);
    const other = signer.sign('POST', '/gamesave/u.json', query, CLOCK, undefined, [['data', '{"a":2}']]);
    expect(other.params.at(-1)![1]).not.toBe(signed.params.at(-1)![1]);
  });

  it('a different secret gives a different signature', () => {
    const v = fixture.vectors[0]!;
    const other = createSigner('hmac-sha256-v1', 'another-secret');
    const { params } = other.sign(
      'PUT',
      v.path,
      v.params.filter(([n]) => n !== 'timestamp'),
      CLOCK,
    );
    expect(params.at(-1)![1]).not.toBe(v.signature);
  });

  it('without a secret, sign() throws a usage error with a hint', () => {
    const noSecret = createSigner('hmac-sha256-v1');
    let error: unknown;
    try {
      noSecret.sign('PUT', '/p.json', [['a', '1']], CLOCK);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe('no signing secret configured');
    expect((error as UsageError).hint).toContain('--signing-secret');
    expect((error as UsageError).hint).toContain('UDCLI_SIGNING_SECRET');
  });
});

describe('createSigner("none")', () => {
  it('sends the parameters unchanged, with no canonical string, secret or not', () => {
    const signer = createSigner('none');
    expect(signer.scheme).toBe('none');
    const result = signer.sign(
      'PUT',
      '/p.json',
      [
        ['b', '2'],
        ['a', '1'],
      ],
      CLOCK,
    );
    expect(result.params).toEqual([
      ['b', '2'],
      ['a', '1'],
    ]);
    expect(result.canonical).toBeUndefined();
  });

  it('rejects an unknown scheme name from a hand-edited profile', () => {
    expect(() => createSigner('hmac-md5' as never, 's')).toThrow(UsageError);
  });
});

describe('createSigner("agi")', () => {
  const signer = createSigner('agi');

  // udcli sends no form body; the vectors with one are checked on src/domain/agi-signing.ts itself.
  it.each(AGI_SIGNING_VECTORS.vectors.map((v, i) => [i, v] as const).filter(([, v]) => v.body.length === 0))(
    'reproduces agi vector %i: session and sig appended, the joined string and the sig',
    (_i, v) => {
      const { params, canonical, sortedValues } = signer.sign(v.sent_as, v.path, v.query, CLOCK, {
        session: v.session,
        key: v.key,
      });
      expect(params).toEqual([...v.query, ['session', v.session], ['sig', v.sig]]);
      expect(canonical).toBe(v.joined);
      expect(sortedValues!.join('').toLowerCase()).toBe(v.joined);
    },
  );

  it('needs the server challenge: no secret of ours, and a sig/session already present is replaced', () => {
    expect(signer.needsChallenge).toBe(true);
    const v = AGI_SIGNING_VECTORS.vectors[0]!;
    const stale = [...v.query, ['session', 'old'], ['sig', 'old']] as Array<[string, string]>;
    expect(signer.sign(v.sent_as, v.path, stale, CLOCK, { session: v.session, key: v.key }).params.slice(-2)).toEqual([
      ['session', v.session],
      ['sig', v.sig],
    ]);
  });
});
