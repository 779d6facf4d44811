import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/audit/log.js';
import { addBatchOptions, parseBatchFlags, rejectBatchFlags } from '../../src/batch/flags.js';
import type { BatchFlags } from '../../src/batch/flags.js';
import type { BatchSummary } from '../../src/batch/runner.js';
import type { ApiClient } from '../../src/client/types.js';
import type { Factory, GlobalOptions } from '../../src/ops/factory.js';
import type { Settings } from '../../src/config/types.js';
import { ApiError, BatchIncompleteError, InterruptedError, UsageError } from '../../src/errors.js';
import { exitCodeFor } from '../../src/cli/exit-codes.js';
import type { Output } from '../../src/output/types.js';
import { uidForUsername } from '../../src/domain/ids.js';
import achievementsInc from '../../src/cli/changes/achievements-inc.js';
import achievementsSet from '../../src/cli/changes/achievements-set.js';
import achievementsReset from '../../src/cli/changes/achievements-reset.js';
import achievementsDelete from '../../src/cli/changes/achievements-delete.js';
import productsGive from '../../src/cli/changes/products-give.js';
import productsTake from '../../src/cli/changes/products-take.js';
import { fileScratch } from '../scratch.js';

/** `achievements <action> @FILE …` through the change runner, as the command's handler runs it. */
async function runAchievementBatch(
  factory: Factory,
  a: { spec: string; action: 'inc' | 'set' | 'reset' | 'delete'; developerId: string; progress?: string },
  opts: BatchFlags & { by?: string },
): Promise<BatchSummary> {
  const args = { uid: a.spec, developerId: a.developerId, progress: a.progress ?? '' };
  const declaration = {
    inc: achievementsInc,
    set: achievementsSet,
    reset: achievementsReset,
    delete: achievementsDelete,
  }[a.action];
  return (await declaration.run(factory, args, opts))!;
}

/** `products give|take @FILE …` through the change runner. */
async function runProductBatch(
  factory: Factory,
  a: { spec: string; action: 'give' | 'take'; sku: string },
  opts: BatchFlags & { qty?: string },
): Promise<BatchSummary> {
  return (await (a.action === 'give' ? productsGive : productsTake).run(factory, { uid: a.spec, sku: a.sku }, opts))!;
}

const root = fileScratch('udcli-batchcmd-');

/** An in-memory service: FIRST_WIN (start 0, target 10) and product `sword`, recording every request. */
function fakeService(users: string[]) {
  const progress = new Map<string, number>();
  const swords = new Map<string, number>();
  const requests: string[] = [];
  const known = new Set(users.map(uidForUsername));
  const must = (uid: string) => {
    if (!known.has(uid)) throw new ApiError('not found: user', 404, 404);
  };
  const reply = <T>(payload: T) => ({
    payload,
    envelope: { version: 1, code: 200, message: 'OK', payload },
    bodyText: '',
    httpStatus: 200,
  });
  const ach = (uid: string) => ({
    id: 1,
    uid,
    achievement_id: 7,
    parent_id: '1001',
    current_value: progress.get(uid)!,
    percent_complete: progress.get(uid)! * 10,
    state: progress.get(uid) === 10 ? 'Completed' : 'In Progress',
    started_date: '',
    completed_date: '0000-00-00 00:00:00',
    updated_date: '',
    developer_id: 'FIRST_WIN',
    type: 'Game',
    name: 'First win',
    target_value: 10,
  });
  const entry = (uid: string) => ({
    purchase: { success: true, data: { quantity: swords.get(uid) ?? 0 }, message: '' },
    product: { sku: 'sword' },
  });
  const client = {
    getUser: async (name: string) => {
      requests.push(`GET user ${name}`);
      if (!users.includes(name)) throw new ApiError('not found: user', 404, 404);
      return reply({ uid: uidForUsername(name), username: name, avatar: '' });
    },
    listAchievementDefinitions: async () => {
      requests.push('GET defs');
      return reply([{ developer_id: 'FIRST_WIN', start_value: 0, target_value: 10 }]);
    },
    listUserAchievements: async (uid: string) => {
      requests.push(`GET ach ${uid}`);
      must(uid);
      return reply(progress.has(uid) ? [ach(uid)] : []);
    },
    changeUserAchievement: async (
      uid: string,
      _t: unknown,
      change: { reset?: true; increment?: number; progress?: number },
    ) => {
      requests.push(`PUT ach ${uid}`);
      must(uid);
      const now = progress.get(uid) ?? 0;
      const next = change.reset
        ? 0
        : change.increment !== undefined
          ? Math.min(10, now + change.increment)
          : Math.round(change.progress! * 10);
      progress.set(uid, next);
      return reply({
        state: next === 10 ? 'Completed' : 'In Progress',
        current_value: next,
        percent_complete: next * 10,
        developer_id: 'FIRST_WIN',
      });
    },
    listProducts: async (uid: string) => {
      requests.push(`GET products ${uid}`);
      return reply(swords.get(uid) ? [entry(uid)] : []);
    },
    adjustProduct: async (uid: string, _t: unknown, qty: number, dir: string) => {
      requests.push(`PUT product ${uid}`);
      const held = swords.get(uid) ?? 0;
      if (dir === 'decrement' && qty > held) throw new ApiError('insufficient quantity', 409, 409);
      swords.set(uid, dir === 'decrement' ? held - qty : held + qty);
      return reply(entry(uid));
    },
  } as unknown as ApiClient;
  return { client, progress, swords, requests, mutations: () => requests.filter((r) => r.startsWith('PUT')) };
}

