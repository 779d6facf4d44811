import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkClock, checkConfigFile, checkSigning, describeProfile } from '../../src/cli/commands/doctor/check.js';
import { resolveSettings } from '../../src/config/resolve.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'udcli-doctor-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('doctor checks', () => {
  it('config file: fine when absent, fails when readable by others or unparseable', () => {
    const env = { UDCLI_CONFIG_DIR: dir };
    expect(checkConfigFile(env, 'linux').status).toBe('ok');
    const path = join(dir, 'config.json');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path, '{"profiles":{}}');
    chmodSync(path, 0o600);
    expect(checkConfigFile(env, 'linux')).toEqual({
      check: 'config file',
      status: 'ok',
      detail: `${path} (mode 0600)`,
    });
    chmodSync(path, 0o644);
    expect(checkConfigFile(env, 'linux')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('mode 0644, expected 0600'),
    });
    writeFileSync(path, 'nope');
    expect(checkConfigFile(env, 'linux')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('is not valid JSON'),
    });
  });

  it('clock: ok within 60 s, warns beyond, fails beyond the 300 s signing window', () => {
    const now = Date.parse('2025-01-01T12:00:00Z');
    const at = (offsetS: number) => new Date(now - offsetS * 1000).toUTCString();
    expect(checkClock(at(0), now + 400)).toMatchObject({ status: 'ok', detail: 'in step with the server' });
    expect(checkClock(at(59), now).status).toBe('ok');
    expect(checkClock(at(61), now)).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('ahead of the server by 61 s'),
    });
    expect(checkClock(at(-200), now)).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('behind the server by 200 s'),
    });
    expect(checkClock(at(301), now).status).toBe('fail');
    expect(checkClock(null, now).status).toBe('warn');
  });

  it('signing: a secret is needed for hmac-sha256-v1 only, and shown redacted', () => {
    const builtIn = resolveSettings({}, {}, { profiles: {} });
    // issue 9: agi, the default, needs no secret of ours.
    expect(checkSigning({ ...builtIn, signingSecret: undefined }).status).toBe('ok');
    const sandbox = { ...builtIn, signingScheme: 'hmac-sha256-v1' as const };
    expect(checkSigning(sandbox)).toEqual({
      check: 'signing',
      status: 'ok',
      detail: 'hmac-sha256-v1 with signing_secret sand…0001 (set; not verified: no signed request was tried)',
    });
    expect(checkSigning({ ...sandbox, signingSecret: undefined }).status).toBe('fail');
    expect(checkSigning({ ...sandbox, signingScheme: 'none', signingSecret: undefined }).status).toBe('ok');
  });

  it('profile: says where values come from', () => {
    const s = resolveSettings({}, { UDCLI_BASE_URL: 'http://127.0.0.1:1' }, { profiles: {} });
    expect(describeProfile(s)).toMatch(/^sandbox: base_url from env UDCLI_BASE_URL; .*api_key.* from default/);
  });
});
