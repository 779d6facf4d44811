/**
 * The agi challenge flow of the client against the awkward platform (SERVICE.md: Signatures /
 * agi, Tolerance): unsigned request → 401 {session, key} → signed retry, at most 3 signed
 * attempts; a lost reply of the unsigned request is harmless, of a signed increment unknown.
 */
import { describe, expect, it } from 'vitest';
import { failure } from './failure.js';
import { createSigner } from '../../src/client/signer.js';
import type { AchievementTarget, ApiClient, ClientOptions } from '../../src/client/types.js';
import { ApiError, NetworkError, outcomeUnknown, wasNotSent } from '../../src/errors.js';
import { exitCodeFor } from '../../src/cli/exit-codes.js';
import { classifyError } from '../../src/batch/runner.js';
import { fileAwkwardPlatform } from './awkward-platform.js';
import { fileClients, tracedClient, type TracedClient } from './traced-client.js';
import { until } from '../until.js';

const API_KEY = '0123456789abcdef0123456789abcdef';
const TARGET: AchievementTarget = { type: 'Game', pid: '1001', developerId: 'SPEED RUN/100%' };

const platform = fileAwkwardPlatform();
const clients = fileClients();

function makeClient(overrides: Partial<ClientOptions> = {}): TracedClient {
  const options = { baseUrl: platform.url, apiKey: API_KEY, signer: createSigner('agi'), verbOverride: true };
  return tracedClient({ ...options, timeoutMs: 2_000, retries: 2, ...overrides }, clients);
}

/** An increment whose unsigned request's reply is lost or cut: that request, again (the challenge), signed. */
async function expectSentAgain(client: ApiClient, scenario: string): Promise<void> {
  const reply = await client.changeUserAchievement(scenario, TARGET, { increment: 1 });
  expect(reply.payload).toMatchObject({ verified: true });
  expect(seen(scenario)).toHaveLength(3);
}

const seen = (scenario: string) => platform.requests.filter((r) => r.path.endsWith(`/${scenario}.json`));

