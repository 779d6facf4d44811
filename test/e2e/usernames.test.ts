/**
 * A username wherever a uid is taken (issue 12): each command that names one user, run with the
 * uid and with the username — its twin — gives the same answer; the lookup shows in --verbose;
 * an unknown name is the service's 404 (exit 4); input that is neither stays a usage error.
 * Needs `npm run build` first.
 */
import { describe, expect, it, fileSandbox } from '../fixtures.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { json } from './harness.js';

const env = fileSandbox();

const BOB = uidForUsername('bob');

describe('reads: the uid and the username give the same answer', () => {
  it.each([
    [['friends'], ['--limit', '5']],
    [['achievements', 'list'], []],
    [['products', 'list'], []],
  ])('%j', async (command, extra) => {
    const byUid = await env.runChecked([...command, BOB, ...extra, '--json']);
    const byName = await env.runChecked([...command, 'bob', ...extra, '--json']);
    expect(byUid.code, byUid.stderr).toBe(0);
    expect(byName.code, byName.stderr).toBe(0);
    expect(json(byName)).toEqual(json(byUid));
  });

  it('--verbose shows the one lookup', async () => {
    const r = await env.runChecked(['products', 'list', 'bob', '--json', '-v']);
    expect(r.stderr).toMatch(/→ GET \S+\/users\/bob\.json\?api_key=0123…cdef&username=1/);
    expect(r.stderr.match(/\/users\/bob\.json/g)).toHaveLength(1);
  });
});

describe('changes: each twin changes the same user the same way', () => {
  const value = async (developerId: string) =>
    json<Array<{ developer_id: string; current_value: number }>>(
      await env.read(['achievements', 'list', BOB, '--developer-id', developerId, '--json']),
    )[0]!.current_value;
  const units = async (sku: string) =>
    json<Array<{ purchase: { data: unknown } }>>(await env.read(['products', 'list', BOB, '--sku', sku, '--json']))[0]!
      .purchase.data;

  it('achievements inc, set, reset, delete', async () => {
    const before = await value('DAILY_STREAK_7');
    for (const user of [BOB, 'bob'])
      expect((await env.runChecked(['achievements', 'inc', user, 'DAILY_STREAK_7'])).code).toBe(0);
    expect(await value('DAILY_STREAK_7')).toBe(before + 2);
    for (const [user, pct, expected] of [
      [BOB, '50%', 4],
      ['bob', '100%', 7],
    ] as const) {
      expect((await env.runChecked(['achievements', 'set', user, 'DAILY_STREAK_7', pct])).code).toBe(0);
      expect(await value('DAILY_STREAK_7')).toBe(expected);
    }
    expect((await env.runChecked(['achievements', 'reset', 'bob', 'DAILY_STREAK_7'])).code).toBe(0);
    expect(await value('DAILY_STREAK_7')).toBe(0);
    const del = await env.runChecked(['achievements', 'delete', 'bob', 'DAILY_STREAK_7', '--yes', '--json']);
    expect(del.code, del.stderr).toBe(0);
    expect(json<{ uid: string }>(del).uid).toBe(BOB);
  });

  it('products give and take, and the receipt names the uid', async () => {
    const before = Number(await units('xp-boost')) || 0;
    const give = await env.runChecked(['products', 'give', 'bob', 'xp-boost', '--qty', '3']);
    expect(give.code, give.stderr).toBe(0);
    expect(await units('xp-boost')).toBe(before + 3);
    const take = await env.runChecked(['products', 'take', BOB, 'xp-boost', '--qty', '1']);
    expect(take.code, take.stderr).toBe(0);
    const byName = await env.runChecked(['products', 'take', 'bob', 'xp-boost', '--qty', '1']);
    expect(byName.code, byName.stderr).toBe(0);
    expect(await units('xp-boost')).toBe(before + 1);
    // The undo is written with the uid, which no rename can change.
    expect(byName.stderr).toContain(`udcli products give ${BOB} xp-boost --qty 1`);
  });
});

describe('names that are not there, and input that is neither', () => {
  it("an unknown username: exit 4 with the service's not found, nothing changed", async () => {
    const r = await env.run(['achievements', 'inc', 'nobody_here_zz', 'LEVEL_10']);
    expect(r.code).toBe(4);
    expect(r.stderr.split('\n')[0]).toBe('udcli: not found: user named nobody_here_zz');
  });

  it('neither a uid nor a name (short hex, spaces): the invalid uid usage error, nothing sent', async () => {
    for (const bad of ['01e528d5', 'two words']) {
      const r = await env.run(['friends', bad, '-v']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^udcli: invalid uid /);
      expect(r.stderr).not.toMatch(/^→ /m);
    }
  });
});
