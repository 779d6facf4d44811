/** A file whose one sandbox is another kind says so at its top (test/fixtures.ts). */
import { DEMO } from '../src/domain/demo.js';
import { describe, expect, test } from './fixtures.js';

test.override('sandboxOptions', { seed: 'none' });

describe('test.override of sandboxOptions at the top of a file', () => {
  test('the file’s sandbox is started with those options: no demo data', async ({ sandbox }) => {
    const r = await sandbox.run(['user', DEMO.user.uid, '--json']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
  });
});
