/** The reply envelope `{version, code, message, payload}` (spec 2.1), as JSON or XML. */
import { ENVELOPE_VERSION, type Envelope } from '../../domain/types.js';

export type Format = 'json' | 'xml';

export function envelope<T>(code: number, message: string, payload: T | null): Envelope<T> {
  return { version: ENVELOPE_VERSION, code, message, payload };
}

export function contentType(format: Format): string {
  return format === 'xml' ? 'application/xml; charset=utf-8' : 'application/json; charset=utf-8';
}

export function serialize(format: Format, body: Envelope<unknown>): string {
  return format === 'xml' ? toXml(body) : JSON.stringify(body);
}

/** The reply format a path asks for: `.xml` gives XML, anything else JSON. */
export function formatOfPath(path: string): Format {
  return /\.xml$/i.test(path) ? 'xml' : 'json';
}

// --- XML -------------------------------------------------------------------------------------
//
// <response><version>1</version><code>200</code><message>OK</message><payload>…</payload></response>
// Objects: one element per field. Arrays: <item> elements. null: an empty element with nil="true".
// A field name that is not an XML name (tag ids like "12") becomes <item key="12">.

const XML_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

function escapeXml(text: string): string {
  return (
    text
      // Characters XML 1.0 cannot carry at all.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it replaces
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd')
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

function element(name: string, value: unknown): string {
  const isName = XML_NAME.test(name) && !/^xml/i.test(name);
  const open = isName ? name : `item key="${escapeXml(name)}"`;
  const close = isName ? name : 'item';
  if (value === null || value === undefined) return `<${open} nil="true"/>`;
  if (Array.isArray(value)) {
    return `<${open}>${value.map((v) => element('item', v)).join('')}</${close}>`;
  }
  if (typeof value === 'object') {
    return `<${open}>${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => element(k, v))
      .join('')}</${close}>`;
  }
  return `<${open}>${escapeXml(String(value))}</${close}>`;
}

export function toXml(body: Envelope<unknown>): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element('response', body)}\n`;
}
