import { describe, expect, it } from 'vitest';
import { parseRetryAfter, readEnvelope } from '../../src/client/envelope.js';
import type { HttpResult } from '../../src/client/transport.js';
import { ApiError, MalformedReplyError } from '../../src/errors.js';

const ctx = { method: 'GET', target: 'http://127.0.0.1:1/services/rest/v1/users/x.json', nowMs: Date.UTC(2026, 0, 1) };

function reply(status: number, body: string, headers: Record<string, string> = {}, statusText = ''): HttpResult {
  return { status, statusText, headers, bodyText: body, bytes: Buffer.byteLength(body) };
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected an error');
}

describe('readEnvelope', () => {
  it('returns the payload, envelope, body and status of a success', () => {
    const body = JSON.stringify({ version: 1, code: 200, message: 'OK', payload: { uid: 'a', username: 'b' } });
    const r = readEnvelope(reply(200, body), ctx);
    expect(r.payload).toEqual({ uid: 'a', username: 'b' });
    expect(r.envelope).toMatchObject({ version: 1, code: 200, message: 'OK' });
    expect(r.bodyText).toBe(body);
    expect(r.httpStatus).toBe(200);
  });

  it('accepts code and version sent as strings, and keeps unknown fields untouched', () => {
    const payload = { uid: 'a', created_on: 1700000000, plays_game: '1', shiny: { deep: [1, 'x'] } };
    const body = JSON.stringify({ version: '1', code: '200', message: 'OK', payload, server_time: 5 });
    const r = readEnvelope(reply(200, body), ctx);
    expect(r.envelope.code).toBe(200);
    expect(r.envelope.version).toBe(1);
    expect(r.payload).toEqual(payload);
    expect((r.envelope as unknown as Record<string, unknown>).server_time).toBe(5);
  });

  it('an error code under HTTP 200 is an error with the body code', () => {
    const e = thrown(() =>
      readEnvelope(
        reply(200, JSON.stringify({ version: 1, code: 404, message: 'not found: user x', payload: null })),
        ctx,
      ),
    );
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ code: 404, httpStatus: 200, message: 'not found: user x' });
    // `udcli api` prints the error reply exactly as received.
    expect((e as ApiError).bodyText).toBe(
      JSON.stringify({ version: 1, code: 404, message: 'not found: user x', payload: null }),
    );
  });

  it('a null payload with code 200 is a success (authenticate: not logged in)', () => {
    const r = readEnvelope(
      reply(200, JSON.stringify({ version: 1, code: 200, message: 'invalid token', payload: null })),
      ctx,
    );
    expect(r.payload).toBeNull();
    expect(r.envelope.message).toBe('invalid token');
  });

  it('an error status with an envelope uses the envelope code and message', () => {
    const e = thrown(() =>
      readEnvelope(reply(403, JSON.stringify({ version: 1, code: 403, message: 'bad signature', payload: null })), ctx),
    );
    expect(e).toMatchObject({ code: 403, httpStatus: 403, message: 'bad signature' });
    expect((e as ApiError).hint).toContain('signing_secret');
  });

  it.each([
    [401, 'invalid api_key', "check the profile's api_key (`udcli profile show`)"],
    [403, 'stale timestamp', "check this machine's clock: signed requests must be within 300 s of the server's"],
    [403, 'signature required', "check the profile's signing_secret and signing_scheme (`udcli profile show`)"],
  ])('a %i "%s" carries the hint a user needs', (code, message, hint) => {
    const e = thrown(() =>
      readEnvelope(reply(code, JSON.stringify({ version: 1, code, message, payload: null })), ctx),
    );
    expect((e as ApiError).hint).toBe(hint);
  });

  it('HTML on an error status is a clear ApiError carrying the HTTP status', () => {
    const e = thrown(() =>
      readEnvelope(
        reply(502, '<html><body>Bad Gateway</body></html>', { 'content-type': 'text/html' }, 'Bad Gateway'),
        ctx,
      ),
    );
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({
      code: 502,
      httpStatus: 502,
      message: 'HTTP 502 Bad Gateway (the reply was not a service envelope)',
    });
    expect((e as ApiError).bodyText).toBe('<html><body>Bad Gateway</body></html>');
  });

  it('an empty body on an error status says so', () => {
    const e = thrown(() => readEnvelope(reply(404, '', {}, 'Not Found'), ctx));
    expect(e).toMatchObject({ code: 404, message: 'HTTP 404 Not Found (empty reply)' });
  });

  it('truncated JSON on an error status is an ApiError, on HTTP 200 a MalformedReplyError', () => {
    const truncated = '{"version":1,"code":200,"message":"OK","payload":{"uid":"ab';
    expect(thrown(() => readEnvelope(reply(500, truncated, {}, 'Internal Server Error'), ctx))).toMatchObject({
      code: 500,
      message: 'HTTP 500 Internal Server Error (the reply was not a service envelope)',
    });
    const e = thrown(() => readEnvelope(reply(200, truncated, { 'content-type': 'application/json' }), ctx));
    expect(e).toBeInstanceOf(MalformedReplyError);
    expect((e as Error).message).toContain(
      'GET http://127.0.0.1:1/services/rest/v1/users/x.json was not a service envelope',
    );
    expect((e as Error).message).toContain('HTTP 200, application/json');
  });

  it('never echoes a key-like value from an unexpected body', () => {
    const e = thrown(() => readEnvelope(reply(200, 'key=0123456789abcdef0123456789abcdef'), ctx));
    expect((e as Error).message).not.toContain('0123456789abcdef0123456789abcdef');
  });

  it('JSON that is not an envelope on HTTP 200 is malformed', () => {
    expect(thrown(() => readEnvelope(reply(200, '[1,2]'), ctx))).toBeInstanceOf(MalformedReplyError);
    expect(thrown(() => readEnvelope(reply(200, '{"status":true}'), ctx))).toBeInstanceOf(MalformedReplyError);
  });

  it('puts Retry-After on the error', () => {
    const body = JSON.stringify({ version: 1, code: 429, message: 'rate limited', payload: null });
    expect(thrown(() => readEnvelope(reply(429, body, { 'retry-after': '3' }), ctx))).toMatchObject({
      code: 429,
      retryAfter: 3,
    });
    expect(thrown(() => readEnvelope(reply(429, '', { 'retry-after': '7' }), ctx))).toMatchObject({
      code: 429,
      retryAfter: 7,
    });
  });

  it('reads the .xml form of the envelope (payload left as the XML text)', () => {
    const xml =
      '<?xml version="1.0"?><response><version>1</version><code>404</code><message>not found: user</message><payload/></response>';
    expect(thrown(() => readEnvelope(reply(404, xml, { 'content-type': 'application/xml' }), ctx))).toMatchObject({
      code: 404,
      message: 'not found: user',
    });
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, ignores garbage', () => {
    expect(parseRetryAfter('5', ctx.nowMs)).toBe(5);
    expect(parseRetryAfter(' 0 ', ctx.nowMs)).toBe(0);
    expect(parseRetryAfter(new Date(ctx.nowMs + 4_500).toUTCString(), ctx.nowMs)).toBe(4);
    expect(parseRetryAfter(new Date(ctx.nowMs - 60_000).toUTCString(), ctx.nowMs)).toBe(0);
    expect(parseRetryAfter('soon', ctx.nowMs)).toBeUndefined();
    expect(parseRetryAfter(undefined, ctx.nowMs)).toBeUndefined();
  });
});

