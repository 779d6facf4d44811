/**
 * bin/udcli.js answers `udcli`, `--help`, `-h` and `--version` from dist/root-help.json,
 * rendered by commander at build time. commander stays the source of truth: the stored answer
 * must equal what commander prints live (UDCLI_LIVE_HELP=1 skips the stored text). Needs
 * `npm run build`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN } from './harness.js';
import { ROOT_HELP_PATH } from '../../src/package-paths.js';

const STORED = ROOT_HELP_PATH;
const VERSION = (
  JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { version: string }
).version;

function run(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, NO_COLOR: '1', ...env },
    encoding: 'utf8',
  });
}

describe('the stored root help', () => {
  it.each([[[]], [['--help']], [['-h']], [['--version']]])(
    '%j: stored answer = commander live, exit 0, nothing on stderr',
    (args) => {
      const fast = run(args);
      const live = run(args, { UDCLI_LIVE_HELP: '1' });
      expect(live.status).toBe(0);
      expect(fast.status).toBe(0);
      expect(fast.stderr).toBe('');
      expect(fast.stdout).toBe(live.stdout);
    },
  );

  it('holds exactly the four answers, and they say what a user expects', () => {
    const answers = JSON.parse(readFileSync(STORED, 'utf8')) as Record<string, string>;
    expect(Object.keys(answers).sort()).toEqual(['', '--help', '--version', '-h']);
    expect(answers['--version']).toBe(`${VERSION}\n`);
    expect(answers['--help']).toMatch(/^Usage: udcli <command> \[options\]/);
    for (const command of ['user', 'achievements', 'products', 'saves', 'sandbox'])
      expect(answers['--help']).toContain(`  ${command} `);
  });

  it('the root help names every sandbox subcommand (issue 22)', () => {
    const subcommands = (run(['sandbox', '--help']).stdout.split('Commands:')[1] ?? '')
      .split('\n')
      .map((l) => /^ {2}([a-z]+)/.exec(l)?.[1])
      .filter((name): name is string => name !== undefined && name !== 'help');
    expect(subcommands.length).toBeGreaterThanOrEqual(15);
    const root = run(['--help']).stdout.replace(/\s+/g, ' ');
    const listed = /sandbox Run the local sandbox service \(([^)]*)\)/.exec(root)?.[1]?.split(', ') ?? [];
    expect(listed.sort()).toEqual(subcommands.sort());
  });

  it("a command's help is not the stored root help", () => {
    const r = run(['user', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: udcli user /);
  });
});
