/**
 * An XML reply as the tree a JSON reply would be, so the two are compared by the same rules and
 * paths (`payload.username`, `payload[].developer_id`). The sandbox's form
 * (src/sandbox/http/envelope.ts) read back: an element per field, `<item>` elements for a list
 * (`<item key="12">` for a field whose name is not an XML name), `nil="true"` for null; every
 * leaf is text. Other habits still land on a path: a name repeated among siblings is a list under
 * that name, other attributes are fields `@name`, text beside elements `#text`. No DTD is read
 * and no entity but XML's own five and character references is expanded; nesting is bounded.
 */
export interface XmlTree {
  root: string;
  value: unknown;
}

interface Node {
  name: string;
  attrs: Array<[string, string]>;
  children: Node[];
  text: string;
}

/** Deeper than this, the reply is not read as XML (it is compared by its format only). */
const MAX_DEPTH = 256;
const NAME = /[A-Za-z_:][\w.:-]*/y;
const ATTR = /\s+([A-Za-z_:][\w.:-]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;
const ENTITY = /&(lt|gt|amp|quot|apos|#\d{1,7}|#x[0-9a-fA-F]{1,6});/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(ENTITY, (whole, name: string) => {
    if (!name.startsWith('#')) return NAMED[name]!;
    const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** The elements of `text`, or undefined when it is not well-formed enough to read. */
function parse(text: string): Node | undefined {
  const stack: Node[] = [];
  let root: Node | undefined;
  let i = 0;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    const chunk = lt === -1 ? text.slice(i) : text.slice(i, lt);
    if (chunk !== '') {
      const top = stack.at(-1);
      if (top) top.text += decode(chunk);
      else if (chunk.trim() !== '') return undefined;
    }
    if (lt === -1) break;
    i = lt;
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i);
      if (end === -1) return undefined;
      i = end + 2;
    } else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i);
      if (end === -1) return undefined;
      i = end + 3;
    } else if (text.startsWith('<![CDATA[', i)) {
      const end = text.indexOf(']]>', i);
      const top = stack.at(-1);
      if (end === -1 || !top) return undefined;
      top.text += text.slice(i + 9, end);
      i = end + 3;
    } else if (text.startsWith('<!', i)) {
      // A DOCTYPE is skipped whole, its internal subset too: nothing it declares is used.
      const bracket = text.indexOf('[', i);
      const close = text.indexOf('>', i);
      if (close === -1) return undefined;
      if (bracket !== -1 && bracket < close) {
        const end = text.indexOf(']>', bracket);
        if (end === -1) return undefined;
        i = end + 2;
      } else i = close + 1;
    } else if (text.startsWith('</', i)) {
      NAME.lastIndex = i + 2;
      const name = NAME.exec(text)?.[0];
      const close = text.indexOf('>', i);
      const top = stack.pop();
      if (name === undefined || close === -1 || !top || top.name !== name || text.slice(NAME.lastIndex, close).trim())
        return undefined;
      i = close + 1;
      if (stack.length === 0) root = top;
    } else {
      NAME.lastIndex = i + 1;
      const name = NAME.exec(text)?.[0];
      if (name === undefined || root !== undefined) return undefined;
      const node: Node = { name, attrs: [], children: [], text: '' };
      let at = NAME.lastIndex;
      for (;;) {
        ATTR.lastIndex = at;
        const m = ATTR.exec(text);
        if (!m) break;
        node.attrs.push([m[1]!, decode(m[2] ?? m[3] ?? '')]);
        at = ATTR.lastIndex;
      }
      while (/\s/.test(text[at] ?? '')) at++;
      const selfClosing = text.startsWith('/>', at);
      if (!selfClosing && text[at] !== '>') return undefined;
      i = at + (selfClosing ? 2 : 1);
      const parent = stack.at(-1);
      if (parent) parent.children.push(node);
      if (selfClosing) {
        if (!parent) root = node;
      } else {
        if (stack.length >= MAX_DEPTH) return undefined;
        stack.push(node);
      }
    }
  }
  return stack.length === 0 ? root : undefined;
}

const attr = (node: Node, name: string): string | undefined => node.attrs.find(([n]) => n === name)?.[1];
const isListItem = (node: Node): boolean => node.name === 'item' && attr(node, 'key') === undefined;

/** A node as a value; iterative from the leaves up, as the nesting can be deep. */
function valueOf(root: Node): unknown {
  const done = new Map<Node, unknown>();
  const pending: Array<[Node, boolean]> = [[root, false]];
  while (pending.length > 0) {
    const [node, visited] = pending.pop()!;
    if (!visited) {
      pending.push([node, true]);
      for (const child of node.children) pending.push([child, false]);
      continue;
    }
    const own = node.attrs.filter(([n]) => n !== 'key' && n !== 'nil' && n !== 'xsi:nil');
    const nil = /^(true|1)$/.test(attr(node, 'nil') ?? attr(node, 'xsi:nil') ?? '');
    if (node.children.length === 0 && own.length === 0) {
      done.set(node, nil && node.text === '' ? null : node.text);
      continue;
    }
    if (node.children.length > 0 && own.length === 0 && node.children.every(isListItem) && node.text.trim() === '') {
      done.set(
        node,
        node.children.map((c) => done.get(c)),
      );
      continue;
    }
    const fields: Record<string, unknown> = {};
    const set = (name: string, value: unknown): void => {
      Object.defineProperty(fields, name, { value, writable: true, enumerable: true, configurable: true });
    };
    for (const [n, v] of own) set(`@${n}`, v);
    const named = new Map<string, unknown[]>();
    for (const child of node.children) {
      const name = child.name === 'item' ? (attr(child, 'key') ?? 'item') : child.name;
      const values = named.get(name) ?? named.set(name, []).get(name)!;
      values.push(done.get(child));
    }
    // A name repeated among siblings is a list under that name.
    for (const [name, values] of named) set(name, values.length === 1 ? values[0] : values);
    if (node.text.trim() !== '') set('#text', node.text);
    done.set(node, fields);
  }
  return done.get(root);
}

export function xmlTree(text: string): XmlTree | undefined {
  const root = parse(text.replace(/^\uFEFF/, ''));
  return root ? { root: root.name, value: valueOf(root) } : undefined;
}