describe('agi challenge flow', () => {
  it('an increment: unsigned POST method=put with a form content type, the challenge, then one signed request that verifies', async () => {
    const { client } = makeClient();
    const reply = await client.changeUserAchievement('agi', TARGET, { increment: 2 });
    expect(reply.payload).toMatchObject({
      verified: true,
      method: 'POST',
      contentType: 'application/x-www-form-urlencoded',
    });
    const [unsigned, signed, ...more] = seen('agi');
    expect(more).toHaveLength(0);
    expect(unsigned!.method).toBe('POST');
    expect(unsigned!.params.map(([n]) => n)).toEqual(['api_key', 'type', 'pid', 'developer_id', 'increment', 'method']);
    expect(unsigned!.params.find(([n]) => n === 'method')?.[1]).toBe('put');
    expect(signed!.params.map(([n]) => n).slice(-2)).toEqual(['session', 'sig']);
    expect(signed!.params.find(([n]) => n === 'developer_id')?.[1]).toBe('SPEED RUN/100%');
  });

  it('a stale session on the first signed attempt: a second signed attempt with the fresh challenge, after 100 ms', async () => {
    const { client, sleeps } = makeClient();
    const reply = await client.adjustProduct('agi-stale-once', { parentId: '1001', sku: 'Héros+Épée' }, 3, 'increment');
    expect(reply.payload).toMatchObject({ verified: true });
    expect(seen('agi-stale-once')).toHaveLength(3);
    expect(sleeps).toEqual([100]);
  });

  it('a challenge loop: exactly 3 signed attempts, then one clear 401 error (exit 3)', async () => {
    const { client } = makeClient();
    const e = await failure(client.changeUserAchievement('agi-loop', TARGET, { reset: true }));
    expect(e).toBeInstanceOf(ApiError);
    expect(e.message).toBe(
      'the server refused 3 signed attempts (last reply: bad signature): each was refused, so none was applied',
    );
    expect(exitCodeFor(e)).toBe(3);
    expect((e as ApiError).hint).toMatch(/signing_scheme/);
    expect((e as ApiError).hint).not.toMatch(/secret/);
    // reset is safe to repeat, but a refused signature is not retried: 1 unsigned + 3 signed.
    expect(seen('agi-loop')).toHaveLength(4);
  });

  it('a challenge without a key: one clear line, exit 3, no signed attempt', async () => {
    const { client } = makeClient();
    const e = await failure(client.changeUserAchievement('agi-no-key', TARGET, { increment: 1 }));
    expect(e.message).toBe(
      'the server asked for a signature ("signature required") but sent no session and key to sign with',
    );
    expect(exitCodeFor(e)).toBe(3);
    expect(seen('agi-no-key')).toHaveLength(1);
  });

  it("the unsigned request's reply lost: it changed nothing, so even an increment is sent again", async () => {
    await expectSentAgain(makeClient().client, 'agi-unsigned-lost');
  });

  it("a client's first unsigned change whose reply is lost: unknown, never sent again (a partner key applies it)", async () => {
    const { client } = makeClient();
    const e = await failure(client.changeUserAchievement('agi-partner-lost', TARGET, { increment: 1 }));
    expect(e).toBeInstanceOf(NetworkError);
    expect((e as NetworkError).sent).toBe(true);
    expect(outcomeUnknown(e)).toBe(true);
    expect(seen('agi-partner-lost')).toHaveLength(1);
  });

  it('once the server has challenged this client, a lost reply to the unsigned request is harmless: sent again', async () => {
    const { client } = makeClient();
    await client.changeUserAchievement('agi', TARGET, { increment: 1 });
    await expectSentAgain(client, 'agi-unsigned-cut');
  });

  it("a signed increment's reply lost: unknown, never sent again (single and batch classification)", async () => {
    const { client } = makeClient();
    const e = await failure(client.changeUserAchievement('agi-lost', TARGET, { increment: 1 }));
    expect(e).toBeInstanceOf(NetworkError);
    expect((e as NetworkError).sent).toBe(true);
    expect(e.message).toMatch(/may have been processed/);
    expect(seen('agi-lost')).toHaveLength(2);
    expect(classifyError(e, false).status).toBe('unknown');
  });

  it('a signed reset whose reply is lost is repeated with a fresh challenge (safe to repeat)', async () => {
    const { client } = makeClient();
    const e = await failure(client.changeUserAchievement('agi-lost', TARGET, { reset: true }));
    expect(e).toBeInstanceOf(NetworkError);
    // 3 rounds (retries 2) of unsigned + signed, each with its own challenge.
    expect(seen('agi-lost').slice(2)).toHaveLength(6);
  });

  it('verb_override off: a PUT stays a PUT (still challenged and signed)', async () => {
    const { client } = makeClient({ verbOverride: false });
    const reply = await client.changeUserAchievement('agi-put', TARGET, { progress: 0.5 });
    expect(reply.payload).toMatchObject({ verified: true, method: 'PUT', contentType: null });
  });

  it('unsigned reads under agi are plain GETs; a DELETE goes as POST method=delete', async () => {
    const { client } = makeClient();
    await failure(client.deleteUserAchievement('agi-delete', TARGET));
    const [del] = seen('agi-delete');
    expect(del!.method).toBe('POST');
    expect(del!.params.find(([n]) => n === 'method')?.[1]).toBe('delete');
    await client.getUser('strings');
    expect(platform.requests.at(-1)!.method).toBe('GET');
  });

  it('prepare() under agi signs with a placeholder session and key, and sends nothing', () => {
    const { client } = makeClient();
    const before = platform.requests.length;
    const p = client.prepare({
      method: 'PUT',
      path: '/services/rest/v1/achievements/user/x.json',
      query: [['increment', '1']],
      sign: true,
      idempotent: false,
    });
    expect(p.method).toBe('POST');
    expect(p.placeholderChallenge).toBe(true);
    expect(p.sortedValues).toEqual([API_KEY, '1', 'KEY', 'SESSION', 'Shield2', 'put', 'x.json'].sort());
    expect(p.canonical).toBe(p.sortedValues!.join('').toLowerCase());
    expect(p.headers).toEqual({ 'content-type': 'application/x-www-form-urlencoded' });
    expect(p.redactedUrl).toMatch(/session=…&sig=[0-9a-f]{4}…[0-9a-f]{4}$/);
    expect(platform.requests.length).toBe(before);
  });
});

