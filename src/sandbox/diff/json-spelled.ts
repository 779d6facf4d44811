/**
 * JSON read as JSON.parse reads it, keeping how each number was spelled: `55.0` and `55` parse
 * to the same number, but a typed client (Go, C#, Unity's JsonUtility) reading an integer field
 * fails on the first. The spelling of a number that JSON.stringify would write otherwise is kept
 * beside its container (`spelling(container, key)`). Iterative, so hostile nesting never
 * recurses; the caller has already checked the text with JSON.parse.
 */
export interface Spelled {
  value: unknown;
  /** How the number at `key` of `container` was written, when not as String(number). */
  spelling(container: object, key: string | number): string | undefined;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITE = /[ \t\n\r]*/y;

interface Frame {
  container: Record<string, unknown> | unknown[];
  key: string | undefined;
}

function put(container: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  // As JSON.parse: a member named __proto__ is an own property, not the prototype.
  if (Array.isArray(container)) container.push(value);
  else Object.defineProperty(container, key, { value, writable: true, enumerable: true, configurable: true });
}

/** Parses `text` (already known to be JSON); throws SyntaxError on anything else. */
export function parseSpelled(text: string): Spelled {
  const spellings = new WeakMap<object, Map<string | number, string>>();
  const stack: Frame[] = [];
  let root: unknown;
  let done = false;
  let i = 0;
  const skip = (): void => {
    WHITE.lastIndex = i;
    WHITE.exec(text);
    i = WHITE.lastIndex;
  };
  const fail = (): never => {
    throw new SyntaxError(`not JSON at ${i}`);
  };
  const readString = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail();
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const place = (value: unknown, raw?: string): void => {
    const top = stack.at(-1);
    if (!top) {
      if (done) fail();
      root = value;
      done = true;
      return;
    }
    const key = Array.isArray(top.container) ? top.container.length : top.key!;
    put(top.container, key, value);
    if (raw !== undefined && raw !== String(value)) {
      const map = spellings.get(top.container) ?? new Map<string | number, string>();
      map.set(key, raw);
      spellings.set(top.container, map);
    }
  };
  for (;;) {
    skip();
    if (i >= text.length) break;
    const top = stack.at(-1);
    const c = text[i]!;
    if (top && !Array.isArray(top.container) && top.key === undefined) {
      // A member's name, or the object's end.
      if (c === '}') {
        stack.pop();
        i++;
        continue;
      }
      if (c === ',') {
        i++;
        continue;
      }
      if (c !== '"') fail();
      top.key = readString();
      skip();
      if (text[i] !== ':') fail();
      i++;
      continue;
    }
    if (c === ',') {
      if (!top) fail();
      i++;
      continue;
    }
    if (c === ']' && top && Array.isArray(top.container)) {
      stack.pop();
      i++;
      continue;
    }
    if (c === '{' || c === '[') {
      const container: Record<string, unknown> | unknown[] = c === '{' ? {} : [];
      place(container);
      if (top && !Array.isArray(top.container)) top.key = undefined;
      stack.push({ container, key: undefined });
      i++;
      continue;
    }
    let value: unknown;
    let raw: string | undefined;
    if (c === '"') value = readString();
    else if (text.startsWith('true', i)) [value, i] = [true, i + 4];
    else if (text.startsWith('false', i)) [value, i] = [false, i + 5];
    else if (text.startsWith('null', i)) [value, i] = [null, i + 4];
    else {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text) ?? fail();
      raw = m[0];
      value = Number(raw);
      i = NUMBER.lastIndex;
    }
    place(value, raw);
    if (top && !Array.isArray(top.container)) top.key = undefined;
  }
  if (!done || stack.length > 0) fail();
  return {
    value: root,
    spelling: (container, key) => spellings.get(container)?.get(key),
  };
}