describe('signature hints follow the signing scheme', () => {
  const refusal = (code: number, message: string) =>
    reply(code, JSON.stringify({ version: 1, code, message, payload: null }));
  const hint = (code: number, message: string, scheme?: 'agi' | 'hmac-sha256-v1' | 'none') =>
    (thrown(() => readEnvelope(refusal(code, message), { ...ctx, ...(scheme ? { scheme } : {}) })) as ApiError).hint;

  it('agi has no secret of ours: never tells the user to check one', () => {
    expect(hint(401, 'bad signature', 'agi')).toBe(
      'the server did not accept the agi signature: check signing_scheme (`udcli profile show`)',
    );
    expect(hint(403, 'signature required', 'agi')).toMatch(/^this server wants hmac-sha256-v1 signatures/);
    // (the 403 hint is about switching to hmac-sha256-v1, which has a secret)
    for (const [code, message] of [
      [401, 'bad signature'],
      [401, 'stale session'],
      [401, 'signature required'],
    ] as const) {
      expect(hint(code, message, 'agi')).not.toMatch(/signing_secret/);
    }
  });

  it('hmac-sha256-v1 points at the secret and the clock; none at choosing a scheme', () => {
    expect(hint(403, 'bad signature', 'hmac-sha256-v1')).toBe(
      "check the profile's signing_secret and signing_scheme (`udcli profile show`)",
    );
    expect(hint(403, 'stale timestamp', 'hmac-sha256-v1')).toMatch(/clock/);
    expect(hint(403, 'signature required', 'none')).toMatch(/signing_scheme agi/);
  });
});
