/**
 * The client's tolerance expectations (client.test.ts, agi.test.ts: against the awkward test
 * platform) again, against the real sandbox started with `--faults KIND=1` (issue 11): the same
 * errors, the same retry decisions, and a faulted mutation that changes nothing. Requests are
 * counted by the sandbox itself (GET /_sandbox/faults).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { failure } from './failure.js';
import { classifyError } from '../../src/batch/runner.js';
import { createClient } from '../../src/client/client.js';
import { createSigner } from '../../src/client/signer.js';
import type { AchievementTarget, ApiClient, ClientOptions } from '../../src/client/types.js';
import { exitCodeFor } from '../../src/cli/exit-codes.js';
import { DEMO } from '../../src/domain/demo.js';
import { ApiError, MalformedReplyError, NetworkError } from '../../src/errors.js';
import { parseFaultSpec } from '../../src/sandbox/faults/spec.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';

const TARGET: AchievementTarget = { type: 'Game', pid: DEMO.game.id, developerId: 'COLLECT_1000_GEMS' };
const root = mkdtempSync(join(tmpdir(), 'udcli-client-faults-'));
const running: Array<RunningSandbox | ApiClient> = [];
afterAll(async () => {
  for (const x of running.reverse()) await x.close();
  rmSync(root, { recursive: true, force: true });
});

let n = 0;
async function faulted(spec: string): Promise<RunningSandbox> {
  const dbPath = join(root, `sandbox-${++n}.db`);
  const sandbox = await startSandbox({
    port: 0,
    dbPath,
    seed: 'demo',
    log: () => undefined,
    faults: { spec: parseFaultSpec(spec), seed: 1 },
  });
  running.push(sandbox);
  return sandbox;
}

function makeClient(
  sandbox: RunningSandbox,
  overrides: Partial<ClientOptions> = {},
): { client: ApiClient; sleeps: number[] } {
  const sleeps: number[] = [];
  const client = createClient({
    baseUrl: sandbox.url,
    apiKey: DEMO.game.apiKey,
    signer: createSigner('hmac-sha256-v1', DEMO.game.signingSecret),
    timeoutMs: 5_000,
    retries: 2,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...overrides,
  });
  running.push(client);
  return { client, sleeps };
}

async function requests(sandbox: RunningSandbox): Promise<number> {
  return ((await (await fetch(`${sandbox.url}/_sandbox/faults`)).json()) as { requests: number }).requests;
}

/** The achievement's value, read through a fresh sandbox on the same database (no faults). */
async function gems(sandbox: RunningSandbox): Promise<number> {
  const plain = await startSandbox({ port: 0, dbPath: sandbox.dbPath, log: () => undefined });
  const client = createClient({
    baseUrl: plain.url,
    apiKey: DEMO.game.apiKey,
    signer: createSigner('none'),
    timeoutMs: 5_000,
    retries: 0,
  });
  try {
    const reply = await client.listUserAchievements(DEMO.user.uid, {
      type: 'Game',
      pid: DEMO.game.id,
      developerId: TARGET.developerId,
    });
    return (reply.payload as Array<{ current_value: number }>)[0]!.current_value;
  } finally {
    await client.close();
    await plain.close();
  }
}

describe('envelope tolerance against a faulted sandbox', () => {
  it('envelope-error: an error code under HTTP 200 is an error, not a success (a GET is retried as for any 5xx)', async () => {
    const sandbox = await faulted('envelope-error=1');
    const e = await failure(makeClient(sandbox).client.getUser(DEMO.user.uid));
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ code: 500, httpStatus: 200, message: 'internal error' });
    expect(await requests(sandbox)).toBe(3);
  });

  it('html-502: a clear message (retried first, being a GET)', async () => {
    const sandbox = await faulted('html-502=1');
    const { client, sleeps } = makeClient(sandbox);
    const e = await failure(client.getUser(DEMO.user.uid));
    expect(e).toMatchObject({
      code: 502,
      httpStatus: 502,
      message: 'HTTP 502 Bad Gateway (the reply was not a service envelope)',
    });
    expect(exitCodeFor(e)).toBe(1);
    expect(sleeps).toHaveLength(2);
    expect(await requests(sandbox)).toBe(3);
  });

  it('truncated: truncated JSON under HTTP 200 is a malformed reply, with no secret in the message', async () => {
    const sandbox = await faulted('truncated=1');
    const e = await failure(makeClient(sandbox).client.getUser(DEMO.user.uid));
    expect(e).toBeInstanceOf(MalformedReplyError);
    expect(e.message).toMatch(
      /^the reply to GET http:\/\/127\.0\.0\.1:\d+\/services\/rest\/v1\/users\/[0-9a-f]{32}\.json was not a service envelope/,
    );
    expect(e.message).not.toContain(DEMO.game.apiKey);
  });

  it('empty: an empty body under HTTP 200 is a malformed reply', async () => {
    const sandbox = await faulted('empty=1');
    const e = await failure(makeClient(sandbox).client.getUser(DEMO.user.uid));
    expect(e).toBeInstanceOf(MalformedReplyError);
    expect(e.message).toMatch(/was not a service envelope \(HTTP 200, application\/json, 0 bytes/);
  });
});

