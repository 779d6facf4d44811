/**
 * Issue 38, support staff trusted with production: a journal bound to its target, the production
 * prompt naming the count and the target, doctor changing nothing on production, --reason and
 * --ticket carried to the receipt, the audit log and the journal, and audit lines that say who,
 * where and which run. A real sandbox stands in for production (`profile add prod ... --production`);
 * "nothing sent" is read from the sandbox's own request log.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { generatedUsername } from '../../src/sandbox/seed/demo.js';
import {
  addProductionProfile,
  addSandboxProfile,
  auditLog,
  json,
  type CliResult,
  lastRequestId as harnessLastRequestId,
  loggedSince as harnessLoggedSince,
  type TestEnv,
} from './harness.js';
import { fileScratch } from '../scratch.js';

let env: TestEnv;
const scratch = fileScratch('udcli-e2e-support-prod-');

beforeAll(async ({ sandbox }) => {
  env = sandbox;
  // The stand-in for production: the same sandbox, under a profile marked production.
  await addProductionProfile(env);
});

const lastRequestId = () => harnessLastRequestId(env.sandbox.url);
const loggedSince = (id: number) => harnessLoggedSince(env.sandbox.url, id);

const changing = (requests: Array<{ method: string }>) => requests.filter((q) => q.method !== 'GET');

/** A profile of the shared sandbox whose changes need --reason and --ticket. */
const addRequireReasonProfile = (name: string) => addSandboxProfile(env, name, ['--require-reason']);

/** The audit log's lines of the udcli runs of `of` (the shared sandbox's by default). */
function auditLines(of: TestEnv = env): Array<Record<string, unknown>> {
  return auditLog(of.configDir);
}

/**
 * A sandbox of its own for one describe block, with faults injected (`--faults` spec and seed): the
 * test env once it runs, and its audit log's lines.
 */
function sandboxWithFaults(
  spec: string,
  seed: number,
): { env: () => TestEnv; audit: () => ReturnType<typeof auditLines> } {
  let started: TestEnv | undefined;
  beforeAll(async ({ newSandbox }) => {
    started = await newSandbox({ faults: { spec, seed } });
  });
  const env = (): TestEnv => {
    if (!started) throw new Error('the sandbox with faults has not started');
    return started;
  };
  return { env, audit: () => auditLines(env()) };
}

