import { readFileSync, statSync, appendFileSync, chmodSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AuditLog,
  appendAudit,
  auditEntry,
  auditLogPath,
  commandLine,
  parseSince,
  readAudit,
  type AuditEntry,
} from '../../src/audit/log.js';
import { UsageError } from '../../src/errors.js';
import { fileScratch } from '../scratch.js';
import { collect } from '../collect.js';

const root = fileScratch('udcli-audit-');
let seq = 0;
const freshDir = () => join(root, `cfg${++seq}`, 'nested');

const UID = '01e528d59829836fd23b09085b56edab';
const UID2 = 'ffe528d59829836fd23b09085b56edab';
const SECRET = 'sandbox-demo-signing-secret-0001';
const KEY = '0123456789abcdef0123456789abcdef';

describe('auditLogPath', () => {
  it('lives in UDCLI_CONFIG_DIR when set, else the per-user config dir', () => {
    expect(auditLogPath({ UDCLI_CONFIG_DIR: '/tmp/cfg' })).toBe(join('/tmp/cfg', 'audit.log'));
    expect(auditLogPath({ HOME: '/home/ann' }, 'linux')).toBe('/home/ann/.config/udcli/audit.log');
    expect(auditLogPath({ HOME: '/home/ann', XDG_CONFIG_HOME: '/x' }, 'linux')).toBe('/x/udcli/audit.log');
  });
});

describe('audit log', () => {
  it('appends one JSON line per change with operator, profile and command, in a 0600 file, never a secret', async () => {
    const dir = freshDir();
    const path = auditLogPath({ UDCLI_CONFIG_DIR: dir });
    const argv = [
      'achievements',
      'reset',
      UID,
      'FIRST_WIN',
      '--api-key',
      KEY,
      `--signing-secret=${SECRET}`,
      '--profile',
      'live-eu',
    ];
    await appendAudit(
      path,
      auditEntry({
        env: { USER: 'sam' },
        profile: 'live-eu',
        argv,
        uid: UID,
        before: { current_value: 3, state: 'In Progress' },
        after: {
          current_value: 0,
          state: 'In Progress',
          signature: 'abcdef0123456789abcdef',
          cookie: 'session=secretcookievalue',
        },
        change: 'FIRST_WIN of 01e5…: 3/10 In Progress → 0/10 In Progress',
        undo: `udcli achievements set ${UID} FIRST_WIN 30%`,
        now: new Date('2024-05-01T10:00:00Z'),
      }),
    );
    await appendAudit(
      path,
      auditEntry({
        env: { USER: 'kim' },
        profile: 'live-eu',
        argv: ['products', 'take', UID2, 'sword'],
        uid: UID2,
        before: null,
        after: null,
      }),
    );

    const text = readFileSync(path, 'utf8');
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AuditEntry);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      time: '2024-05-01T10:00:00.000Z',
      operator: 'sam',
      profile: 'live-eu',
      uid: UID,
      before: { current_value: 3, state: 'In Progress' },
      change: 'FIRST_WIN of 01e5…: 3/10 In Progress → 0/10 In Progress',
    });
    expect(lines[0]!.command).toBe(
      `udcli achievements reset ${UID} FIRST_WIN --api-key 0123…cdef --signing-secret=sand…0001 --profile live-eu`,
    );
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('secretcookievalue');
    expect(text).not.toContain('abcdef0123456789abcdef');
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('tightens an existing log to 0600', async () => {
    if (process.platform === 'win32') return;
    const dir = freshDir();
    const path = auditLogPath({ UDCLI_CONFIG_DIR: dir });
    await appendAudit(path, auditEntry({ env: {}, profile: 'p', argv: [], uid: UID, before: null, after: null }));
    chmodSync(path, 0o644);
    const log = AuditLog.open(path);
    await log.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('operator comes from $USER, with a fallback', () => {
    expect(
      auditEntry({ env: { USER: 'sam' }, profile: 'p', argv: [], uid: UID, before: null, after: null }).operator,
    ).toBe('sam');
    expect(
      auditEntry({ env: { LOGNAME: 'lee' }, profile: 'p', argv: [], uid: UID, before: null, after: null }).operator,
    ).toBe('lee');
    // No variable at all (cron, containers): the account the process runs as.
    expect(auditEntry({ env: {}, profile: 'p', argv: [], uid: UID, before: null, after: null }).operator).toBe(
      userInfo().username,
    );
  });

  it('quotes arguments a shell would split, and redacts secret name=value fields', () => {
    expect(commandLine(['api', 'PUT', '/x', '-f', `api_key=${KEY}`, '-f', 'name=two words'])).toBe(
      "udcli api PUT /x -f api_key=0123…cdef -f 'name=two words'",
    );
  });

  it('readAudit filters by --since, --user (any case) and --profile, and skips damaged lines', async () => {
    const dir = freshDir();
    const path = auditLogPath({ UDCLI_CONFIG_DIR: dir });
    const now = new Date('2024-05-10T12:00:00Z');
    const mk = (hoursAgo: number, uid: string, profile: string) =>
      auditEntry({
        env: { USER: 'sam' },
        profile,
        argv: ['x'],
        uid,
        before: null,
        after: null,
        now: new Date(now.getTime() - hoursAgo * 3600_000),
      });
    const log = AuditLog.open(path);
    await log.append(mk(72, UID, 'live-eu'));
    await log.append(mk(3, UID2, 'live-eu'));
    await log.close();
    appendFileSync(path, '{"time": "torn\n');
    await appendAudit(path, mk(1, UID, 'staging'));

    expect(await collect(readAudit(path))).toHaveLength(3);
    expect((await collect(readAudit(path, { since: '2h', now }))).map((e) => e.profile)).toEqual(['staging']);
    expect(await collect(readAudit(path, { since: '7d', now }))).toHaveLength(3);
    expect((await collect(readAudit(path, { user: UID.toUpperCase() }))).map((e) => e.profile)).toEqual([
      'live-eu',
      'staging',
    ]);
    expect(
      (await collect(readAudit(path, { profile: 'live-eu', since: new Date('2024-05-09T00:00:00Z') }))).map(
        (e) => e.uid,
      ),
    ).toEqual([UID2]);
  });

  it('readAudit of a log that does not exist yet has no entries', async () => {
    expect(await collect(readAudit(join(freshDir(), 'audit.log')))).toEqual([]);
  });

  it('parseSince takes durations and dates, and refuses anything else', () => {
    const now = new Date('2024-05-10T12:00:00Z');
    expect(parseSince('2h', now).toISOString()).toBe('2024-05-10T10:00:00.000Z');
    expect(parseSince('7d', now).toISOString()).toBe('2024-05-03T12:00:00.000Z');
    expect(parseSince('30m', now).toISOString()).toBe('2024-05-10T11:30:00.000Z');
    expect(parseSince('2024-05-01T10:00:00Z', now).toISOString()).toBe('2024-05-01T10:00:00.000Z');
    for (const bad of ['yesterday', '2', '-2h', '2024-13-45']) expect(() => parseSince(bad, now)).toThrow(UsageError);
  });
});
