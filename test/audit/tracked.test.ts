import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tracedSingle, type Perform, type TraceSettings } from '../../src/audit/tracked.js';
import { traceSpec } from '../../src/batch/change-trace.js';
import type { AchievementTarget, ApiClient, ProductTarget, Reply } from '../../src/client/types.js';
import type { AchievementChangeSpec } from '../../src/batch/changes/achievements.js';
import type { Factory } from '../../src/ops/factory.js';
import { ApiError, NetworkError, wasNotSent } from '../../src/errors.js';
import { exitCodeFor } from '../../src/cli/exit-codes.js';
import type { Output } from '../../src/output/types.js';
import achievementsInc from '../../src/cli/changes/achievements-inc.js';
import achievementsSet from '../../src/cli/changes/achievements-set.js';
import achievementsReset from '../../src/cli/changes/achievements-reset.js';
import achievementsDelete from '../../src/cli/changes/achievements-delete.js';
import productsGive from '../../src/cli/changes/products-give.js';
import productsTake from '../../src/cli/changes/products-take.js';
import { fileScratch } from '../scratch.js';

// The declared changes, as the registry loads them when their command runs.
const incChange = await achievementsInc.type();
const setChange = await achievementsSet.type();
const resetChange = await achievementsReset.type();
const deleteChange = await achievementsDelete.type();
const giveChange = await productsGive.type();
const takeChange = await productsTake.type();

/**
 * One user's traced change as the change runner makes it (the declared type's trace, its
 * definition read when it needs one), with the test's own `perform` in place of the request.
 */
async function traced<T>(
  type:
    | typeof incChange
    | typeof setChange
    | typeof resetChange
    | typeof deleteChange
    | typeof giveChange
    | typeof takeChange,
  factory: Pick<Factory, 'io' | 'output'>,
  settings: TraceSettings,
  client: ApiClient,
  uid: string,
  input: object,
  perform: Perform<T>,
): Promise<Reply<T>> {
  const t = type as unknown as typeof incChange;
  const i = input as Parameters<typeof incChange.read>[2];
  const prepared = await t.prepare(client, i, { sample: uid, batch: false, dryRun: false });
  const done = await tracedSingle(factory, settings, client, (ctx) => ({
    ...traceSpec(t, ctx, { client, uid, input: i, prepared }, undefined),
    perform: perform as unknown as Perform<never>,
  }));
  return done.reply as unknown as Reply<T>;
}

function tracedSingleAchievement<T>(
  factory: Pick<Factory, 'io' | 'output'>,
  settings: TraceSettings,
  client: ApiClient,
  uid: string,
  target: AchievementTarget,
  change: AchievementChangeSpec & Record<string, unknown>,
  perform: Perform<T>,
): Promise<Reply<T>> {
  const type = { inc: incChange, set: setChange, reset: resetChange, delete: deleteChange }[change.action as 'inc'];
  return traced(type, factory, settings, client, uid, { target, change }, perform);
}

function tracedSingleProduct<T>(
  factory: Pick<Factory, 'io' | 'output'>,
  settings: TraceSettings,
  client: ApiClient,
  uid: string,
  target: ProductTarget,
  change: { action: 'give' | 'take'; qty: number; post?: boolean },
  perform: Perform<T>,
): Promise<Reply<T>> {
  const type = change.action === 'give' ? giveChange : takeChange;
  return traced(
    type,
    factory,
    settings,
    client,
    uid,
    { target, action: change.action, qty: change.qty, post: change.post ?? false },
    perform,
  );
}

const root = fileScratch('udcli-tracked-');
const UID = '01e528d59829836fd23b09085b56edab';
const reply = <T>(payload: T) => ({
  payload,
  envelope: { version: 1, code: 200, message: 'OK', payload },
  bodyText: '',
  httpStatus: 200,
});

