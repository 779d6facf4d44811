/**
 * Tables write dates one way, ISO 8601 in UTC with its `T` and `Z` (docs/USING.md): the audit's
 * table too, whose terminal layout once showed `2026-12-05 20:42:52` beside users'
 * `2024-05-01T10:05:00Z`.
 */
import { describe, expect, it } from '../fixtures.js';
import { main } from '../../src/cli/main.js';
import { commandEnv } from '../e2e/harness.js';
import { fakeIO } from '../output/fake-io.js';

describe('udcli audit on a terminal', () => {
  it('shows the time of a change as ISO 8601 (2026-12-05T20:42:52Z), as every other table does', async ({
    sandbox,
  }) => {
    const change = await sandbox.run(['achievements', 'inc', 'demo_player', 'LEVEL_10']);
    expect(change.code, change.stderr).toBe(0);
    const f = fakeIO({ tty: true, env: commandEnv(sandbox.env) });
    Object.assign(f.io.stdout, { columns: 120 });
    expect(await main(['audit'], f.io), f.stderr()).toBe(0);
    const [header, row] = f.stdout().split('\n');
    expect(header).toMatch(/^TIME\b/);
    expect(row).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z {2}/);
  });
});
