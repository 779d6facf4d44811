/** The one escaping rule (src/printable.ts) and the one way a URL is shown (redactUrl, src/redact.ts). */
import { describe, expect, it } from 'vitest';
import {
  bodySafe,
  firstInvisible,
  hasControl,
  jsonSafe,
  jsonText,
  printable,
  printableFields,
  printableLines,
} from '../../src/printable.js';
import { redactUrl } from '../../src/redact.js';

describe('printable forms', () => {
  it('printable() escapes line breaks too; printableLines() keeps LF, CRLF and tabs, never a lone CR', () => {
    expect(printable('a\r\nb\tc')).toBe('a\\x0d\\x0ab\\x09c');
    expect(printableLines('a\r\nb\tc\rd\x1b[2K\u009b\u202e')).toBe('a\r\nb\tc\\x0dd\\x1b[2K\\x9b\\u202e');
  });

  it('jsonText() writes C0, DEL, C1 and bidi as \\u escapes and reads back as the same value', () => {
    const value = { 'k\u202e': ['\x1b]8;;x\x07', '\x7f\u0085\u009b', '\u061c\u200e\u200f\u202a\u2066\u2069', 'é ✓'] };
    const text = jsonText(value, 2);
    expect(text).toMatch(/^[\n\x20-\x7e\u00a0-\u2027\u202f-\u2065\u206a-\uffff]*$/);
    expect(text).toContain('"k\\u202e"');
    expect(text).toContain('\\u007f\\u0085\\u009b');
    expect(JSON.parse(text)).toEqual(value);
    expect(jsonSafe('{"a":"\u202e"}\r\n')).toBe('{"a":"\\u202e"}\r\n');
  });

  it('bodySafe() escapes an XML body by character references, any other as JSON', () => {
    expect(bodySafe('  <a b="\u202e">\u009b</a>\n')).toBe('  <a b="&#x202e;">&#x9b;</a>\n');
    expect(bodySafe('{"a":"\u202e"}')).toBe('{"a":"\\u202e"}');
  });

  it('printableFields() escapes every string, keys included, and leaves other values', () => {
    expect(printableFields({ 'n\x1b': ['\u202e', 3, null, { x: '\x07' }], ok: true })).toEqual({
      'n\\x1b': ['\\u202e', 3, null, { x: '\\x07' }],
      ok: true,
    });
  });

  it('hasControl() finds C0, DEL and C1, not bidi or other text', () => {
    for (const text of ['a\x00', '\x1f', '\x7f', '\u0080', '\u009f'])
      expect(hasControl(text), JSON.stringify(text)).toBe(true);
    for (const text of ['plain', 'é ✓', '\u00a0']) expect(hasControl(text), JSON.stringify(text)).toBe(false);
  });

  it('firstInvisible() names the first control, format or invisible character, and finds none in visible text', () => {
    expect(firstInvisible('SUP\u200b-779')).toBe('U+200B');
    expect(firstInvisible('a\nb\u200b')).toBe('U+000A');
    expect(firstInvisible('tag\u{e0041}')).toBe('U+E0041');
    expect(firstInvisible('unassigned tag \u{e0000}')).toBe('U+E0000');
    for (const ch of [
      '\u00ad',
      '\u2060',
      '\ufeff',
      '\u2028',
      '\u2029',
      '\u202e',
      '\u2066',
      '\u200e',
      '\u061c',
      '\x7f',
      '\u009b',
    ])
      expect(firstInvisible(`x${ch}`), JSON.stringify(ch)).toBeDefined();
    for (const text of ['SUP-779', 'refund for a lost purchase', 'é ✓ 漢字 👍🏽', '\u00a0'])
      expect(firstInvisible(text)).toBeUndefined();
  });
});

describe('redactUrl', () => {
  it.each([
    ['http://user:secret@host/', 'http://…@host/'],
    ['https://token@host:8443/p', 'https://…@host:8443/p'],
    ['http://a:b@c@host/x', 'http://…@host/x'],
    ['ftp://u:p@example.invalid', 'ftp://…@example.invalid'],
    ['http://host/a@b', 'http://host/a@b'],
    ['http://host:1/x?q=1@2', 'http://host:1/x?q=1%402'],
    ['http://127.0.0.1:8787', 'http://127.0.0.1:8787'],
    ['not a url', 'not a url'],
  ])('%s → %s', (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });

  it('still redacts secret query parameters', () => {
    expect(redactUrl('http://u:p@h/x?api_key=0123456789abcdef&sku=a')).toBe('http://…@h/x?api_key=0123…cdef&sku=a');
  });
});