describe('the read before a change beside the challenge (RequestSpec.beforeChange)', () => {
  /** A gate the test opens by hand, which notes how many requests the server had seen when it was called. */
  function gate(scenario: string, fail?: Error) {
    const calls: number[] = [];
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return {
      calls,
      open,
      run: async () => {
        calls.push(seen(scenario).length);
        await opened;
        if (fail) throw fail;
      },
    };
  }
  const gateCalled = (g: { calls: number[] }) => until(() => g.calls.length > 0, 'the gate to be called');
  /**
   * A whole request to the platform and back, many turns of the event loop: a change the client
   * had let go before its gate opened would have reached the platform by then.
   */
  const roundTrip = async () => {
    const r = await fetch(`${platform.url}/services/rest/v1/users/strings.json`);
    await r.text();
  };

  /** A gated increment of `scenario`, held at its shut gate until a whole round trip has passed. */
  const heldAtGate = async (client: ApiClient, scenario: string) => {
    const g = gate(scenario);
    const pending = client.gated!(g.run).changeUserAchievement(scenario, TARGET, { increment: 1 });
    await gateCalled(g);
    await roundTrip();
    return { g, pending };
  };

  it("a client's first change: the gate first, then the unsigned request and the signed one", async () => {
    const { client } = makeClient();
    const { g, pending } = await heldAtGate(client, 'agi-gate-first');
    expect(seen('agi-gate-first')).toHaveLength(0);
    g.open();
    expect((await pending).payload).toMatchObject({ verified: true });
    expect(g.calls).toEqual([0]);
    expect(seen('agi-gate-first')).toHaveLength(2);
  });

  it('once the server has challenged: the unsigned request goes while the gate is shut, the signed one only after it opens', async () => {
    const { client } = makeClient();
    await client.changeUserAchievement('agi-gate-learn', TARGET, { increment: 1 });
    const { g, pending } = await heldAtGate(client, 'agi-gate-early');
    const [unsigned, ...rest] = seen('agi-gate-early');
    expect(unsigned!.params.map(([n]) => n)).not.toContain('sig');
    expect(rest).toHaveLength(0);
    g.open();
    expect((await pending).payload).toMatchObject({ verified: true });
    expect(g.calls).toEqual([1]);
    expect(seen('agi-gate-early')).toHaveLength(2);
  });

  it('a gate that fails: nothing signed is sent, the error says not sent, and it is not retried', async () => {
    const { client } = makeClient();
    await client.changeUserAchievement('agi-gate-learn2', TARGET, { increment: 1 });
    const readFailed = new NetworkError('GET …: connection refused', 'unreachable', false);
    const g = gate('agi-gate-fail', readFailed);
    g.open();
    const e = await failure(client.gated!(g.run).changeUserAchievement('agi-gate-fail', TARGET, { increment: 1 }));
    expect(e).toBe(readFailed);
    expect(wasNotSent(e)).toBe(true);
    expect(g.calls).toHaveLength(1);
    expect(seen('agi-gate-fail').every((r) => !r.params.some(([n]) => n === 'sig'))).toBe(true);
  });

  it('a server that answers an unsigned change at once (a partner key): the next change waits for its gate again', async () => {
    const { client } = makeClient();
    await client.changeUserAchievement('agi-gate-learn3', TARGET, { increment: 1 });
    expect((await client.changeUserAchievement('agi-partner', TARGET, { increment: 1 })).payload).toMatchObject({
      verified: false,
    });
    const { g, pending } = await heldAtGate(client, 'agi-gate-after-partner');
    expect(seen('agi-gate-after-partner')).toHaveLength(0);
    g.open();
    await pending;
    expect(g.calls).toEqual([0]);
  });
});

describe('tolerance of platform replies', () => {
  it('escaped slashes, created_on as a number, purchase.data as false / a number / "active" / an object', async () => {
    const { client } = makeClient();
    const { payload } = await client.listProducts('escaped-products', { parentId: '1001' });
    expect(payload.map((e) => e.purchase.data)).toEqual([false, 'active', 17, { qty: '3' }]);
    expect(payload[0]!.product.image).toBe('https://cdn.example/product.user/uat-test_unlockable/x.png');
    expect(payload[0]!.product.created_on).toBe(1700000000);
  });
});
