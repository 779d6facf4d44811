import { describe, expect, it } from 'vitest';
import { parseConfigData, type ConfigData } from '../../src/config/file.js';
import { activeProfileName, builtInSandboxUrl, resolveSettings } from '../../src/config/resolve.js';
import { UsageError } from '../../src/errors.js';
import { DEFAULT_SANDBOX_URL, DEMO } from '../../src/domain/demo.js';

const KEY_A = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const KEY_B = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const KEY_C = 'cccccccccccccccccccccccccccccccc';

const config: ConfigData = {
  current_profile: 'work',
  profiles: {
    work: {
      base_url: 'https://work.example.com',
      api_key: KEY_A,
      signing_secret: 'work-secret',
      game_id: '7',
      production: true,
    },
    other: {
      base_url: 'https://other.example.com',
      site_url: 'https://site.example.com',
      type: 'Website',
      signing_scheme: 'none',
    },
  },
};

describe('active profile', () => {
  it('is --profile, else UDCLI_PROFILE, else the stored current one, else sandbox', () => {
    expect(activeProfileName({ profile: 'other' }, { UDCLI_PROFILE: 'work' }, config)).toEqual({
      name: 'other',
      source: 'flag',
    });
    expect(activeProfileName({}, { UDCLI_PROFILE: 'other' }, config)).toEqual({ name: 'other', source: 'env' });
    expect(activeProfileName({}, {}, config)).toEqual({ name: 'work', source: 'config' });
    expect(activeProfileName({}, {}, { profiles: {} })).toEqual({ name: 'sandbox', source: 'default' });
  });

  it('must exist: an unknown one is a usage error listing the profiles', () => {
    expect(() => resolveSettings({ profile: 'nope' }, {}, config)).toThrow(UsageError);
    expect(() => resolveSettings({ profile: 'nope' }, {}, config)).toThrow(
      'unknown profile "nope"; profiles: sandbox, other, work',
    );
  });
});

describe('per-key precedence: flag > env > profile > default', () => {
  it('takes profile values and records the source', () => {
    const s = resolveSettings({}, {}, config);
    expect(s).toMatchObject({
      profile: 'work',
      builtInSandbox: false,
      baseUrl: 'https://work.example.com',
      siteUrl: 'https://work.example.com',
      apiKey: KEY_A,
      signingSecret: 'work-secret',
      // issue 9: agi, the platform's own scheme, is the default (was hmac-sha256-v1).
      signingScheme: 'agi',
      verbOverride: true,
      gameId: '7',
      type: 'Game',
      production: true,
    });
    expect(s.sources).toMatchObject({
      base_url: 'profile',
      api_key: 'profile',
      site_url: 'default',
      signing_scheme: 'default',
    });
  });

  it('UDCLI_SIGNING_SCHEME picks the scheme; verb_override follows agi unless the profile says otherwise', () => {
    const hmac = resolveSettings({}, { UDCLI_SIGNING_SCHEME: 'hmac-sha256-v1' }, config);
    expect(hmac).toMatchObject({ signingScheme: 'hmac-sha256-v1', verbOverride: false });
    expect(hmac.sources).toMatchObject({ signing_scheme: 'env', verb_override: 'default' });
    const off = resolveSettings(
      {},
      {},
      { ...config, profiles: { ...config.profiles, work: { ...config.profiles.work, verb_override: false } } },
    );
    expect(off).toMatchObject({ signingScheme: 'agi', verbOverride: false });
    expect(() => resolveSettings({}, { UDCLI_SIGNING_SCHEME: 'md5' }, config)).toThrow(
      /invalid UDCLI_SIGNING_SCHEME "md5": expected agi, hmac-sha256-v1, none/,
    );
    // A hand-edited profile: one line naming the file, profile and key (a UsageError: exit 2).
    expect(() => parseConfigData({ profiles: { x: { signing_scheme: 'md5' } } }, '/cfg/config.json')).toThrow(
      'config file /cfg/config.json has profile "x" with invalid signing_scheme "md5": expected agi, hmac-sha256-v1, none',
    );
  });

  it('lets the environment override the profile and a flag override both', () => {
    const env = {
      UDCLI_BASE_URL: 'http://env.example.com/',
      UDCLI_API_KEY: KEY_B,
      UDCLI_GAME_ID: '9',
      UDCLI_SIGNING_SECRET: 'env-secret',
    };
    const s = resolveSettings({}, env, config);
    expect(s).toMatchObject({
      baseUrl: 'http://env.example.com',
      apiKey: KEY_B,
      gameId: '9',
      signingSecret: 'env-secret',
    });
    expect(s.sources).toMatchObject({ base_url: 'env', api_key: 'env', game_id: 'env', signing_secret: 'env' });
    const f = resolveSettings({ baseUrl: 'http://flag.example.com', apiKey: KEY_C }, env, config);
    expect(f).toMatchObject({ baseUrl: 'http://flag.example.com', apiKey: KEY_C, gameId: '9' });
    expect(f.sources).toMatchObject({ base_url: 'flag', api_key: 'flag' });
  });

  it('keeps an explicit site_url and follows base_url otherwise', () => {
    expect(resolveSettings({ profile: 'other' }, {}, config)).toMatchObject({
      siteUrl: 'https://site.example.com',
      type: 'Website',
      signingScheme: 'none',
    });
    expect(resolveSettings({ profile: 'other' }, { UDCLI_SITE_URL: 'http://s2.example.com' }, config).siteUrl).toBe(
      'http://s2.example.com',
    );
  });

  it('rejects malformed environment values, naming the variable', () => {
    expect(() => resolveSettings({}, { UDCLI_API_KEY: 'xyz' }, config)).toThrow(/UDCLI_API_KEY/);
    expect(() => resolveSettings({}, { UDCLI_BASE_URL: 'ftp://x' }, config)).toThrow(/UDCLI_BASE_URL/);
  });

  it('accepts the UUID form of a key and normalizes it', () => {
    const s = resolveSettings({}, { UDCLI_API_KEY: 'B84276AA-5397-4B89-A8BA-0F16FFB7566F' }, config);
    expect(s.apiKey).toBe('b84276aa53974b89a8ba0f16ffb7566f');
  });
});

