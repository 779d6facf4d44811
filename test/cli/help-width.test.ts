/**
 * Help fits the terminal without a word broken: every group's and command's --help, through
 * `main` on a terminal 60, 80 and 120 columns wide. No line is wider than the terminal (or than
 * 80, the widest help is laid out), and the words are the same at every width: a word a wrap
 * broke (`defi` / `nitions`) would differ between two widths.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { allCommands, loadTree } from '../../src/cli/completion/tree.js';
import { main } from '../../src/cli/main.js';
import type { Factory } from '../../src/ops/factory.js';
import { fakeIO } from '../output/fake-io.js';

const tree = await loadTree(COMMANDS, {} as Factory);
const paths = [
  '',
  ...allCommands(tree)
    .map((node) => node.path.slice(1).join(' '))
    .filter((path) => path !== '' && path !== 'help' && !path.endsWith(' help')),
];
const configDir = mkdtempSync(join(tmpdir(), 'udcli-help-width-'));
afterAll(() => rmSync(configDir, { recursive: true, force: true }));

async function helpAt(path: string, columns: number): Promise<string> {
  const f = fakeIO({ tty: true, env: { UDCLI_CONFIG_DIR: configDir, NO_COLOR: '1' } });
  Object.assign(f.io.stdout, { columns });
  const code = await main([...(path === '' ? [] : path.split(' ')), '--help'], f.io);
  expect(code, `${path} --help`).toBe(0);
  return f.stdout();
}

const words = (text: string) => text.split(/\s+/).filter((w) => w !== '');

describe('help at the terminal width', () => {
  it('walks every group and command', () => {
    expect(paths.length).toBeGreaterThan(40);
    expect(paths).toEqual(expect.arrayContaining(['achievements', 'sandbox', 'sandbox start', 'achievements defs']));
  });

  it('at 60, 80 and 120 columns: no line wider than the terminal (80 at most), the same words at every width', async () => {
    const tooWide: string[] = [];
    const broken: string[] = [];
    for (const path of paths) {
      const texts = new Map<number, string>();
      for (const columns of [60, 80, 120]) {
        const text = await helpAt(path, columns);
        texts.set(columns, text);
        for (const line of text.split('\n'))
          if (line.length > Math.min(columns, 80)) tooWide.push(`${columns}: udcli ${path} --help: ${line}`);
      }
      const [a, b, c] = [60, 80, 120].map((w) => words(texts.get(w)!).join(' '));
      if (a !== b || b !== c) broken.push(`udcli ${path} --help`);
    }
    expect(tooWide).toEqual([]);
    expect(broken).toEqual([]);
  }, 120_000);

  it('the line the issue saw: `achievements --help` at 80 columns keeps "definitions" whole, its description beside its command', async () => {
    const text = await helpAt('achievements', 80);
    expect(text).toMatch(/^ {2}defs \[options\] \[game_id\] +List a game's achievement definitions$/m);
    expect(text).toContain('definitions');
    expect(text).not.toMatch(/defi\n/);
  });
});