function fakeFactory(
  service: ReturnType<typeof fakeService>,
  opts: { production?: boolean; yes?: boolean; stdin?: string; baseUrl?: string } = {},
) {
  const configDir = mkdtempSync(join(root, 'cfg-'));
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const stdin = new PassThrough();
  stdin.end(opts.stdin ?? '');
  const connections: Array<number | undefined> = [];
  const settings = {
    profile: opts.production ? 'live-eu' : 'sandbox',
    baseUrl: opts.baseUrl ?? (opts.production ? 'https://ops:pw@api.live.example' : 'http://127.0.0.1:8787'),
    production: opts.production ?? false,
    gameId: '1001',
    type: 'Game',
    operatorRequired: false,
    policy: {},
  } as Settings;
  const output = { info: (m: string) => void (err += `${m}\n`) } as unknown as Output;
  // Signal listeners the command registers, so a test can "press Ctrl-C".
  const listeners = new Set<(signal: NodeJS.Signals) => void>();
  const onSignals = (_signals: readonly NodeJS.Signals[], listener: (signal: NodeJS.Signals) => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  const factory = {
    io: {
      stdin,
      stdout,
      stderr,
      stdinIsTTY: false,
      stdoutIsTTY: false,
      stderrIsTTY: false,
      env: { UDCLI_CONFIG_DIR: configDir, USER: 'ci-bot' },
      onSignals,
    },
    globals: () => ({ yes: opts.yes ?? false, quiet: false }) as GlobalOptions,
    settings: async () => settings,
    client: async (o?: { connections?: number }) => {
      connections.push(o?.connections);
      return service.client;
    },
    output: async () => output,
  } as unknown as Factory;
  const results = () =>
    out
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  const audit = () => {
    const p = join(configDir, 'audit.log');
    return existsSync(p)
      ? readFileSync(p, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as AuditEntry)
          // The outcome lines: intents, written ahead, are tested in test/e2e/write-ahead.test.ts.
          .filter((l) => l.kind !== 'intent')
      : [];
  };
  const interrupt = () => {
    for (const listener of [...listeners]) listener('SIGINT');
  };
  return { factory, results, audit, stderr: () => err, connections, interrupt, listening: () => listeners.size };
}

/** The batch's result lines by their input (the username or uid as the list gave it). */
function resultsByInput(f: ReturnType<typeof fakeFactory>): Map<unknown, Record<string, unknown>> {
  return new Map(f.results().map((x) => [x.input, x]));
}

function listFile(lines: string[]): string {
  const p = join(mkdtempSync(join(root, 'list-')), 'users.txt');
  writeFileSync(p, `${lines.join('\n')}\n`);
  return p;
}

describe('batch options', () => {
  it('addBatchOptions registers the six options and parseBatchFlags validates them', async () => {
    let seen: Record<string, unknown> = {};
    const cmd = addBatchOptions(
      new Command('reset')
        .argument('<uid>')
        .exitOverride()
        .action((_u: string, o: Record<string, unknown>) => void (seen = o)),
    );
    await cmd.parseAsync(
      [
        '@x',
        '--concurrency',
        '4',
        '--rate',
        '20/s',
        '--dry-run',
        '--journal',
        'j.ndjson',
        '--fail-fast',
        '--retry-unknown',
      ],
      { from: 'user' },
    );
    expect(parseBatchFlags(seen)).toEqual({
      concurrency: 4,
      ratePerSecond: 20,
      dryRun: true,
      journal: 'j.ndjson',
      failFast: true,
      retryUnknown: true,
    });
    expect(parseBatchFlags({})).toEqual({ concurrency: 8, dryRun: false, failFast: false, retryUnknown: false });
    expect(() => parseBatchFlags({ concurrency: '0' })).toThrow(UsageError);
    expect(() => parseBatchFlags({ rate: 'lots' })).toThrow(UsageError);
    expect(() => parseBatchFlags({ retryUnknown: true })).toThrow(/needs --journal/);
  });

  it('rejectBatchFlags refuses batch options on a single user', () => {
    expect(() => rejectBatchFlags({ journal: 'j' })).toThrow(/--journal applies only to a batch/);
    expect(() => rejectBatchFlags({})).not.toThrow();
  });
});

describe('runAchievementBatch', () => {
  it('resets every listed user (uids and usernames), one NDJSON line each, receipts and audit lines, pool sized to the concurrency', async () => {
    const svc = fakeService(['alice', 'bob', 'carol']);
    svc.progress.set(uidForUsername('alice'), 3);
    svc.progress.set(uidForUsername('bob'), 10);
    const f = fakeFactory(svc);
    const file = listFile(['# testers', 'alice', uidForUsername('bob').toUpperCase(), '', 'carol']);
    const summary = await runAchievementBatch(
      f.factory,
      { spec: `@${file}`, action: 'reset', developerId: 'FIRST_WIN' },
      { concurrency: '3' },
    );
    expect(summary).toMatchObject({ total: 3, ok: 3, failed: 0 });
    // Two a user in flight: the read before a change goes beside the challenge request.
    expect(f.connections).toEqual([6]);
    const byInput = resultsByInput(f);
    expect(byInput.get('alice')).toMatchObject({
      uid: uidForUsername('alice'),
      status: 'ok',
      result: {
        change: `FIRST_WIN of ${uidForUsername('alice').slice(0, 4)}…: 3/10 In Progress → 0/10 In Progress`,
        undo: `udcli achievements set ${uidForUsername('alice')} FIRST_WIN 30% --profile sandbox`,
      },
    });
    expect(svc.requests.filter((r) => r.startsWith('GET user'))).toEqual(['GET user alice', 'GET user carol']); // the uid needs no lookup
    const audit = f.audit();
    expect(audit.map((e) => e.uid).sort()).toEqual(['alice', 'bob', 'carol'].map(uidForUsername).sort());
    expect(audit.find((e) => e.uid === uidForUsername('bob'))).toMatchObject({
      operator: 'ci-bot',
      profile: 'sandbox',
      command: `udcli achievements reset ${uidForUsername('bob')} FIRST_WIN`,
      before: { current_value: 10, state: 'Completed' },
      after: { current_value: 0 },
    });
    expect(f.stderr()).toMatch(/batch: 3 items: 3 ok, 0 failed, 0 unknown, 0 skipped/);
  });

  it('reports an unknown username as failed, finishes the rest, and ends with BatchIncompleteError (exit 6)', async () => {
    const svc = fakeService(['alice']);
    const f = fakeFactory(svc);
    const file = listFile(['alice', 'nobody']);
    await expect(
      runAchievementBatch(f.factory, { spec: `@${file}`, action: 'inc', developerId: 'FIRST_WIN' }, { by: '2' }),
    ).rejects.toThrow(BatchIncompleteError);
    const r = resultsByInput(f);
    expect(r.get('nobody')).toMatchObject({ status: 'failed', uid: null, error: { code: 404 } });
    expect(r.get('alice')).toMatchObject({ status: 'ok', result: { after: { current_value: 2 } } });
    // Every mutation is audited (issue 15), inc included; the user that failed to resolve is not.
    expect(f.audit()).toEqual([
      expect.objectContaining({ command: `udcli achievements inc ${uidForUsername('alice')} FIRST_WIN --by 2` }),
    ]);
  });

  it('under a production profile off a terminal, refuses without --yes before any request; with --yes asks once', async () => {
    const svc = fakeService(['alice', 'bob']);
    const file = listFile(['alice', 'bob']);
    const no = fakeFactory(svc, { production: true });
    await expect(
      runAchievementBatch(no.factory, { spec: `@${file}`, action: 'reset', developerId: 'FIRST_WIN' }, {}),
    ).rejects.toThrow(/without --yes/);
    expect(svc.requests).toEqual([]);
    const yes = fakeFactory(svc, { production: true, yes: true });
    await runAchievementBatch(yes.factory, { spec: `@${file}`, action: 'reset', developerId: 'FIRST_WIN' }, {});
    // The count and the target, the URL without its userinfo.
    expect(
      yes
        .stderr()
        .match(
          /PRODUCTION profile "live-eu": reset FIRST_WIN for 2 users \(users.txt\) on live-eu \(https:\/\/…@api.live.example\)/g,
        ),
    ).toHaveLength(1);
    expect(yes.stderr()).not.toContain('ops:pw');
    expect(yes.audit().every((e) => e.profile === 'live-eu')).toBe(true);
  });

  it('a missing list file is a usage error before anything is sent', async () => {
    const svc = fakeService([]);
    const f = fakeFactory(svc);
    await expect(
      runAchievementBatch(
        f.factory,
        { spec: '@/nonexistent/users.txt', action: 'reset', developerId: 'FIRST_WIN' },
        {},
      ),
    ).rejects.toThrow(/not found: \/nonexistent\/users.txt/);
    expect(svc.requests).toEqual([]);
  });

  it('--dry-run sends no change and writes no audit line', async () => {
    const svc = fakeService(['alice']);
    const f = fakeFactory(svc, { stdin: `alice\n${uidForUsername('x')}\n` });
    // The uid of x is no user of the service: the dry run reads each user as the run would and
    // fails that line the same way (issue 33), where it used to print what it would send.
    await expect(
      runAchievementBatch(
        f.factory,
        { spec: '@-', action: 'set', developerId: 'FIRST_WIN', progress: '75%' },
        { dryRun: true },
      ),
    ).rejects.toThrow(BatchIncompleteError);
    expect(svc.mutations()).toEqual([]);
    expect(f.results().map((r) => r.status)).toEqual(['dry-run', 'failed']);
    expect(f.results()[1]).toMatchObject({ uid: uidForUsername('x'), error: { code: 404 }, sent: false });
    // Before → after from the state read now, as the single-user dry run shows it (issue 38).
    expect(f.results()[0]!.result).toBe(
      `FIRST_WIN of ${uidForUsername('alice').slice(0, 4)}…: (none) → 8/10 In Progress`,
    );
    expect(f.audit()).toEqual([]);
  });
});

describe('runProductBatch', () => {
  it('take: a user holding too few fails with 409 and nothing changes for them; the others get receipts and audit lines', async () => {
    const svc = fakeService(['alice', 'bob']);
    svc.swords.set(uidForUsername('alice'), 5);
    svc.swords.set(uidForUsername('bob'), 1);
    const f = fakeFactory(svc);
    const file = listFile(['alice', 'bob']);
    await expect(
      runProductBatch(f.factory, { spec: `@${file}`, action: 'take', sku: 'sword' }, { qty: '2' }),
    ).rejects.toThrow(BatchIncompleteError);
    const r = resultsByInput(f);
    expect(r.get('alice')).toMatchObject({
      status: 'ok',
      result: {
        change: `sword of ${uidForUsername('alice').slice(0, 4)}…: 5 → 3 (take 2 units)`,
        undo: `udcli products give ${uidForUsername('alice')} sword --qty 2 --profile sandbox`,
      },
    });
    expect(r.get('bob')).toMatchObject({ status: 'failed', error: { code: 409 } });
    expect(svc.swords.get(uidForUsername('bob'))).toBe(1);
    expect(
      f
        .audit()
        .filter((e) => e.kind === 'change')
        .map((e) => e.uid),
    ).toEqual([uidForUsername('alice')]);
    // The refused take closes its intent as not applied: nothing stays open.
    expect(f.audit().filter((e) => e.kind === 'failed')).toEqual([
      expect.objectContaining({
        uid: uidForUsername('bob'),
        closes: expect.stringMatching(/\.\d+$/),
        change: expect.stringMatching(/^sword of .*: take 2 units not applied \(/),
      }),
    ]);
  });

  describe('a journal', () => {
    /** A batch giving alice, bob swords from one list, journalled in a new journal `name`, on `factory`'s target. */
    const swordBatch = (name: string) => {
      const file = listFile(['alice', 'bob']);
      const journal = join(mkdtempSync(join(root, 'j-')), name);
      return (factory: ReturnType<typeof fakeFactory>, qty = '1') =>
        runProductBatch(factory.factory, { spec: `@${file}`, action: 'give', sku: 'sword' }, { qty, journal });
    };

    it('makes a rerun skip the users already given to', async () => {
      const svc = fakeService(['alice', 'bob']);
      const giveSwords = swordBatch('give.journal');
      await giveSwords(fakeFactory(svc));
      const summary = await giveSwords(fakeFactory(svc));
      expect(summary).toMatchObject({ skipped: 2, ok: 0 });
      expect(svc.swords.get(uidForUsername('alice'))).toBe(1);
      // the same journal under a different quantity is another command: refused
      await expect(giveSwords(fakeFactory(svc), '3')).rejects.toThrow(/belongs to another command/);
    });

    it('written on one target is refused on another before anything is sent, naming both and what differs', async () => {
      const svc = fakeService(['alice', 'bob']);
      const giveSwords = swordBatch('rehearse.journal');
      await giveSwords(fakeFactory(svc));
      const sent = svc.requests.length;
      const prod = fakeFactory(svc, { production: true, yes: true });
      await expect(giveSwords(prod)).rejects.toThrow(
        /journal .*rehearse.journal was written for another target: profile sandbox on http:\/\/127.0.0.1:8787 \(game 1001\), not profile live-eu on https:\/\/api.live.example \(game 1001\) \(the server and the profile differ\); nothing was sent/,
      );
      expect(svc.requests.length).toBe(sent);
      // Refused before the production banner: nobody was asked anything.
      expect(prod.stderr()).not.toContain('PRODUCTION');
    });
  });
});

describe('Ctrl-C during a batch', () => {
  it('stops starting users, lets the one in flight finish, and ends with exit 130 and a rerun hint', async () => {
    const users = ['u1', 'u2', 'u3', 'u4', 'u5', 'u6'];
    const svc = fakeService(users);
    const f = fakeFactory(svc);
    const adjust = svc.client.adjustProduct.bind(svc.client);
    let calls = 0;
    svc.client.adjustProduct = async (...args: Parameters<ApiClient['adjustProduct']>) => {
      calls += 1;
      if (calls === 1) f.interrupt(); // pressed while the first user is in flight
      return adjust(...args);
    };
    const journal = join(mkdtempSync(join(root, 'journal-')), 'give.journal');
    const run = runProductBatch(
      f.factory,
      { spec: `@${listFile(users)}`, action: 'give', sku: 'sword' },
      { concurrency: '1', journal },
    );
    const error = await run.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InterruptedError);
    expect(exitCodeFor(error)).toBe(130);
    expect((error as InterruptedError).hint).toContain(`--journal ${journal}`);
    expect(svc.mutations()).toHaveLength(1);
    expect(f.results().filter((r) => r.status === 'ok')).toHaveLength(1);
    expect(f.stderr()).toContain('stopping after the users in flight');
    expect(f.listening()).toBe(0); // a second Ctrl-C is Node's again: it ends the process
  });
});
