/**
 * A file whose one sandbox is another kind says so at its top (test/fixtures.ts), and only that
 * file's tests get it: the worker process runs other files after this one (isolate: false), and
 * vitest's top-level `test.override` changed the shared `test` for all of them.
 */
import { DEMO } from '../src/domain/demo.js';
import { describe, expect, test, withSandboxOptions } from './fixtures.js';

const unseeded = withSandboxOptions({ seed: 'none' });

describe('withSandboxOptions at the top of a file', () => {
  unseeded('its tests’ file sandbox is started with those options: no demo data', async ({ sandbox }) => {
    const r = await sandbox.run(['user', DEMO.user.uid, '--json']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
  });

  test('the shared `test` still gets the demo sandbox, in this file and the ones after it', async ({ sandbox }) => {
    const r = await sandbox.run(['user', DEMO.user.uid, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { uid: string }).uid).toBe(DEMO.user.uid);
  });
});
