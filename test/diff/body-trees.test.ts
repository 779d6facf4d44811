/**
 * The readers the comparison walks: JSON with its numbers' spellings (read as JSON.parse reads
 * it), and XML as the tree its JSON would be (the sandbox's own XML read back as its JSON); both
 * safe on hostile input (deep nesting, a DTD's entities).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSpelled } from '../../src/sandbox/diff/json-spelled.js';
import { xmlTree } from '../../src/sandbox/diff/xml-tree.js';
import { toXml } from '../../src/sandbox/http/envelope.js';

/** Every leaf as the text XML carries it. */
const asText = (v: unknown): unknown =>
  v === null
    ? null
    : Array.isArray(v)
      ? v.map(asText)
      : typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asText(x)]))
        : String(v);

describe('parseSpelled', () => {
  it('reads what JSON.parse reads', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value, null, 1);
        expect(parseSpelled(text).value).toEqual(JSON.parse(text));
      }),
    );
    expect(Object.keys(parseSpelled('{"__proto__":1,"a":2,"a":3}').value as object)).toEqual(['__proto__', 'a']);
  });

  it('keeps a number spelled otherwise than JSON writes it, beside its container', () => {
    const { value, spelling } = parseSpelled('{"a":55.0,"b":55,"c":[1e2,7]}');
    const v = value as { a: number; c: number[] };
    expect(v.a).toBe(55);
    expect([spelling(v, 'a'), spelling(v, 'b'), spelling(v.c, 0), spelling(v.c, 1)]).toEqual([
      '55.0',
      undefined,
      '1e2',
      undefined,
    ]);
  });

  it('nesting far deeper than a recursion could go', () => {
    const depth = 200_000;
    expect(() => parseSpelled(`${'['.repeat(depth)}${']'.repeat(depth)}`)).not.toThrow();
  });
});

describe('xmlTree', () => {
  it("the sandbox's XML reads back as its JSON, every leaf as text", () => {
    const body = {
      version: 1,
      code: 200,
      message: 'OK <&> "quoted"',
      payload: [{ developer_id: 'A', tags: { '12': 'x' }, completed_date: null, data: [] }],
    };
    expect(xmlTree(toXml(body))).toEqual({
      root: 'response',
      value: {
        ...(asText(body) as object),
        payload: [{ developer_id: 'A', tags: { '12': 'x' }, completed_date: null, data: '' }],
      },
    });
  });

  it('other habits land on a path: repeated names, attributes, CDATA; no entity of a DTD is expanded', () => {
    const text =
      '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY big "BIG">]><r><f id="1"><n>a</n></f><f id="2"><n><![CDATA[<b>]]></n></f><x>&big;</x></r>';
    expect(xmlTree(text)).toEqual({
      root: 'r',
      value: {
        f: [
          { '@id': '1', n: 'a' },
          { '@id': '2', n: '<b>' },
        ],
        x: '&big;',
      },
    });
  });

  it('not well-formed, or nested too deep: not read', () => {
    expect(xmlTree('<a><b></a></b>')).toBeUndefined();
    expect(xmlTree('<a>')).toBeUndefined();
    expect(xmlTree(`${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}`)).toBeUndefined();
  });
});