describe('retries against a faulted sandbox', () => {
  it('rate-limit: 429 with Retry-After is waited out and retried, even for an increment; then an ApiError with retryAfter', async () => {
    const sandbox = await faulted('rate-limit=1');
    const before = await gems(sandbox);
    const { client, sleeps } = makeClient(sandbox);
    const e = await failure(client.changeUserAchievement(DEMO.user.uid, TARGET, { increment: 1 }));
    expect(e).toMatchObject({ code: 429, httpStatus: 429, retryAfter: 1 });
    expect(exitCodeFor(e)).toBe(7);
    expect(sleeps).toEqual([1000, 1000]);
    expect(await requests(sandbox)).toBe(3);
    expect(await gems(sandbox)).toBe(before);
  });

  it('reset on an increment: sent, outcome unknown, not retried; and in fact not applied', async () => {
    const sandbox = await faulted('reset=1');
    const before = await gems(sandbox);
    const { client, sleeps } = makeClient(sandbox);
    const e = await failure(client.changeUserAchievement(DEMO.user.uid, TARGET, { increment: 1 }));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e).toMatchObject({ failure: 'reset', sent: true });
    expect((e as NetworkError).hint).toContain('outcome is unknown');
    expect(classifyError(e, false).status).toBe('unknown');
    expect(sleeps).toEqual([]);
    expect(await requests(sandbox)).toBe(1);
    expect(await gems(sandbox)).toBe(before);
  });

  it('reset on a GET is retried, then reported', async () => {
    const sandbox = await faulted('reset=1');
    const { client, sleeps } = makeClient(sandbox);
    const e = await failure(client.getUser(DEMO.user.uid));
    expect(e).toMatchObject({ failure: 'reset', sent: true });
    expect(sleeps).toHaveLength(2);
    expect(await requests(sandbox)).toBe(3);
  });

  it('envelope-error on an increment: returned as-is, never repeated, not applied', async () => {
    const sandbox = await faulted('envelope-error=1');
    const before = await gems(sandbox);
    const { client, sleeps } = makeClient(sandbox);
    const e = await failure(client.changeUserAchievement(DEMO.user.uid, TARGET, { increment: 1 }));
    expect(e).toMatchObject({ code: 500, httpStatus: 200 });
    expect(sleeps).toEqual([]);
    expect(await requests(sandbox)).toBe(1);
    expect(await gems(sandbox)).toBe(before);
  });

  it('slow beyond timeoutMs: a timeout after sending, an increment not retried, and it was applied', async () => {
    const sandbox = await faulted('slow=1:1500ms');
    const before = await gems(sandbox);
    const { client, sleeps } = makeClient(sandbox, { timeoutMs: 300 });
    const e = await failure(client.changeUserAchievement(DEMO.user.uid, TARGET, { increment: 1 }));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e).toMatchObject({ failure: 'timeout', sent: true });
    expect(sleeps).toEqual([]);
    // Applied before the reply was held back: it shows while that reply is still on its way.
    expect(await gems(sandbox)).toBe(before + 1);
  });
});

describe('agi against a faulted sandbox', () => {
  it('challenge-again: a challenge loop, exactly 3 signed attempts, then one clear 401 error (exit 3), nothing changed', async () => {
    const sandbox = await faulted('challenge-again=1');
    const before = await gems(sandbox);
    const { client, sleeps } = makeClient(sandbox, { signer: createSigner('agi'), verbOverride: true });
    const e = await failure(client.changeUserAchievement(DEMO.user.uid, TARGET, { reset: true }));
    expect(e).toBeInstanceOf(ApiError);
    expect(e.message).toBe(
      'the server refused 3 signed attempts (last reply: stale session (unknown, used or expired: sign again with this one)): each was refused, so none was applied',
    );
    expect(exitCodeFor(e)).toBe(3);
    // 1 unsigned + 3 signed, 100 ms × attempt between them as the SDK does.
    expect(await requests(sandbox)).toBe(4);
    expect(sleeps).toEqual([100, 200]);
    expect(await gems(sandbox)).toBe(before);
  });
});
