/**
 * Two rules of docs/ARCHITECTURE.md that no linter here checks (issue 55): no import circle among src/'s modules
 * (a module that needs another's values, at load or later through `import()`, is never needed back by it), and no
 * file in src/ over 400 lines without a one-line reason at its top. The one kind of lazy edge left out of the circle
 * check is the command registry's (`load` in src/cli/commands.ts): it is how a command is found, and a command that
 * reads the program's own tree (completion, help) necessarily leads back to it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const REGISTRY = join(SRC, 'cli', 'commands.ts');
const LIMIT = 400;
/** The reason line a long file carries in its first lines. */
const REASON = /over 400 lines:/i;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const STATIC = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"](\.[^'"]+)['"]/g;
const DYNAMIC = /import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** The modules a file needs at run time: its imports and re-exports of values, and its `import()`s. */
export function runtimeImports(file: string, text: string): string[] {
  const target = (spec: string) => resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
  const found: string[] = [];
  for (const m of text.matchAll(STATIC)) {
    const names = m[2]!.trim();
    const typeNames = /^\{([^}]*)\}$/
      .exec(names)?.[1]
      ?.split(',')
      .map((n) => n.trim())
      .filter(Boolean);
    const typeOnly =
      m[1] !== undefined ||
      (typeNames !== undefined && typeNames.length > 0 && typeNames.every((n) => n.startsWith('type ')));
    if (!typeOnly) found.push(target(m[3]!));
  }
  // The registry's lazy `load` entries are how a command is found (above).
  if (file !== REGISTRY) for (const m of text.matchAll(DYNAMIC)) found.push(target(m[1]!));
  return found;
}

/** The circles of a graph (its strongly connected parts of more than one module), by Tarjan's algorithm. */
export function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const part: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1) found.push(part.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("src/'s structure", () => {
  const files = sources(SRC);
  const texts = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));

  it('has no import circle among its modules', () => {
    const graph = new Map(files.map((f) => [f, runtimeImports(f, texts.get(f)!)]));
    expect(circles(graph).map((part) => part.map((f) => relative(SRC, f)))).toEqual([]);
  });

  it('finds a circle when there is one, a lazy one included, and not through types', () => {
    const a = join(SRC, 'a.ts');
    const b = join(SRC, 'b.ts');
    const c = join(SRC, 'c.ts');
    const graph = new Map([
      [a, runtimeImports(a, "import { x } from './b.js';\n")],
      [b, runtimeImports(b, "export const y = () => import('./a.js');\nimport type { Z } from './c.js';\n")],
      [c, runtimeImports(c, "import { type W } from './b.js';\n")],
    ]);
    expect(circles(graph)).toEqual([[a, b].sort()]);
  });

  it(`has no file over ${LIMIT} lines without a one-line reason at its top ("Over 400 lines: …")`, () => {
    const lines = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    const long = files.filter((f) => lines(texts.get(f)!) > LIMIT);
    const unexplained = long.filter((f) => !REASON.test(texts.get(f)!.split('\n').slice(0, 12).join('\n')));
    expect(unexplained.map((f) => relative(SRC, f))).toEqual([]);
  });
});
