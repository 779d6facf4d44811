import { appendFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { appendAudit, auditEntry, auditLogPath } from '../../src/audit/log.js';
import { register } from '../../src/cli/commands/audit/index.js';
import type { Factory, GlobalOptions } from '../../src/ops/factory.js';
import { UsageError } from '../../src/errors.js';
import type { Column, Output } from '../../src/output/types.js';
import { fileScratch } from '../scratch.js';

const root = fileScratch('udcli-auditcmd-');

const UID = '01e528d59829836fd23b09085b56edab';
const UID2 = 'ffe528d59829836fd23b09085b56edab';

/** A factory whose output records what the command listed, as table cells. */
function setup(globalProfile?: string) {
  const program = new Command('udcli').exitOverride().option('--profile <name>');
  const env = { UDCLI_CONFIG_DIR: mkdtempSync(join(root, 'cfg-')) };
  const rows: Record<string, string>[] = [];
  const warnings: string[] = [];
  const out = {
    warn: (m: string) => void warnings.push(m),
    format: 'table',
    color: false,
    list: async <T extends object>(items: Iterable<T> | AsyncIterable<T>, columns: ReadonlyArray<Column<T>>) => {
      for await (const row of items as AsyncIterable<T>)
        rows.push(Object.fromEntries(columns.map((c) => [c.key, c.cell(row)])));
    },
  } as unknown as Output;
  const factory = {
    io: {
      stdin: new PassThrough(),
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      stdinIsTTY: false,
      stdoutIsTTY: false,
      stderrIsTTY: false,
      env,
      onSignals: () => () => {},
    },
    // like the real factory: the global --profile as parsed (commander gives it to the program
    // when it comes before the command's own options), else what the caller set up
    globals: () => {
      const profile = (program.opts() as { profile?: string }).profile ?? globalProfile;
      return { yes: false, ...(profile ? { profile } : {}) } as GlobalOptions;
    },
    output: async () => out,
  } as unknown as Factory;
  register(program, factory);
  const path = auditLogPath(env);
  const now = Date.now();
  const add = (hoursAgo: number, uid: string, profile: string, change: string) =>
    appendAudit(
      path,
      auditEntry({
        env: { USER: 'sam' },
        profile,
        argv: ['achievements', 'reset', uid, 'FIRST_WIN'],
        uid,
        before: null,
        after: null,
        change,
        now: new Date(now - hoursAgo * 3600_000),
      }),
    );
  add(48, UID, 'live-eu', 'old');
  add(1, UID2, 'live-eu', 'recent other user');
  add(0.5, UID, 'staging', 'recent staging');
  return { program, rows, warnings, path, run: (args: string[]) => program.parseAsync(['node', 'udcli', ...args]) };
}

describe('udcli audit', () => {
  it('lists every entry with time, operator, profile, command, uid and change', async () => {
    const t = setup();
    await t.run(['audit']);
    expect(t.rows.map((r) => r.change)).toEqual(['old', 'recent other user', 'recent staging']);
    expect(Object.keys(t.rows[0]!)).toEqual([
      'time',
      'run',
      'operator',
      'profile',
      'server',
      'user',
      'kind',
      'change',
      'ticket',
    ]);
    expect(t.rows[0]).toMatchObject({ operator: 'sam', profile: 'live-eu', user: UID, kind: 'changed' });
  });

  it('filters with --since, --user and --profile', async () => {
    const t = setup();
    await t.run(['audit', '--since', '2h', '--user', UID]);
    expect(t.rows.map((r) => r.change)).toEqual(['recent staging']);
    const p = setup();
    await p.run(['audit', '--profile', 'live-eu']);
    expect(p.rows.map((r) => r.change)).toEqual(['old', 'recent other user']);
  });

  it('filters by the global --profile when that parser took it', async () => {
    const t = setup('staging');
    await t.run(['audit']);
    expect(t.rows.map((r) => r.change)).toEqual(['recent staging']);
  });

  it('refuses a malformed --since or --user', async () => {
    await expect(setup().run(['audit', '--since', 'last tuesday'])).rejects.toThrow(UsageError);
    await expect(setup().run(['audit', '--user', 'not/a-user'])).rejects.toThrow(/--user/);
  });
});

describe('udcli audit: the latest state, --history, --unresolved, --run, --ticket (issue 38)', () => {
  /**
   * Three runs on one user and change: an unknown, a settling line closing it, and an unknown left open for another
   * user.
   */
  function withRuns() {
    const t = setup();
    const subject = 'products give sword --qty 1 --game 1001 --type Game';
    const line = (extra: Record<string, unknown>, uid = UID) =>
      appendFileSync(
        t.path,
        `${JSON.stringify({ time: new Date().toISOString(), operator: 'sam', profile: 'prod', server: 'https://api.example', command: `udcli products give ${uid} sword`, uid, subject, before: null, after: null, ...extra })}\n`,
      );
    line({
      run: 'r1',
      id: 'r1.1',
      kind: 'unknown',
      change: 'give 1 unit sent, outcome unknown',
      username: 'alice',
      ticket: 'SUP-9',
      reason: 'refund',
    });
    line(
      {
        run: 'r1',
        id: 'r1.2',
        kind: 'unknown',
        change: 'give 1 unit sent, outcome unknown',
        username: 'bob',
        ticket: 'SUP-9',
      },
      UID2,
    );
    line({
      run: 'r2',
      id: 'r2.1',
      kind: 'resolved',
      outcome: 'applied',
      closes: 'r1.1',
      change: 'outcome of r1.1 settled: it was applied',
      username: 'alice',
      ticket: 'SUP-9',
    });
    return t;
  }

  it('by default one line a user and change, its latest state: the settled unknown shows settled', async () => {
    const t = withRuns();
    await t.run(['audit', '--profile', 'prod']);
    expect(t.rows.map((r) => [r.user, r.kind])).toEqual([
      [`bob (${UID2})`, 'unknown'],
      [`alice (${UID})`, 'resolved: applied'],
    ]);
  });

  it('--history shows every line; --unresolved only the unknown no later line closes; --run one run; --ticket its changes', async () => {
    const h = withRuns();
    await h.run(['audit', '--profile', 'prod', '--history']);
    expect(h.rows.map((r) => r.kind)).toEqual(['unknown', 'unknown', 'resolved: applied']);
    const u = withRuns();
    await u.run(['audit', '--unresolved']);
    expect(u.rows.map((r) => r.user)).toEqual([`bob (${UID2})`]);
    const r = withRuns();
    await r.run(['audit', '--run', 'r2', '--history']);
    expect(r.rows.map((x) => x.change)).toEqual(['outcome of r1.1 settled: it was applied']);
    const k = withRuns();
    await k.run(['audit', '--ticket', 'SUP-9', '--history']);
    expect(k.rows).toHaveLength(3);
    const none = withRuns();
    await none.run(['audit', '--ticket', 'SUP-10']);
    expect(none.rows).toEqual([]);
  });

  it('skips a corrupt line with a warning naming it, shows every other line, then exits 2', async () => {
    const t = withRuns();
    appendFileSync(t.path, '{"time":"2026-01-01T00:00:00Z","operator":"sam","pro\n');
    await expect(t.run(['audit', '--history', '--profile', 'prod'])).rejects.toThrow(
      /has 1 corrupt line \(7\), skipped; every other line was shown/,
    );
    expect(t.warnings).toEqual([`audit log ${t.path} line 7 is not an audit entry: skipped`]);
    expect(t.rows).toHaveLength(3);
  });

  it('refuses --history with --unresolved, and a --ticket with control characters', async () => {
    await expect(setup().run(['audit', '--history', '--unresolved'])).rejects.toThrow(UsageError);
    await expect(setup().run(['audit', '--ticket', 'SUP\u001b[2J'])).rejects.toThrow(/invalid --ticket/);
  });
});
