/** What `udcli sandbox logs` selects (issue 23): -n, --status, --path, --since, checked before anything is read. */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { parseLogSelection } from '../../src/cli/commands/sandbox/logs.js';
import type { RequestRecord } from '../../src/sandbox/request-line.js';

const NOW = Date.UTC(2030, 0, 1, 12, 0, 0);
const rec = (status: number, path: string, minutesAgo: number): RequestRecord => ({
  time: new Date(NOW - minutesAgo * 60_000).toISOString(),
  method: 'GET',
  path,
  query: '',
  body: '',
  status,
  ms: 1,
  reason: null,
});

describe('parseLogSelection', () => {
  it('-n: 10 by default, a number, or all; no filter shows every line', () => {
    expect(parseLogSelection({}, NOW)).toEqual({ count: 10, match: null, challenges: false });
    expect(parseLogSelection({ challenges: true }, NOW).challenges).toBe(true);
    expect(parseLogSelection({ lines: '3' }, NOW).count).toBe(3);
    expect(parseLogSelection({ lines: '0' }, NOW).count).toBe(0);
    expect(parseLogSelection({ lines: 'all' }, NOW).count).toBe('all');
  });

  it('--status takes statuses and classes, --path a text in the path, --since a duration or an ISO time; all must match', () => {
    const { match } = parseLogSelection({ status: '4xx,503', path: '/achievements', since: '10m' }, NOW);
    expect(match!(rec(401, '/services/rest/v1/achievements/user/x.json', 1))).toBe(true);
    expect(match!(rec(503, '/services/rest/v1/achievements/user/x.json', 9))).toBe(true);
    expect(match!(rec(200, '/services/rest/v1/achievements/user/x.json', 1))).toBe(false);
    expect(match!(rec(404, '/services/rest/v1/products/user/x.json', 1))).toBe(false);
    expect(match!(rec(404, '/services/rest/v1/achievements/user/x.json', 11))).toBe(false);
    const iso = parseLogSelection({ since: '2030-01-01T11:30:00Z' }, NOW).match!;
    expect(iso(rec(200, '/', 29))).toBe(true);
    expect(iso(rec(200, '/', 31))).toBe(false);
  });

  it.each([
    [{ lines: '-1' }, /invalid -n "-1"/],
    [{ lines: 'ten' }, /invalid -n "ten"/],
    [{ status: '6xx' }, /invalid --status "6xx"/],
    [{ status: '40' }, /invalid --status/],
    [{ since: 'yesterday' }, /invalid --since "yesterday"/],
    [{ path: '' }, /--path needs a text/],
  ])('refuses %j with one usage error', (raw, message) => {
    expect(() => parseLogSelection(raw, NOW)).toThrow(UsageError);
    expect(() => parseLogSelection(raw, NOW)).toThrow(message);
  });
});