describe('the built-in sandbox profile', () => {
  it('is the demo game on the default sandbox URL, and allows the embedded fallback', () => {
    const s = resolveSettings({}, {}, { profiles: {} });
    expect(s).toMatchObject({
      profile: 'sandbox',
      builtInSandbox: true,
      baseUrl: DEFAULT_SANDBOX_URL,
      siteUrl: DEFAULT_SANDBOX_URL,
      apiKey: DEMO.game.apiKey,
      signingSecret: DEMO.game.signingSecret,
      gameId: DEMO.game.id,
      type: 'Game',
      production: false,
    });
    expect(s.sources.base_url).toBe('default');
  });

  it('takes the user overlay for its keys; overriding base_url anywhere ends the fallback', () => {
    const overlay: ConfigData = { profiles: { sandbox: { game_id: '1002' } } };
    const s = resolveSettings({}, {}, overlay);
    expect(s).toMatchObject({ gameId: '1002', builtInSandbox: true, apiKey: DEMO.game.apiKey });
    expect(s.sources.game_id).toBe('profile');
    expect(
      resolveSettings({}, {}, { profiles: { sandbox: { base_url: 'http://127.0.0.1:9999' } } }).builtInSandbox,
    ).toBe(false);
    const env = resolveSettings({}, { UDCLI_BASE_URL: 'http://127.0.0.1:9998' }, { profiles: {} });
    expect(env.builtInSandbox).toBe(false);
    expect(env.siteUrl).toBe('http://127.0.0.1:9998');
    expect(resolveSettings({ baseUrl: 'http://127.0.0.1:9997' }, {}, { profiles: {} }).builtInSandbox).toBe(false);
  });

  it('moves to UDCLI_SANDBOX_PORT without counting as an override', () => {
    expect(builtInSandboxUrl({ UDCLI_SANDBOX_PORT: '9123' })).toBe('http://127.0.0.1:9123');
    const s = resolveSettings({}, { UDCLI_SANDBOX_PORT: '9123' }, { profiles: {} });
    expect(s).toMatchObject({ baseUrl: 'http://127.0.0.1:9123', builtInSandbox: true });
    expect(() => builtInSandboxUrl({ UDCLI_SANDBOX_PORT: 'abc' })).toThrow(UsageError);
  });
});