function list(name: string, lines: string[]): string {
  const path = join(scratch, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

const items = (r: CliResult): Array<Record<string, unknown>> =>
  r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('a journal belongs to its target', () => {
  it('a sandbox rehearsal journal reused with --profile prod: exit 2, both targets named, nothing sent', async () => {
    const users = list('users3.txt', ['alice', 'bob', 'carol']);
    const journal = join(scratch, 'rehearse.journal');
    const rehearsal = await env.run(['products', 'give', `@${users}`, 'xp-boost', '--journal', journal]);
    expect(rehearsal.code, rehearsal.stderr).toBe(0);
    expect(JSON.parse(readFileSync(journal, 'utf8').split('\n')[0]!)).toMatchObject({
      udcli_journal: 3,
      target: { server: env.sandbox.url, profile: 'sandbox', game: '1001' },
    });

    const since = await lastRequestId();
    const prod = await env.run([
      '--profile',
      'prod',
      'products',
      'give',
      `@${users}`,
      'xp-boost',
      '--journal',
      journal,
      '--yes',
    ]);
    expect(prod.code).toBe(2);
    expect(prod.stdout).toBe('');
    expect(prod.stderr.split('\n')[0]).toBe(
      `udcli: journal ${journal} was written for another target: profile sandbox on ${env.sandbox.url} (game 1001), not profile prod on ${env.sandbox.url} (game 1001) (the profile differs); nothing was sent`,
    );
    // Refused before the production banner and before any request.
    expect(prod.stderr).not.toContain('PRODUCTION');
    expect(await loggedSince(since)).toEqual([]);

    // Resuming on the same target works as before: every user skipped.
    const again = await env.run(['products', 'give', `@${users}`, 'xp-boost', '--journal', journal]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/batch: 3 items: 0 ok, 0 failed, 0 unknown, 3 skipped/);
  });

  it('a journal of an unknown format or with a truncated line: one line, exit 2, nothing sent', async () => {
    const users = list('users1.txt', ['alice']);
    const newer = join(scratch, 'newer.journal');
    writeFileSync(
      newer,
      `${JSON.stringify({ udcli_journal: 9, operation: 'products give', args: [], created: 'x' })}\n`,
    );
    const truncated = join(scratch, 'truncated.journal');
    const first = await env.run(['products', 'give', `@${users}`, 'xp-boost', '--journal', truncated]);
    expect(first.code, first.stderr).toBe(0);
    const [header, record] = readFileSync(truncated, 'utf8').split('\n');
    writeFileSync(truncated, `${header}\n${record!.slice(0, 15)}\n`);
    for (const [journal, message] of [
      [newer, /is in format 9, which this udcli cannot resume/],
      [truncated, /line 2 is not a journal record \(truncated or edited\?\)/],
    ] as const) {
      const since = await lastRequestId();
      const r = await env.run(['products', 'give', `@${users}`, 'xp-boost', '--journal', journal]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(await loggedSince(since)).toEqual([]);
    }
  });
});

describe('the production prompt says what will happen', () => {
  it('names the count of users (blank lines and comments are none), the list, the profile and the server', async () => {
    const users = list('users-commented.txt', ['# three testers', 'alice', '', 'bob', '# and', 'carol']);
    const r = await env.run(['--profile', 'prod', 'products', 'give', `@${users}`, 'xp-boost', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `⚠ PRODUCTION profile "prod": give 1 unit of xp-boost to 3 users (users-commented.txt) on prod (${env.sandbox.url})\n`,
    );
  });

  it('a single-user change names its target too', async () => {
    const r = await env.run(['--profile', 'prod', 'products', 'give', 'alice', 'xp-boost', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(
        `^⚠ PRODUCTION profile "prod": give 1 unit of xp-boost .*user alice on prod \\(${env.sandbox.url.replace(/[.]/g, '\\.')}\\)\n`,
      ),
    );
  });
});

describe('doctor changes nothing on production', () => {
  const HMAC = { UDCLI_SIGNING_SCHEME: 'hmac-sha256-v1' };

  it('under production with hmac-sha256-v1: no changing request, the signing check skipped and how to run it on purpose', async () => {
    const since = await lastRequestId();
    const r = await env.run(['--profile', 'prod', 'doctor', '-o', 'json'], { env: HMAC });
    expect(r.code, r.stderr).toBe(0);
    const signing = json<Array<{ check: string; status: string; detail: string }>>(r).find(
      (c) => c.check === 'signing',
    );
    expect(signing).toEqual({
      check: 'signing',
      status: 'skip',
      detail:
        'skipped on production profile prod: the check sends a signed change (a reset of user 00000000000000000000000000000000); run it on purpose with: udcli --profile prod doctor --check-signing (asks for the profile name first)',
    });
    const logged = await loggedSince(since);
    expect(logged.length).toBeGreaterThan(0);
    expect(changing(logged)).toEqual([]);
  });

  it('--check-signing asks as any production change: refused off a terminal without --yes (nothing sent), sent with it', async () => {
    const since = await lastRequestId();
    const refused = await env.run(['--profile', 'prod', 'doctor', '--check-signing'], { env: HMAC });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('⚠ PRODUCTION profile "prod": doctor --check-signing: one signed reset');
    expect(refused.stderr).toMatch(/refusing to change production data without --yes/);
    expect(await loggedSince(since)).toEqual([]);

    const asked = await env.run(['--profile', 'prod', 'doctor', '--check-signing', '--yes', '-o', 'json'], {
      env: HMAC,
    });
    expect(asked.code, asked.stderr).toBe(0);
    expect(json<Array<{ check: string; status: string }>>(asked).find((c) => c.check === 'signing')).toMatchObject({
      status: 'ok',
    });
    expect(changing(await loggedSince(since))).toEqual([
      expect.objectContaining({
        path: '/services/rest/v1/achievements/user/00000000000000000000000000000000.json',
        status: 404,
      }),
    ]);
  });
});

describe('why a change was made travels with it', () => {
  it('--reason and --ticket: the receipt, the audit line (with run, operator, profile, server, username) and udcli audit --ticket', async () => {
    const r = await env.run([
      'products',
      'give',
      'alice',
      'xp-boost',
      '--reason',
      'refund for a lost purchase',
      '--ticket',
      'SUP-3801',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Why:     refund for a lost purchase (ticket SUP-3801)\n');
    const line = auditLines().at(-1)!;
    expect(line).toMatchObject({
      kind: 'change',
      profile: 'sandbox',
      server: env.sandbox.url,
      uid: uidForUsername('alice'),
      username: 'alice',
      reason: 'refund for a lost purchase',
      ticket: 'SUP-3801',
    });
    expect(line.run).toMatch(/^\d{8}T\d{4}-[0-9a-f]{6}$/);
    // Its intent, written before sending, is the run's first line; this one closes it.
    expect(line.id).toBe(`${String(line.run)}.2`);
    expect(line.closes).toBe(`${String(line.run)}.1`);
    expect(typeof line.operator).toBe('string');

    const found = await env.run(['audit', '--ticket', 'SUP-3801', '-o', 'json']);
    expect(found.code, found.stderr).toBe(0);
    expect(json<Array<Record<string, unknown>>>(found)).toEqual([
      expect.objectContaining({
        ticket: 'SUP-3801',
        reason: 'refund for a lost purchase',
        username: 'alice',
        run: line.run,
      }),
    ]);
  });

  it('a batch: one run id for every line, the reason in each result and in the journal header', async () => {
    const users = list('why.txt', ['alice', 'bob']);
    const journal = join(scratch, 'why.journal');
    const r = await env.run([
      'products',
      'give',
      `@${users}`,
      'xp-boost',
      '--journal',
      journal,
      '--reason',
      'event compensation',
      '--ticket',
      'SUP-7',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(items(r).map((i) => (i.result as Record<string, unknown>).ticket)).toEqual(['SUP-7', 'SUP-7']);
    const lines = auditLines().slice(-2);
    expect(new Set(lines.map((l) => l.run)).size).toBe(1);
    expect(lines.map((l) => l.username).sort()).toEqual(['alice', 'bob']);
    expect(JSON.parse(readFileSync(journal, 'utf8').split('\n')[0]!)).toMatchObject({
      reason: 'event compensation',
      ticket: 'SUP-7',
    });
  });

  it('require_reason: a change without --reason and --ticket is refused before anything is sent; a dry run needs none', async () => {
    await addRequireReasonProfile('strict');
    const since = await lastRequestId();
    const lines = auditLines().length;
    const r = await env.run(['--profile', 'strict', 'products', 'give', 'alice', 'xp-boost', '--reason', 'no ticket']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'udcli: profile strict requires a reason for every change: give --ticket REF; nothing was sent\ne.g. --reason "refund for lost purchase" --ticket SUP-1234 (require_reason is set on profile strict)\n',
    );
    expect(await loggedSince(since)).toEqual([]);
    expect(auditLines()).toHaveLength(lines);
    const dry = await env.run(['--profile', 'strict', 'products', 'give', 'alice', 'xp-boost', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
  });

  it('a hostile or oversized --reason is refused before anything is sent', async () => {
    const since = await lastRequestId();
    for (const reason of ['line\u001b[2Jcleared', 'x'.repeat(501)]) {
      const r = await env.run(['products', 'give', 'alice', 'xp-boost', '--reason', reason, '--ticket', 'SUP-1']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^udcli: invalid --reason: /);
      expect(r.stderr).not.toContain('\u001b');
    }
    expect(await loggedSince(since)).toEqual([]);
  });
});

describe('the audit log closes what it opened (under injected faults)', () => {
  // Connections cut at random, before or after the sandbox applied the change: some replies of
  // `give` are lost (unknown), and the rerun's reads settle them. This seed loses three of eight.
  const faults = sandboxWithFaults('reset=0.5', 2);
  const faultyAudit = faults.audit;

  it('unknown outcomes settled by a rerun get a line closing them; --unresolved lists only what is still unknown', async () => {
    const users = list(
      'faulty.txt',
      Array.from({ length: 8 }, (_, i) => generatedUsername(i + 1)),
    );
    const journal = join(scratch, 'faulty.journal');
    const args = [
      '--timeout',
      '1500',
      'products',
      'give',
      `@${users}`,
      'xp-boost',
      '--journal',
      journal,
      '--concurrency',
      '1',
      '--ticket',
      'SUP-38',
    ];
    const first = await faults.env().run(args);
    const unknownFirst = items(first).filter((i) => i.status === 'unknown');
    expect(unknownFirst.length, first.stderr).toBeGreaterThan(0);
    // Every unknown of the first run left an open line naming the user and the run.
    const opened = faultyAudit().filter((l) => l.kind === 'unknown');
    expect(opened.map((l) => l.uid).sort()).toEqual(unknownFirst.map((i) => i.uid).sort());
    expect(new Set(opened.map((l) => l.run)).size).toBe(1);

    const rerun = await faults.env().run(args);
    const settled = items(rerun).filter(
      (i) => i.status === 'ok' && (i.resolved as { how?: string } | undefined)?.how === 'applied',
    );
    const lines = faultyAudit();
    for (const item of settled) {
      const open = opened.find((l) => l.uid === item.uid)!;
      // The line that says so, pointing at the one it closes.
      expect(lines).toContainEqual(
        expect.objectContaining({
          kind: 'resolved',
          outcome: 'applied',
          uid: item.uid,
          closes: open.id,
          ticket: 'SUP-38',
          // The undo of a change found applied, as its change line would have had.
          undo: expect.stringMatching(new RegExp(`^udcli products take ${String(item.uid)} xp-boost --qty 1 `)),
        }),
      );
    }
    // A user the rerun found not applied was sent again: its unknown line is closed too.
    for (const item of items(rerun).filter((i) => (i.resolved as { how?: string } | undefined)?.how === 'sent')) {
      expect(lines).toContainEqual(
        expect.objectContaining({ kind: 'resolved', outcome: 'not-applied', uid: item.uid }),
      );
    }
    expect(lines.filter((l) => l.kind === 'resolved').length).toBeGreaterThan(0);
    const stillUnknown = new Set(
      items(rerun)
        .filter((i) => i.status === 'unknown')
        .map((i) => i.uid),
    );
    const unresolved = await faults.env().run(['audit', '--unresolved', '-o', 'json']);
    expect(unresolved.code, unresolved.stderr).toBe(0);
    const open = json<Array<{ uid: string; kind: string }>>(unresolved);
    expect(new Set(open.map((l) => l.uid))).toEqual(stillUnknown);
    expect(open.every((l) => l.kind === 'unknown')).toBe(true);
    // The default view: one line a user and change, none of the settled ones still "unknown".
    const latest = json<Array<{ uid: string; kind: string }>>(await faults.env().run(['audit', '-o', 'json']));
    expect(new Set(latest.filter((l) => l.kind === 'unknown').map((l) => l.uid))).toEqual(stillUnknown);

    // SENT tells the truth: "nothing was changed" beside SENT yes only where a read proved it.
    for (const item of [...items(first), ...items(rerun)]) {
      const message = (item.error as { message?: string } | undefined)?.message ?? '';
      if (item.sent === true && message.includes('nothing was changed'))
        expect(message).toMatch(/state read back shows it was not applied/);
    }
  }, 120_000);

  it('a batch --dry-run shows before → after for each user', async () => {
    const users = list('dry.txt', ['alice', 'bob']);
    const r = await env.run(['products', 'give', `@${users}`, 'xp-boost', '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    for (const item of items(r)) {
      expect(item.status).toBe('dry-run');
      expect(item.result).toMatch(
        new RegExp(`^xp-boost of ${String(item.uid).slice(0, 4)}…: (\\d+) → (\\d+) \\(give 1 unit\\)$`),
      );
      const [, was, next] = /: (\d+) → (\d+)/.exec(String(item.result))!;
      expect(Number(next)).toBe(Number(was) + 1);
    }
    // The SENT column: a dry run sent no change; a plain success sent its change.
    const csv = await env.run([
      'products',
      'give',
      `@${users}`,
      'xp-boost',
      '--dry-run',
      '-o',
      'csv',
      '--fields',
      'input,status,sent',
    ]);
    expect(csv.stdout).toBe('input,status,sent\nalice,dry-run,false\nbob,dry-run,false\n');
    const made = await env.run([
      'products',
      'give',
      `@${users}`,
      'xp-boost',
      '-o',
      'csv',
      '--fields',
      'input,status,sent',
    ]);
    expect(made.stdout).toBe('input,status,sent\nalice,ok,true\nbob,ok,true\n');
  });
});

describe('a change sent with udcli api is a change like any other', () => {
  const uid = DEMO.user.uid;
  const path = `achievements/user/${uid}.json`;
  const fields = ['-f', 'type=Game', '-f', `pid=${DEMO.game.id}`, '-f', 'developer_id=COLLECT_1000_GEMS'];

  it('require_reason refuses it before anything is sent; with a reason it is written ahead and closed by one change line, key redacted', async () => {
    await addRequireReasonProfile('strict-api');
    const since = await lastRequestId();
    const lines = auditLines().length;
    const increment = ['--profile', 'strict-api', 'api', 'PUT', path, ...fields, '-f', 'increment=1'];
    const refused = await env.run([...increment, '--sign']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^udcli: profile strict-api requires a reason for every change: give --reason TEXT and --ticket REF; nothing was sent\n/,
    );
    expect(await loggedSince(since)).toEqual([]);
    expect(auditLines()).toHaveLength(lines);

    const sent = await env.run([
      ...increment,
      '-f',
      `api_key=${DEMO.game.apiKey}`,
      '--sign',
      '--reason',
      'stuck quest',
      '--ticket',
      'SUP-9',
    ]);
    expect(sent.code, sent.stderr).toBe(0);
    const [intent, ...added1] = auditLines().slice(lines);
    expect(intent).toMatchObject({ kind: 'intent', ticket: 'SUP-9' });
    expect(added1).toHaveLength(1);
    expect(added1[0]).toMatchObject({
      closes: intent!.id,
      kind: 'change',
      profile: 'strict-api',
      server: env.sandbox.url,
      uid,
      subject: `api PUT /services/rest/v1/${path}`,
      reason: 'stuck quest',
      ticket: 'SUP-9',
      before: null,
      after: { developer_id: 'COLLECT_1000_GEMS' },
      undo: null,
    });
    expect(added1[0]!.command).toMatch(
      /^udcli api PUT \/services\/rest\/v1\/achievements\/user\/\w+\.json -f type=Game /,
    );
    expect(JSON.stringify([intent, added1[0]])).not.toContain(DEMO.game.apiKey);
  });

  it('a read and a dry run leave no audit line; a change the server refused is written ahead and closed as failed', async () => {
    const lines = auditLines().length;
    expect((await env.run(['api', 'GET', `users/${uid}.json`])).code).toBe(0);
    expect((await env.run(['api', 'PUT', path, ...fields, '-f', 'increment=1', '--sign', '--dry-run'])).code).toBe(0);
    expect(auditLines()).toHaveLength(lines);
    // Unsigned: the service answers with its challenge and changes nothing.
    expect((await env.run(['api', 'PUT', path, ...fields, '-f', 'increment=1'])).code).toBe(3);
    const [intent, failed, ...more] = auditLines().slice(lines);
    expect(more).toEqual([]);
    expect(intent).toMatchObject({ kind: 'intent' });
    expect(failed).toMatchObject({ kind: 'failed', closes: intent!.id });
  });
});

describe('udcli api under injected faults', () => {
  // Replies cut short at random: the change was sent, its outcome cannot be read from the reply.
  const faults = sandboxWithFaults('truncated=0.4', 5);
  const lossyAudit = faults.audit;

  it('a change whose reply was lost is an unknown line, one that went through a change line', async () => {
    const uid = uidForUsername(generatedUsername(20));
    const kinds: string[] = [];
    for (let i = 0; i < 8; i++) {
      const before = lossyAudit().length;
      const r = await faults
        .env()
        .run([
          '--timeout',
          '1500',
          'api',
          'POST',
          `products/user/${uid}.json`,
          '-f',
          'type=Game',
          '-f',
          `parent_id=${DEMO.game.id}`,
          '-f',
          'sku=xp-boost',
          '-f',
          'qty=1',
          '--sign',
          '--ticket',
          'SUP-39',
        ]);
      const added = lossyAudit().slice(before);
      // Written ahead, then closed by its outcome.
      expect(added[0]).toMatchObject({ kind: 'intent', uid, ticket: 'SUP-39' });
      if (r.code === 0) {
        expect(added.map((l) => l.kind)).toEqual(['intent', 'change']);
      } else {
        // A reply cut short after the request was sent: whether it was applied cannot be told.
        expect(added.slice(1), r.stderr).toEqual([
          expect.objectContaining({ kind: 'unknown', uid, ticket: 'SUP-39', closes: added[0]!.id }),
        ]);
      }
      kinds.push(...added.slice(1).map((l) => String(l.kind)));
    }
    expect(kinds).toContain('unknown');
    expect(kinds).toContain('change');
  });
});