function setup() {
  const dir = mkdtempSync(join(root, 'cfg-'));
  const info: string[] = [];
  const factory = {
    io: { env: { UDCLI_CONFIG_DIR: dir, USER: 'sam' } },
    output: async () => ({ info: (m: string) => void info.push(m) }) as unknown as Output,
  } as unknown as Pick<Factory, 'io' | 'output'>;
  const settings = { profile: 'live-eu', gameId: '1001', type: 'Game' as const };
  const audit = () =>
    existsSync(join(dir, 'audit.log'))
      ? readFileSync(join(dir, 'audit.log'), 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
          // The outcome lines: intents, written ahead, are tested in test/e2e/write-ahead.test.ts.
          .filter((l: { kind?: string }) => l.kind !== 'intent')
      : [];
  return { factory, settings, info, audit };
}

describe('traced single-user changes', () => {
  it('set: reads before and the definition, prints the receipt, appends the audit line (with --game when not the profile game)', async () => {
    const t = setup();
    const client = {
      listAchievementDefinitions: async () => reply([{ developer_id: 'LEVEL_10', start_value: 1, target_value: 10 }]),
      listUserAchievements: async () =>
        reply([{ developer_id: 'LEVEL_10', current_value: 4, state: 'In Progress', target_value: 10 }]),
    } as unknown as ApiClient;
    const target = { type: 'Game' as const, pid: '1002', developerId: 'LEVEL_10' };
    const r = await tracedSingleAchievement(
      t.factory,
      t.settings,
      client,
      UID,
      target,
      { action: 'set', progress: 0.5, progressText: '50%' },
      async () => reply({ state: 'In Progress', current_value: 6, percent_complete: 55, developer_id: 'LEVEL_10' }),
    );
    expect(r.payload.current_value).toBe(6);
    expect(t.info).toEqual([
      'Changed: LEVEL_10 of 01e5…: 4/10 In Progress → 6/10 In Progress',
      // 1 + round(0.33 * 9) = 4; --profile because the undo must reach the same server (issue 15)
      `Undo:    udcli achievements set ${UID} LEVEL_10 33% --game 1002 --profile live-eu`,
    ]);
    expect(t.audit()).toEqual([
      expect.objectContaining({
        operator: 'sam',
        profile: 'live-eu',
        uid: UID,
        command: `udcli achievements set ${UID} LEVEL_10 50% --game 1002`,
        before: expect.objectContaining({ current_value: 4 }),
      }),
    ]);
  });

  it('take whose reply was lost: audited as outcome unknown, the error goes on to the caller', async () => {
    const t = setup();
    const client = {
      listProducts: async () => reply([{ purchase: { data: { quantity: 3 } }, product: { sku: 'sword' } }]),
    } as unknown as ApiClient;
    const lost = new NetworkError('timeout after 15000 ms', 'timeout', true);
    await expect(
      tracedSingleProduct(
        t.factory,
        t.settings,
        client,
        UID,
        { parentId: '1001', type: 'Game', sku: 'sword' },
        { action: 'take', qty: 1 },
        async () => {
          throw lost;
        },
      ),
    ).rejects.toBe(lost);
    const [entry] = t.audit();
    expect(entry.change).toMatch(/sword of 01e5…: take 1 unit sent, outcome unknown/);
    expect(entry.after).toBeNull();
    expect(t.info).toEqual([]);
  });
});

describe('receipts that say what the server did (issue 15)', () => {
  it('the read before fails: marked not sent, no audit line, the change never performed', async () => {
    const t = setup();
    const failed = new ApiError('HTTP 502 Bad Gateway', 502, 502, { withoutEnvelope: true });
    let performed = false;
    const client = { listProducts: async () => Promise.reject(failed) } as unknown as ApiClient;
    await expect(
      tracedSingleProduct(
        t.factory,
        t.settings,
        client,
        UID,
        { parentId: '1001', type: 'Game', sku: 'sword' },
        { action: 'give', qty: 1 },
        async () => {
          performed = true;
          return reply({} as never);
        },
      ),
    ).rejects.toBe(failed);
    expect(performed).toBe(false);
    expect(wasNotSent(failed)).toBe(true);
    expect(t.audit()).toEqual([]);
  });

  it('a give answered by an HTML 502 whose state cannot be read back: the error and the audit line both say outcome unknown', async () => {
    const t = setup();
    let reads = 0;
    const client = {
      listProducts: async () =>
        ++reads === 1
          ? reply([{ purchase: { data: { quantity: 3 } }, product: { sku: 'sword' } }])
          : Promise.reject(new NetworkError('cannot reach', 'unreachable', false)),
    } as unknown as ApiClient;
    const gateway = new ApiError('HTTP 502 Bad Gateway', 502, 502, { withoutEnvelope: true });
    const err = await tracedSingleProduct(
      t.factory,
      t.settings,
      client,
      UID,
      { parentId: '1001', type: 'Game', sku: 'sword' },
      { action: 'give', qty: 1 },
      async () => {
        throw gateway;
      },
    ).then(
      () => new Error('expected a failure'),
      (e: unknown) => e as Error,
    );
    expect(err).toBe(gateway);
    expect(err.message).toBe('HTTP 502 Bad Gateway; the change was sent and its outcome is unknown');
    expect(t.audit()[0].change).toBe(`sword of 01e5…: give 1 unit sent, outcome unknown (${err.message})`);
  });

  it('--profile always (the built-in sandbox profile too); --base-url, without userinfo, when it was a flag or UDCLI_BASE_URL; the audit line names the server', async () => {
    for (const source of ['flag', 'env'] as const) {
      const t = setup();
      const client = {
        listProducts: async () =>
          reply([{ purchase: { success: true, data: { quantity: 3 } }, product: { sku: 'sword' } }]),
      } as unknown as ApiClient;
      const settings = {
        ...t.settings,
        profile: 'sandbox',
        baseUrl: 'http://ops:hunter2@127.0.0.1:8788',
        sources: { base_url: source },
      };
      await tracedSingleProduct(
        t.factory,
        settings,
        client,
        UID,
        { parentId: '1001', type: 'Game', sku: 'sword' },
        { action: 'take', qty: 1 },
        async () =>
          reply({
            purchase: { success: true, data: { quantity: 2 }, message: '' },
            product: { sku: 'sword' },
          } as never),
      );
      expect(t.info[1]).toBe(
        `Undo:    udcli products give ${UID} sword --qty 1 --profile sandbox --base-url http://127.0.0.1:8788`,
      );
      expect(t.audit()[0]).toMatchObject({ profile: 'sandbox', server: 'http://127.0.0.1:8788' });
    }
    const t = setup();
    const client = {
      listProducts: async () =>
        reply([{ purchase: { success: true, data: { quantity: 3 } }, product: { sku: 'sword' } }]),
    } as unknown as ApiClient;
    const settings = { ...t.settings, baseUrl: 'https://api.example.com', sources: { base_url: 'profile' as const } };
    await tracedSingleProduct(
      t.factory,
      settings,
      client,
      UID,
      { parentId: '1001', type: 'Game', sku: 'sword' },
      { action: 'take', qty: 1 },
      async () =>
        reply({ purchase: { success: true, data: { quantity: 2 }, message: '' }, product: { sku: 'sword' } } as never),
    );
    expect(t.info[1]).toBe(`Undo:    udcli products give ${UID} sword --qty 1 --profile live-eu`);
    expect(t.audit()[0].server).toBe('https://api.example.com');
  });

  it('--base-url when it was a flag', async () => {
    const t = setup();
    const client = {
      listProducts: async () =>
        reply([{ purchase: { success: true, data: { quantity: 3 } }, product: { sku: 'sword' } }]),
    } as unknown as ApiClient;
    const settings = {
      ...t.settings,
      profile: 'sandbox',
      baseUrl: 'http://127.0.0.1:9999',
      sources: { base_url: 'flag' as const },
    };
    await tracedSingleProduct(
      t.factory,
      settings,
      client,
      UID,
      { parentId: '1001', type: 'Game', sku: 'sword' },
      { action: 'take', qty: 1 },
      async () =>
        reply({ purchase: { success: true, data: { quantity: 2 }, message: '' }, product: { sku: 'sword' } } as never),
    );
    expect(t.info[1]).toBe(
      `Undo:    udcli products give ${UID} sword --qty 1 --profile sandbox --base-url http://127.0.0.1:9999`,
    );
    expect(t.audit()[0].undo).toBe(
      `udcli products give ${UID} sword --qty 1 --profile sandbox --base-url http://127.0.0.1:9999`,
    );
  });

  it('reset of a record that does not exist: reads what is stored after, reports no change and no undo', async () => {
    const t = setup();
    let reads = 0;
    const client = {
      listUserAchievements: async () => {
        reads++;
        return reply([
          { id: null, developer_id: 'FIRST_WIN', current_value: 0, state: 'Not Started', target_value: 1 },
        ]);
      },
    } as unknown as ApiClient;
    await tracedSingleAchievement(
      t.factory,
      t.settings,
      client,
      UID,
      { type: 'Game', pid: '1001', developerId: 'FIRST_WIN' },
      { action: 'reset' },
      async () => reply({ state: 'In Progress', current_value: 0, percent_complete: 0, developer_id: 'FIRST_WIN' }),
    );
    expect(reads).toBe(2);
    expect(t.info).toEqual([
      'No change: FIRST_WIN of 01e5…: no record, nothing to reset',
      'Undo:    none',
      'Note:    nothing changed',
    ]);
    expect(t.audit()[0]).toMatchObject({
      change: 'FIRST_WIN of 01e5…: no record, nothing to reset',
      undo: null,
      after: null,
    });
  });

  it('set below a Completed value that the server keeps: exit 1, saying so, audited as no change', async () => {
    const t = setup();
    const client = {
      listAchievementDefinitions: async () => reply([{ developer_id: 'LEVEL_10', start_value: 0, target_value: 10 }]),
      listUserAchievements: async () =>
        reply([{ id: 4, developer_id: 'LEVEL_10', current_value: 10, state: 'Completed', target_value: 10 }]),
    } as unknown as ApiClient;
    const error = await tracedSingleAchievement(
      t.factory,
      t.settings,
      client,
      UID,
      { type: 'Game', pid: '1001', developerId: 'LEVEL_10' },
      { action: 'set', progress: 0.5, progressText: '50%' },
      async () => reply({ state: 'Completed', current_value: 10, percent_complete: 100, developer_id: 'LEVEL_10' }),
    ).catch((e: unknown) => e);
    expect(exitCodeFor(error)).toBe(1);
    expect((error as Error).message).toBe(
      'nothing changed: LEVEL_10 of 01e5… is Completed (10/10) and set does not lower a completed achievement',
    );
    expect((error as { hint?: string }).hint).toBe(
      `to lower it, reset it first: udcli achievements reset ${UID} LEVEL_10 --profile live-eu && udcli achievements set ${UID} LEVEL_10 50% --profile live-eu`,
    );
    expect(t.audit()[0]).toMatchObject({ undo: null, change: 'LEVEL_10 of 01e5…: 10/10 Completed → 10/10 Completed' });
  });

  it('set 100% on a Completed achievement is what was asked: no error', async () => {
    const t = setup();
    const client = {
      listAchievementDefinitions: async () => reply([{ developer_id: 'LEVEL_10', start_value: 0, target_value: 10 }]),
      listUserAchievements: async () =>
        reply([{ id: 4, developer_id: 'LEVEL_10', current_value: 10, state: 'Completed', target_value: 10 }]),
    } as unknown as ApiClient;
    const r = await tracedSingleAchievement(
      t.factory,
      t.settings,
      client,
      UID,
      { type: 'Game', pid: '1001', developerId: 'LEVEL_10' },
      { action: 'set', progress: 1, progressText: '100%' },
      async () => reply({ state: 'Completed', current_value: 10, percent_complete: 100, developer_id: 'LEVEL_10' }),
    );
    expect(r.payload.current_value).toBe(10);
    expect(t.info[0]).toBe('No change: LEVEL_10 of 01e5…: 10/10 Completed → 10/10 Completed');
  });
  it('a gated client: nothing that may change state before the read is done; a server that applies the change without the gate is said so on the receipt', async () => {
    const t = setup();
    const order: string[] = [];
    const state = { value: 3 };
    const base = {
      listAchievementDefinitions: async () => reply([{ developer_id: 'LEVEL_10', start_value: 0, target_value: 10 }]),
      listUserAchievements: async () => {
        order.push('read');
        await new Promise((r) => setTimeout(r, 20));
        order.push('read done');
        return reply([
          { id: 4, developer_id: 'LEVEL_10', current_value: state.value, state: 'In Progress', target_value: 10 },
        ]);
      },
    };
    const inc = async () => {
      order.push('change');
      state.value += 1;
      return reply({
        state: 'In Progress',
        current_value: state.value,
        percent_complete: state.value * 10,
        developer_id: 'LEVEL_10',
      });
    };
    const target = { type: 'Game' as const, pid: '1001', developerId: 'LEVEL_10' };
    // Gated: the change waits for the gate, which waits for the read.
    const gatedClient = {
      ...base,
      gated: (gate: () => Promise<void>) => ({ ...base, change: async () => (await gate(), inc()) }),
    } as unknown as ApiClient;
    await tracedSingleAchievement(t.factory, t.settings, gatedClient, UID, target, { action: 'inc', by: 1 }, (c) =>
      (c as unknown as { change: typeof inc }).change(),
    );
    expect(order).toEqual(['read', 'read done', 'change']);
    expect(t.info[0]).toBe('Changed: LEVEL_10 of 01e5…: 3/10 In Progress → 4/10 In Progress');

    // A server that answered the unsigned request at once: the change went before the gate opened.
    order.length = 0;
    const racing = { ...base, gated: () => ({ ...base, change: inc }) } as unknown as ApiClient;
    await tracedSingleAchievement(t.factory, t.settings, racing, UID, target, { action: 'inc', by: 1 }, (c) =>
      (c as unknown as { change: typeof inc }).change(),
    );
    expect(order).toEqual(['read', 'change', 'read done']);
    expect(t.info.at(-1)).toMatch(
      /^Note: +the server applied this change without the signature it asked for until then/,
    );
  });
});
