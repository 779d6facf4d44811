import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { hostname, tmpdir } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readConfig, updateConfig } from '../../src/config/file.js';
import { configDir, configFilePath } from '../../src/config/paths.js';
import { UsageError } from '../../src/errors.js';

let dir: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'udcli-config-'));
  env = { UDCLI_CONFIG_DIR: join(dir, 'cfg') };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('config file location', () => {
  it('is UDCLI_CONFIG_DIR/config.json, else the per-user config directory', () => {
    expect(configFilePath(env)).toBe(join(dir, 'cfg', 'config.json'));
    expect(configDir({ HOME: '/home/u' }, 'linux')).toBe('/home/u/.config/udcli');
    expect(configDir({ HOME: '/home/u', XDG_CONFIG_HOME: '/x' }, 'linux')).toBe('/x/udcli');
    expect(configDir({ HOME: '/Users/u' }, 'darwin')).toBe('/Users/u/Library/Preferences/udcli');
  });
});

describe('reading', () => {
  it('treats a missing file as no profiles and creates nothing', () => {
    expect(readConfig(env)).toEqual({ path: configFilePath(env), exists: false, data: { profiles: {} } });
    expect(existsSync(join(dir, 'cfg'))).toBe(false);
  });

  it('refuses a file that is not JSON, naming it, and leaves it alone (read and write paths)', async () => {
    const path = configFilePath(env);
    await updateConfig(env, () => {});
    writeFileSync(path, '{ "profiles": { broken');
    expect(() => readConfig(env)).toThrow(UsageError);
    expect(() => readConfig(env)).toThrow(path);
    await expect(updateConfig(env, (d) => void (d.current_profile = 'x'))).rejects.toThrow(UsageError);
    await expect(updateConfig(env, () => {})).rejects.toThrow(path);
    expect(readFileSync(path, 'utf8')).toBe('{ "profiles": { broken');
  });

  it('refuses stored values that do not validate, naming the profile and key', () => {
    const path = configFilePath(env);
    writeRaw(path, { profiles: { work: { base_url: 'https://x.example.com', api_key: 'nothex' } } });
    expect(() => readConfig(env)).toThrow(/profile "work" with invalid api_key/);
  });

  it('keeps keys it does not know', async () => {
    const path = configFilePath(env);
    writeRaw(path, { future: 1, profiles: { work: { base_url: 'https://x.example.com', colour: 'blue' } } });
    await updateConfig(env, (d) => void (d.current_profile = 'work'));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      future: 1,
      current_profile: 'work',
      profiles: { work: { base_url: 'https://x.example.com', colour: 'blue' } },
    });
  });
});

describe('writing', () => {
  it('writes with mode 0600 and reads back the same data', async () => {
    await updateConfig(env, (d) => {
      d.profiles.work = { base_url: 'https://x.example.com', api_key: '0123456789abcdef0123456789abcdef' };
    });
    const path = configFilePath(env);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readConfig(env).data.profiles.work).toEqual({
      base_url: 'https://x.example.com',
      api_key: '0123456789abcdef0123456789abcdef',
    });
  });

  it('tightens an older file that was readable by others', async () => {
    const path = configFilePath(env);
    writeRaw(path, { profiles: {} });
    chmodSync(path, 0o644);
    await updateConfig(env, (d) => void (d.current_profile = 'sandbox'));
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('a link planted at the file’s name is replaced, never written through (issue 40, 3)', async () => {
    const path = configFilePath(env);
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const other = join(dirname(path), '..', 'victim.json');
    writeFileSync(other, '{"profiles":{}}', { mode: 0o644 });
    symlinkSync(other, path);
    await updateConfig(env, (d) => void (d.current_profile = 'sandbox'));
    expect(readFileSync(other, 'utf8')).toBe('{"profiles":{}}');
    expect(statSync(other).mode & 0o777).toBe(0o644);
    expect(lstatSync(path).isFile()).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readConfig(env).data.current_profile).toBe('sandbox');
  });

  it('writes nothing when the change throws', async () => {
    await expect(
      updateConfig(env, () => {
        throw new UsageError('no');
      }),
    ).rejects.toThrow('no');
    expect(existsSync(configFilePath(env))).toBe(false);
  });
});

/** A file as a user (or an older udcli) might have left it. */
function writeRaw(path: string, data: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(data));
}

describe('the config lock', () => {
  it('a write waits for the lock, and gives up with a clear line naming the holder, changing nothing', async () => {
    const path = configFilePath(env);
    await updateConfig(env, (d) => void (d.current_profile = 'a'));
    // A live holder on this host: this very process, as another udcli would be.
    writeFileSync(
      `${path}.lock`,
      JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }),
    );
    const started = Date.now();
    const attempt = updateConfig(env, (d) => void (d.current_profile = 'b'), { lockTimeoutMs: 300 });
    await expect(attempt).rejects.toThrow(UsageError);
    await expect(updateConfig(env, () => {}, { lockTimeoutMs: 300 })).rejects.toThrow(
      `config file ${path} stayed locked by pid ${process.pid} for 0.3s; nothing was changed`,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(readConfig(env).data.current_profile).toBe('a');

    rmSync(`${path}.lock`);
    await updateConfig(env, (d) => void (d.current_profile = 'b'));
    expect(readConfig(env).data.current_profile).toBe('b');
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});
