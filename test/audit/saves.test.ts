import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inlineable, saveArgv, savePreview, saveReceipt, saveState, writeUndoFile } from '../../src/audit/saves.js';
import { compactJson, isJsonText, prettyJson } from '../../src/ops/json-text.js';
import { fileScratch } from '../scratch.js';

const UID = '01e528d59829836fd23b09085b56edab';
const dir = fileScratch('udcli-saves-audit-');

const receipt = (before: string | null, after: string | null, tokenGiven = false) => {
  const kept: string[] = [];
  const r = saveReceipt({
    uid: UID,
    key: 'slot1',
    before,
    after,
    scope: ['--profile', 'live'],
    tokenGiven,
    keep: (v) => (kept.push(v), '/cfg/saves-undo/f.txt'),
  });
  return { ...r, kept };
};

describe('save receipts', () => {
  it('a new save: the undo erases it', () => {
    expect(receipt(null, '{"a":1}')).toMatchObject({
      change: 'save slot1 of 01e5…: (none) → 7 bytes {"a":1}',
      undo: `udcli saves erase ${UID} slot1 --profile live`,
      kept: [],
    });
  });

  it('a replaced short value: the undo sets it back inline, shell-quoted', () => {
    expect(receipt("it's 1", 'x').undo).toBe(`udcli saves set ${UID} slot1 'it'\\''s 1' --profile live`);
  });

  it('an earlier value that cannot ride on a command line goes to a file named as @FILE', () => {
    for (const before of ['x'.repeat(201), 'two\nlines', '@looks-like-a-file', '-5']) {
      const r = receipt(before, null);
      expect(r.kept).toEqual([before]);
      expect(r.undo).toBe(`udcli saves set ${UID} slot1 @/cfg/saves-undo/f.txt --profile live`);
      expect(r.note).toContain('/cfg/saves-undo/f.txt');
      expect(r.change).toMatch(/→ \(erased\)$/);
    }
    expect(inlineable('x'.repeat(200))).toBe(true);
  });

  it('the same value: unchanged, no undo; a given token: the undo needs it again', () => {
    expect(receipt('v', 'v')).toMatchObject({ unchanged: true, undo: null });
    expect(receipt('v', 'w', true).note).toMatch(/needs the player's auth token again/);
  });

  it('previews are one line and cut; the audit keeps short values whole, long ones as size and hash', () => {
    expect(savePreview('a\n  b\tc', 40)).toBe('7 bytes a b c');
    expect(savePreview('é'.repeat(50), 10)).toBe(`100 bytes ${'é'.repeat(9)}…`);
    expect(saveState('k', 'v')).toEqual({ key: 'k', bytes: 1, value: 'v' });
    expect(saveState('k', 'x'.repeat(5000))).toMatchObject({
      key: 'k',
      bytes: 5000,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(saveArgv(UID, 'k', { action: 'set', value: 'y'.repeat(300), valueArg: 'y'.repeat(300) }, [])).toEqual([
      'saves',
      'set',
      UID,
      'k',
      '(300 bytes)',
    ]);
  });

  it('the undo file is 0600 and never overwrites another', () => {
    const env = { UDCLI_CONFIG_DIR: dir };
    const now = new Date('2026-01-02T03:04:05.678Z');
    const a = writeUndoFile(env, UID, 'k', 'first', now);
    const b = writeUndoFile(env, UID, 'k', 'second', now);
    expect(a).toBe(join(dir, 'saves-undo', `${UID}-k-20260102T030405Z.txt`));
    expect(b).not.toBe(a);
    expect(readFileSync(a, 'utf8')).toBe('first');
    expect(readFileSync(b, 'utf8')).toBe('second');
    expect(statSync(a).mode & 0o777).toBe(0o600);
  });
});

describe('JSON text kept as written', () => {
  const text = '{"n":12345678901234567890,"f":1.0,"s":"a\\"b,{c}:[d]","e":{},"l":[ ],"x":[1,{"y":null}]}';
  it('pretty and compact forms keep every token; both parse back to the same value', () => {
    expect(isJsonText(text)).toBe(true);
    const pretty = prettyJson(text);
    expect(pretty).toContain('"n": 12345678901234567890');
    expect(pretty).toContain('"f": 1.0');
    expect(pretty).toContain('"s": "a\\"b,{c}:[d]"');
    expect(pretty).toContain('"e": {}');
    expect(pretty).toContain('"l": []');
    expect(JSON.parse(pretty)).toEqual(JSON.parse(text));
    expect(compactJson(pretty)).toBe(text.replace('[ ]', '[]'));
    expect(prettyJson('"just a string"')).toBe('"just a string"');
  });
});
