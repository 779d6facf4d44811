/**
 * Help fits the terminal without a word broken: every group's and command's --help, through
 * `main` on a terminal 60, 80, 100 and 120 columns wide. No line is wider than the terminal, no
 * paragraph is broken short of it (a line whose next word would have fitted), and the words are
 * the same at every width: a word a wrap broke (`defi` / `nitions`) would differ between two.
 */
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { allCommands, loadTree } from '../../src/cli/completion/tree.js';
import { main } from '../../src/cli/main.js';
import type { Factory } from '../../src/ops/factory.js';
import { fakeIO } from '../output/fake-io.js';
import { fileScratch } from '../scratch.js';

const tree = await loadTree(COMMANDS, {} as Factory);
const paths = [
  '',
  ...allCommands(tree)
    .map((node) => node.path.slice(1).join(' '))
    .filter((path) => path !== '' && path !== 'help' && !path.endsWith(' help')),
];
const configDir = fileScratch('udcli-help-width-');

async function helpAt(path: string, columns: number): Promise<string> {
  const f = fakeIO({ tty: true, env: { UDCLI_CONFIG_DIR: configDir, NO_COLOR: '1' } });
  Object.assign(f.io.stdout, { columns });
  const code = await main([...(path === '' ? [] : path.split(' ')), '--help'], f.io);
  expect(code, `${path} --help`).toBe(0);
  return f.stdout();
}

const indentOf = (line: string) => /^ */.exec(line)![0].length;
/** Where a line's text runs: after an item's term and its gap, else at its indent. */
function textColumn(line: string): number {
  const gaps = [...line.slice(indentOf(line)).matchAll(/\S( {2,})(?=\S)/g)];
  const last = gaps.at(-1);
  return last === undefined ? indentOf(line) : indentOf(line) + last.index + 1 + last[1]!.length;
}
/**
 * `next` carries on `line`'s paragraph: it starts where `line`'s text runs and is no item or
 * heading of its own (a line that ends in a colon introduces what follows).
 */
function continues(line: string, next: string): boolean {
  if (line.trim() === '' || next.trim() === '' || /:$/.test(line) || line.startsWith('Usage:')) return false;
  if (/\S {2,}\S/.test(next.trim()) || next.trim().startsWith('$ ')) return false;
  return indentOf(next) === textColumn(line);
}

const words = (text: string) => text.split(/\s+/).filter((w) => w !== '');

describe('help at the terminal width', () => {
  it('walks every group and command', () => {
    expect(paths.length).toBeGreaterThan(40);
    expect(paths).toEqual(expect.arrayContaining(['achievements', 'sandbox', 'sandbox start', 'achievements defs']));
  });

  it('at 60, 80 and 120 columns: no line wider than the terminal, the same words at every width', async () => {
    const tooWide: string[] = [];
    const broken: string[] = [];
    for (const path of paths) {
      const texts = new Map<number, string>();
      for (const columns of [60, 80, 120]) {
        const text = await helpAt(path, columns);
        texts.set(columns, text);
        for (const line of text.split('\n'))
          if (line.length > columns) tooWide.push(`${columns}: udcli ${path} --help: ${line}`);
      }
      const [a, b, c] = [60, 80, 120].map((w) => words(texts.get(w)!).join(' '));
      if (a !== b || b !== c) broken.push(`udcli ${path} --help`);
    }
    expect(tooWide).toEqual([]);
    expect(broken).toEqual([]);
  }, 120_000);

  it('at 100 and 80 columns: no line wider than the terminal, and no paragraph broken short (issue 54)', async () => {
    const tooWide: string[] = [];
    const short: string[] = [];
    for (const path of paths) {
      for (const columns of [100, 80]) {
        const lines = (await helpAt(path, columns)).split('\n');
        lines.forEach((line, i) => {
          if (line.length > columns) tooWide.push(`${columns}: udcli ${path} --help: ${line}`);
          const next = lines[i + 1];
          if (next === undefined || !continues(line, next)) return;
          const word = next.trim().split(/\s+/)[0]!;
          if (line.length + 1 + word.length <= columns)
            short.push(`${columns}: udcli ${path} --help:\n${line}\n${next}`);
        });
      }
    }
    expect(tooWide).toEqual([]);
    expect(short).toEqual([]);
  }, 120_000);

  it('the line the issue saw: `achievements --help` at 80 columns keeps "definitions" whole, its description beside its command', async () => {
    const text = await helpAt('achievements', 80);
    expect(text).toMatch(/^ {2}defs \[options\] \[game_id\] +List a game's achievement definitions$/m);
    expect(text).toContain('definitions');
    expect(text).not.toMatch(/defi\n/);
  });
});
