import { describe, expect, it } from 'vitest';
import { displayValue, parseProfileKey, validateProfileName, validateValue } from '../../src/config/keys.js';
import { UsageError } from '../../src/errors.js';

describe('profile keys', () => {
  it('accepts key names with dashes or in upper case, rejects unknown ones listing the keys', () => {
    expect(parseProfileKey('base-url')).toBe('base_url');
    expect(parseProfileKey('API_KEY')).toBe('api_key');
    expect(() => parseProfileKey('colour')).toThrow(/unknown key "colour"; keys: base_url, site_url, api_key/);
  });

  it('validates and normalizes values, naming what was wrong', () => {
    expect(validateValue('api_key', 'B84276AA-5397-4B89-A8BA-0F16FFB7566F')).toBe('b84276aa53974b89a8ba0f16ffb7566f');
    expect(validateValue('api_key', '0123456789ABCDEF0123456789ABCDEF')).toBe('0123456789abcdef0123456789abcdef');
    expect(() => validateValue('api_key', '0123', '--api-key')).toThrow(/^invalid --api-key .*32 hex digits or a UUID/);
    expect(validateValue('base_url', 'https://api.example.com/')).toBe('https://api.example.com');
    expect(() => validateValue('base_url', 'not a url')).toThrow(/invalid base_url/);
    expect(() => validateValue('site_url', 'file:///etc/passwd')).toThrow(/invalid site_url/);
    expect(validateValue('signing_scheme', 'NONE')).toBe('none');
    expect(() => validateValue('signing_scheme', 'md5')).toThrow(/expected agi, hmac-sha256-v1, none/);
    expect(validateValue('signing_scheme', ' AGI ')).toBe('agi');
    expect(validateValue('verb_override', 'off')).toBe(false);
    expect(validateValue('type', 'website')).toBe('Website');
    expect(() => validateValue('type', 'App')).toThrow(/Game or Website/);
    expect(validateValue('production', 'yes')).toBe(true);
    expect(validateValue('production', 'false')).toBe(false);
    expect(() => validateValue('production', 'maybe')).toThrow(UsageError);
    expect(() => validateValue('game_id', 'has space')).toThrow(/invalid game_id/);
    expect(() => validateValue('signing_secret', '')).toThrow(/invalid signing_secret/);
  });

  it('never shows a rejected api key in full', () => {
    const almost = '0123456789abcdef0123456789abcdeZ';
    expect(() => validateValue('api_key', almost)).toThrow(UsageError);
    try {
      validateValue('api_key', almost);
    } catch (error) {
      expect((error as Error).message).not.toContain(almost);
    }
  });

  it('shows secrets redacted', () => {
    expect(displayValue('api_key', '0123456789abcdef0123456789abcdef')).toBe('0123…cdef');
    expect(displayValue('signing_secret', 'sandbox-demo-signing-secret-0001')).toBe('sand…0001');
    expect(displayValue('base_url', 'http://x')).toBe('http://x');
  });

  it('checks profile names', () => {
    expect(validateProfileName('live-eu.1')).toBe('live-eu.1');
    expect(() => validateProfileName('../etc')).toThrow(UsageError);
    expect(() => validateProfileName('')).toThrow(UsageError);
  });
});

describe('the team keys (issue 52)', () => {
  it('lists from a file (arrays) or a command line (comma-separated); counts; a pattern that compiles', () => {
    expect(validateValue('operators', 'Ana Lopes <ana@studio.test>, ben@studio.test')).toEqual([
      'Ana Lopes <ana@studio.test>',
      'ben@studio.test',
    ]);
    expect(validateValue('products_allowed', ['gems*', 'sword-of-dawn'])).toEqual(['gems*', 'sword-of-dawn']);
    expect(validateValue('max_players', '50')).toBe(50);
    expect(validateValue('max_quantity', 10)).toBe(10);
    expect(validateValue('approval_over', '0')).toBe(0);
    expect(validateValue('ticket_pattern', 'SUP-\\d+')).toBe('SUP-\\d+');
    expect(displayValue('operators', ['a <a@x>', 'b'])).toBe('a <a@x>, b');
  });

  it('refuses what a team file could get wrong, naming it', () => {
    expect(() => validateValue('max_players', '0')).toThrow(/^invalid max_players "0": expected a whole number ≥ 1/);
    expect(() => validateValue('max_quantity', '2.5')).toThrow(UsageError);
    expect(() => validateValue('ticket_pattern', 'SUP-(')).toThrow(/^invalid ticket_pattern "SUP-\(":/);
    expect(() => validateValue('products_allowed', 'gems; rm -rf')).toThrow(/expected a sku such as/);
    expect(() => validateValue('operators', ' , ')).toThrow(/at least one entry/);
    expect(() => validateValue('operator', 'Ana\u202e <ana@x>')).toThrow(/one line naming a person/);
    expect(() => validateValue('operator_required', 'maybe')).toThrow(/expected true or false/);
  });
});
