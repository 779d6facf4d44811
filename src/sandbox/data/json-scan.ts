/**
 * One pass over JSON text that JSON.parse has accepted, for what JSON.parse does not tell: a key
 * given twice in one object (JSON.parse keeps the last without a word; YAML refuses it, and so
 * does a data file in JSON), and the line a path starts on (the yaml package finds lines too, but
 * slowly on a file of megabytes). Strings are skipped whole, so only real keys count.
 */
import type { DataPath } from './validate.js';

type Frame = { keys: Set<string>; key: string | undefined } | { index: number };

/**
 * Called as each object member or list item starts, with its depth, its line and its path (built
 * only when asked: on a deeply nested file, building each would cost depth squared); true stops.
 */
type Visit = (depth: number, line: number, path: () => DataPath) => boolean;

export interface DuplicateKey {
  path: DataPath;
  key: string;
  line: number;
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

function scan(text: string, visit: Visit): DuplicateKey | undefined {
  const stack: Frame[] = [];
  const pathOf = () => stack.map((f) => ('index' in f ? f.index : f.key!));
  let line = 1;
  let expectKey = false;
  let itemPending = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) line++;
    if (isSpace(c)) continue;
    const top = stack.at(-1);
    if (itemPending && c !== 0x5d /* ] */) {
      itemPending = false;
      if (visit(stack.length, line, pathOf)) return undefined;
    }
    if (c === 0x7b /* { */) {
      stack.push({ keys: new Set(), key: undefined });
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      stack.push({ index: 0 });
      expectKey = false;
      itemPending = true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      expectKey = false;
      itemPending = false;
    } else if (c === 0x2c /* , */) {
      if (top && 'index' in top) {
        top.index++;
        itemPending = true;
      } else expectKey = true;
    } else if (c === 0x22 /* " */) {
      let end = i + 1;
      while (text.charCodeAt(end) !== 0x22) end += text.charCodeAt(end) === 0x5c /* \ */ ? 2 : 1;
      if (expectKey) {
        const raw = text.slice(i, end + 1);
        const key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        const object = top as { keys: Set<string>; key: string | undefined };
        if (object.keys.has(key)) return { path: pathOf().slice(0, -1), key, line };
        object.keys.add(key);
        object.key = key;
        expectKey = false;
        if (visit(stack.length, line, pathOf)) return undefined;
      }
      i = end;
    }
  }
  return undefined;
}

export function firstDuplicateKey(text: string): DuplicateKey | undefined {
  return scan(text, () => false);
}

/** The line of the deepest part of `target` the text has (its first line when none). */
export function jsonLineOf(text: string, target: DataPath): number {
  let best = { depth: 0, line: 1 };
  scan(text, (depth, line, pathOf) => {
    if (depth <= best.depth || depth > target.length) return false;
    if (!pathOf().every((step, k) => step === target[k])) return false;
    best = { depth, line };
    return depth === target.length;
  });
  return best.line;
}
