/**
 * Batch input that is no list of users, end to end (main in-process): an overlong line is
 * one failed item, and an endless one (`@-` fed from /dev/zero) ends with an error.
 */
import { createReadStream, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, fileSandbox, it } from '../fixtures.js';
import { runInProcess } from './harness.js';
import { fileScratch } from '../scratch.js';

const env = fileSandbox();
const scratch = fileScratch('udcli-e2e-input-');

describe('batch input limits (e2e)', () => {
  it('a 1 MB line between two users is one failed item, shown cut short; the two users are reset; exit 6', async () => {
    const list = join(scratch, 'long.txt');
    writeFileSync(list, `alice\n${'q'.repeat(1024 * 1024)}\nbob\n`);
    const r = await env.run(['achievements', 'reset', `@${list}`, 'FIRST_WIN']);
    expect(r.code, r.stderr).toBe(6);
    const out = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { input: string; status: string; error?: { message: string } });
    expect(out.map((l) => [l.input.slice(0, 5), l.status]).sort()).toEqual([
      ['alice', 'ok'],
      ['bob', 'ok'],
      ['qqqqq', 'failed'],
    ]);
    expect(r.stdout.length).toBeLessThan(2000);
    expect(out.find((l) => l.status === 'failed')!.error!.message).toMatch(
      /^line 2 is 1048576 characters long, over the 4096/,
    );
    expect(r.stderr).toMatch(/3 items: 2 ok, 1 failed/);
  }, 30_000);

  it('@- fed from /dev/zero ends with one clear line and exit 2, nothing sent', async () => {
    if (!existsSync('/dev/zero')) return;
    const zero = createReadStream('/dev/zero');
    const { code, stdout, stderr } = await runInProcess(['achievements', 'inc', '@-', 'COLLECT_1000_GEMS'], env.env, {
      stdin: zero,
    }).finally(() => zero.destroy());
    expect(code, stderr).toBe(2);
    expect(stderr).toContain('line 1 of the batch input runs past 64 MiB without a line break');
    expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(stdout).toBe('');
  }, 30_000);
});
