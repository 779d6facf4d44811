/**
 * The connect tag, put into every HTML page of a game as the first element of its head, so
 * that it runs before any of the game's scripts (it routes the platform SDK to the sandbox and
 * makes `document.domain = "armorgames.com"` harmless). Works on bytes read as latin1, which
 * maps each byte to one character and back, so the page's own encoding is never touched.
 */
export const CONNECT_PATH = '/_sandbox/connect.js';
export const CONNECT_TAG = `<script src="${CONNECT_PATH}"></script>`;

/**
 * The tag the game host puts in: the script from the sandbox's main origin (`http://host:port`),
 * since the game's own origin has no /_sandbox routes; the script takes that origin from its
 * own URL, to reroute the SDK's requests and talk to the play page.
 */
export function connectTag(mainOrigin: string): string {
  return `<script src="${mainOrigin}${CONNECT_PATH}"></script>`;
}
/** HTML is held in memory to be injected into up to this size; past it, the tag goes into this first part. */
export const MAX_INJECTED_HTML_BYTES = 8 * 1024 * 1024;

const BOM = '\u00ef\u00bb\u00bf';
// Comments are matched so that a <head> inside one is skipped; the first other element ends the search.
const TOKENS = /<!--[\s\S]*?-->|<!doctype[^>]*>|<html(?=[\s>/])[^>]*>|<head(?=[\s>/])[^>]*>|<[a-z][^>]*>/gi;

/** Where the tag goes in `text` and whether a head must be made for it. */
function insertionPoint(text: string): { at: number; makeHead: boolean } {
  let afterPrologue = text.startsWith(BOM) ? BOM.length : 0;
  TOKENS.lastIndex = 0;
  for (let m = TOKENS.exec(text); m !== null; m = TOKENS.exec(text)) {
    const token = m[0].toLowerCase();
    const end = m.index + m[0].length;
    if (token.startsWith('<!--')) continue;
    if (token.startsWith('<!doctype') || /^<html[\s>/]/.test(token)) {
      afterPrologue = end;
      continue;
    }
    if (/^<head[\s>/]/.test(token)) return { at: end, makeHead: false };
    break;
  }
  return { at: afterPrologue, makeHead: true };
}

/** The page with the connect tag (`script`) in; `bytes` is the whole page or its first part. */
export function injectConnectTag(bytes: Buffer, script: string = CONNECT_TAG): Buffer {
  const text = bytes.toString('latin1');
  const { at, makeHead } = insertionPoint(text);
  const tag = makeHead ? `<head>${script}</head>` : script;
  return Buffer.from(text.slice(0, at) + tag + text.slice(at), 'latin1');
}

/**
 * The charset a page declares in a meta tag, if any: a content type without one gets it, so
 * the bytes added before that meta never push it out of the browser's 1024-byte prescan.
 */
export function declaredCharset(bytes: Buffer): string | null {
  const head = bytes.subarray(0, 4096).toString('latin1');
  const m = /<meta\b[^>]*?charset\s*=\s*["']?([A-Za-z0-9_.:-]{1,40})/i.exec(head);
  return m ? m[1]! : null;
}

/** The content type to send with an injected page. */
export function injectedContentType(contentType: string, bytes: Buffer): string {
  if (/;\s*charset=/i.test(contentType)) return contentType;
  const bom = bytes.subarray(0, 3).toString('latin1') === BOM;
  const charset = bom ? 'utf-8' : declaredCharset(bytes);
  return charset === null ? contentType : `${contentType}; charset=${charset}`;
}

export function isHtml(contentType: string | undefined): boolean {
  return contentType !== undefined && /^\s*text\/html\s*(;|$)/i.test(contentType);
}
