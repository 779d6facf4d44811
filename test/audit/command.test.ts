import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { appendAudit, auditEntry, auditLogPath } from '../../src/audit/log.js';
import { register } from '../../src/cli/commands/audit/index.js';
import type { Factory, GlobalOptions } from '../../src/ops/factory.js';
import { UsageError } from '../../src/errors.js';
import type { Column, Output } from '../../src/output/types.js';

const root = mkdtempSync(join(tmpdir(), 'udcli-auditcmd-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const UID = '01e528d59829836fd23b09085b56edab';
const UID2 = 'ffe528d59829836fd23b09085b56edab';

/** A factory whose output records what the command listed, as table cells. */
function setup(globalProfile?: string) {
  const program = new Command('udcli').exitOverride().option('--profile <name>');
  const env = { UDCLI_CONFIG_DIR: mkdtempSync(join(root, 'cfg-')) };
  const rows: Record<string, string>[] = [];
  const out = {
    format: 'table',
    color: false,
    list: async <T extends object>(items: Iterable<T> | AsyncIterable<T>, columns: ReadonlyArray<Column<T>>) => {
      for await (const row of items as AsyncIterable<T>) rows.push(Object.fromEntries(columns.map((c) => [c.key, c.cell(row)])));
    },
  } as unknown as Output;
  const factory = {
    io: { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, env, onSignals: () => () => {} },
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
      auditEntry({ env: { USER: 'sam' }, profile, argv: ['achievements', 'reset', uid, 'FIRST_WIN'], uid, before: null, after: null, change, now: new Date(now - hoursAgo * 3600_000) }),
    );
  add(48, UID, 'live-eu', 'old');
  add(1, UID2, 'live-eu', 'recent other user');
  add(0.5, UID, 'staging', 'recent staging');
  return { program, rows, run: (args: string[]) => program.parseAsync(['node', 'udcli', ...args]) };
}

describe('udcli audit', () => {
  it('lists every entry with time, operator, profile, command, uid and change', async () => {
    const t = setup();
    await t.run(['audit']);
    expect(t.rows.map((r) => r.change)).toEqual(['old', 'recent other user', 'recent staging']);
    expect(Object.keys(t.rows[0]!)).toEqual(['time', 'operator', 'profile', 'server', 'command', 'uid', 'change']);
    expect(t.rows[0]).toMatchObject({ operator: 'sam', profile: 'live-eu', uid: UID, command: `udcli achievements reset ${UID} FIRST_WIN` });
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
