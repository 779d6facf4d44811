import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { confirmMutation } from '../../src/ops/safety.js';
import { CancelledError, UsageError } from '../../src/errors.js';
import type { GlobalOptions, IOStreams } from '../../src/ops/factory.js';

function fakeFactory(opts: { tty: boolean; yes?: boolean; typed?: string | null }) {
  const stdin = new PassThrough();
  const stderr = new PassThrough();
  let err = '';
  stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  if (opts.typed !== undefined) {
    if (opts.typed === null) stdin.end();
    else stdin.write(`${opts.typed}\n`);
  }
  const io: IOStreams = {
    stdin,
    stdout: new PassThrough(),
    stderr,
    stdinIsTTY: opts.tty,
    stdoutIsTTY: opts.tty,
    stderrIsTTY: opts.tty,
    env: {},
    onSignals: () => () => {},
  };
  const globals = { yes: opts.yes ?? false } as GlobalOptions;
  return { factory: { io, globals: () => globals }, stderr: () => err };
}

const prod = { production: true, profile: 'live-eu' };
const what = 'reset FIRST_WIN for 2,000 users';

describe('confirmMutation', () => {
  it('does nothing for a profile that is not production', async () => {
    const f = fakeFactory({ tty: false });
    await expect(confirmMutation(f.factory, { production: false, profile: 'sandbox' }, what)).resolves.toBeUndefined();
    expect(f.stderr()).toBe('');
  });

  it('on a terminal, goes on when the profile name is typed, after a banner naming it', async () => {
    const f = fakeFactory({ tty: true, typed: 'live-eu' });
    await confirmMutation(f.factory, prod, what);
    expect(f.stderr()).toContain('⚠ PRODUCTION profile "live-eu": reset FIRST_WIN for 2,000 users');
    expect(f.stderr()).toMatch(/Type the profile name/);
  });

  it('on a terminal, a wrong name or end of input cancels', async () => {
    await expect(confirmMutation(fakeFactory({ tty: true, typed: 'yes' }).factory, prod, what)).rejects.toThrow(
      CancelledError,
    );
    await expect(confirmMutation(fakeFactory({ tty: true, typed: null }).factory, prod, what)).rejects.toThrow(
      CancelledError,
    );
  });

  it('off a terminal, refuses without --yes and goes on with it; the banner is printed either way', async () => {
    const no = fakeFactory({ tty: false });
    await expect(confirmMutation(no.factory, prod, what)).rejects.toThrow(UsageError);
    await expect(confirmMutation(no.factory, prod, what)).rejects.toThrow(
      'refusing to change production data without --yes off a terminal',
    );
    expect(no.stderr()).toContain('PRODUCTION profile "live-eu"');
    const yes = fakeFactory({ tty: false, yes: true });
    await confirmMutation(yes.factory, prod, what);
    expect(yes.stderr()).toContain('PRODUCTION profile "live-eu"');
  });
});
