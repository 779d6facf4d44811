/**
 * Shell completion: the committed scripts in completions/ are what `udcli completion` prints.
 * What Tab offers is udcli's answer to `__complete line -- WORDS`, from its command tree: the
 * cases (commands, verbs, options, their values, snapshot and profile names) are asked of `main`
 * in this process, a process per Tab costing too much CPU for the whole matrix. Each script then
 * really completes in its shell (bash: _udcli called with COMP_WORDS set; zsh: _udcli with
 * `words` set and zsh's completion builtins recording what they are given; fish: `complete -C`)
 * by asking the built udcli, a few cases each, and the built udcli loads only the command typed.
 * The hidden `__complete profiles` is quiet and fast, `__complete snapshots` lists the snapshots
 * `sandbox snapshot save` made. The verbs of a noun are read from the change registry, so a new
 * verb needs no edit here. Needs `npm run build`.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, Option } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { answer, type Answer } from '../../src/cli/completion/answer.js';
import {
  allCommands,
  loadProgram,
  treeOf,
  type CompletionTree,
  type OptionNode,
} from '../../src/cli/completion/tree.js';
import type { Factory } from '../../src/ops/factory.js';
import { ACHIEVEMENTS as ACHIEVEMENTS_NOUN } from '../../src/cli/commands/achievements/index.js';
import { SAVES as SAVES_NOUN } from '../../src/cli/commands/saves/index.js';
import { verbsOf } from '../cli/registry.js';
import { BIN, runInProcess } from '../e2e/harness.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPTS = { bash: 'completions/udcli.bash', zsh: 'completions/_udcli', fish: 'completions/udcli.fish' } as const;
const HOOK = fileURLToPath(new URL('../cli/fixtures/record-loads.mjs', import.meta.url));
/** udcli's per-module build, where each of its modules is a file the hook sees (bin/udcli.js loads one file). */
const MODULES_MAIN = fileURLToPath(new URL('../cli/fixtures/modules-main.mjs', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'udcli-completion-'));
const configDir = join(dir, 'config');
const dataDir = join(dir, 'data');
const binDir = join(dir, 'bin');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function installed(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
}

/** Register never touches the factory; actions are not run here. */
const factory = {} as Factory;

/** The verbs Tab offers under a noun: its own (read) verbs, its declared changes in help's order, then help. */
const ACHIEVEMENTS = [...(await verbsOf(ACHIEVEMENTS_NOUN)), 'help'];
const SAVES = [...(await verbsOf(SAVES_NOUN)), 'help'];

/** The candidates of an answer, without descriptions. */
/** The values of completion lines (VALUE<TAB>DESCRIPTION, as udcli and fish print them): what is offered. */
const offered = (stdout: string): string[] =>
  stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split('\t')[0]!);
const values = (a: Answer): string[] => (a.kind === 'files' ? [':files'] : a.candidates.map((c) => c.value));

/** What a shell completes in: `udcli` on PATH (the built one), the config and data directories of this file. */
const shellEnv = (): NodeJS.ProcessEnv => ({
  PATH: `${binDir}${delimiter}${process.env.PATH}`,
  HOME: dir,
  UDCLI_CONFIG_DIR: configDir,
  UDCLI_DATA_DIR: dataDir,
  NO_COLOR: '1',
});

/** A config with two profiles, and `udcli` on PATH, as installed: the scripts call it. */
beforeAll(() => {
  mkdirSync(configDir, { recursive: true });
  writeFileSync(
    join(configDir, 'config.json'),
    JSON.stringify({
      current_profile: 'staging',
      profiles: { staging: { base_url: 'https://staging.example.com' }, live: { production: true } },
    }),
  );
  // `udcli` on PATH, as installed: the script calls it for profile names.
  mkdirSync(binDir, { recursive: true });
  writeFileSync(join(binDir, 'udcli'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(binDir, 'udcli'), 0o755);
});

describe('the committed scripts', () => {
  it.each(Object.entries(SCRIPTS))('completions/ %s is what `udcli completion %s` prints', async (shell, file) => {
    const r = await runInProcess(['completion', shell], {});
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const committed = readFileSync(join(ROOT, file), 'utf8');
    // A plain toBe would print two 600-line scripts: say which file and how to fix it.
    expect(committed === r.stdout, `${file} is out of date: run npm run completions`).toBe(true);
  });

  it('bash script is valid (bash -n)', () => {
    const r = spawnSync('bash', ['-n', join(ROOT, SCRIPTS.bash)], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  // zsh and fish are installed by .ci/run; elsewhere these checks are skipped, saying why.
  const zsh = installed('zsh');
  it.skipIf(!zsh)(`zsh script is valid (zsh -n)${zsh ? '' : ': skipped, zsh is not installed'}`, () => {
    const r = spawnSync('zsh', ['-n', join(ROOT, SCRIPTS.zsh)], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  const fish = installed('fish');
  it.skipIf(!fish)(`fish script parses (fish --no-execute)${fish ? '' : ': skipped, fish is not installed'}`, () => {
    const r = spawnSync('fish', ['--no-execute', join(ROOT, SCRIPTS.fish)], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});

describe('the tree', () => {
  let tree: CompletionTree;
  beforeAll(async () => {
    tree = treeOf(await loadProgram(COMMANDS, factory));
  });

  const find = (path: string): ReturnType<typeof allCommands>[number] => {
    const node = allCommands(tree).find((n) => n.path.join(' ') === path);
    if (!node) throw new Error(`no command ${path}`);
    return node;
  };
  const option = (options: OptionNode[], flag: string): OptionNode | undefined =>
    options.find((o) => o.long === flag || o.short === flag);

  it('every value hint matches an option or argument', () => {
    expect(tree.unusedHints).toEqual([]);
  });

  it('holds every command of the table, commands, options and their values', () => {
    const visible = COMMANDS.filter((c) => !c.hidden).map((c) => c.name);
    expect(tree.root.subcommands.map((c) => c.name)).toEqual([...visible, 'help']);
    expect(find('udcli achievements').subcommands.map((c) => c.name)).toEqual(ACHIEVEMENTS);
    expect(option(tree.globalOptions, '-o')?.values).toEqual({
      kind: 'choices',
      values: ['table', 'json', 'ndjson', 'csv'],
    });
    expect(option(tree.globalOptions, '--profile')?.values).toEqual({ kind: 'profiles' });
    expect(option(tree.globalOptions, '--help')).toBeDefined();
    const list = find('udcli achievements list').options;
    expect(option(list, '--sort')?.values).toEqual({ kind: 'choices', values: ['asc', 'desc'] });
    expect(option(list, '--order')?.values).toMatchObject({
      kind: 'choices',
      values: expect.arrayContaining(['completed_date', 'name']),
    });
    expect(option(list, '--type')?.values).toEqual({ kind: 'choices', values: ['Game', 'Website'] });
    expect(option(find('udcli profile add').options, '--signing-scheme')?.values).toEqual({
      kind: 'choices',
      values: ['agi', 'hmac-sha256-v1', 'none'],
    });
    expect(find('udcli completion').arguments[0]?.values).toEqual({ kind: 'choices', values: ['bash', 'zsh', 'fish'] });
    expect(find('udcli profile remove').aliases).toEqual(['rm']);
    expect(find('udcli profile use').arguments[0]?.values).toEqual({ kind: 'profiles' });
  });

  it('leaves hidden commands out', () => {
    expect(allCommands(tree).some((n) => n.name.startsWith('__'))).toBe(false);
  });

  it("takes values from commander's .choices() on options and arguments", () => {
    const program = new Command('udcli');
    program.addOption(new Option('--color-mode <mode>').choices(['auto', 'never']));
    const sub = program.command('paint').argument('<what>');
    sub.addOption(new Option('--shade <s>').choices(['light', 'dark']));
    const t = treeOf(program, []);
    expect(option(t.globalOptions, '--color-mode')?.values).toEqual({ kind: 'choices', values: ['auto', 'never'] });
    expect(option(t.root.subcommands[0]!.options, '--shade')?.values).toEqual({
      kind: 'choices',
      values: ['light', 'dark'],
    });
    expect(values(answer(t, ['paint', 'x', '--shade'], 'd', () => []))).toEqual(['dark']);
  });
});

/**
 * What Tab offers for WORDS (`udcli __complete line -- WORDS`, the words after `udcli`, the last
 * the one being completed), asked of `main` in this process: the answer every script shows. The
 * scripts' own part, handing the words over and showing the answer, is checked in each real
 * shell below.
 */
async function complete(...words: string[]): Promise<string[]> {
  const r = await runInProcess(['__complete', 'line', '--', ...words], {
    UDCLI_CONFIG_DIR: configDir,
    UDCLI_DATA_DIR: dataDir,
  });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return offered(r.stdout);
}

describe('`udcli __complete line` offers', () => {
  it('command names', async () => {
    expect(await complete('ach')).toEqual(['achievements']);
    expect(await complete('pro')).toEqual(['products', 'profile']);
    expect(await complete('')).toContain('completion');
    expect(await complete('')).not.toContain('__complete');
    expect(await complete('help', 'pro')).toEqual(['products', 'profile']);
    expect(await complete('sa')).toEqual(['saves', 'sandbox']);
    expect(await complete('nosuch', '')).toEqual([]);
  });

  it('subcommands, also after global options and their values', async () => {
    expect(await complete('achievements', '')).toEqual(ACHIEVEMENTS);
    expect(await complete('--output', 'json', '-q', 'achievements', 'l')).toEqual(['list']);
    expect(await complete('achievements', 'help', 'de')).toEqual(['defs', 'delete']);
    expect(await complete('saves', '')).toEqual(SAVES);
    expect(await complete('saves', 'set', 'uid', 'key', '--au')).toEqual(['--auth-token']);
  });

  it('option names: own and global', async () => {
    const opts = await complete('achievements', 'list', '--');
    expect(opts).toEqual(expect.arrayContaining(['--order', '--sort', '--type', '--profile', '--output', '--help']));
    expect(await complete('achievements', 'list', '--so')).toEqual(['--sort']);
    expect(await complete('sandbox', 'snapshot', 'restore', '--')).toEqual(
      expect.arrayContaining(['--db', '--profile']),
    );
  });

  it('option values', async () => {
    expect(await complete('-o', '')).toEqual(['table', 'json', 'ndjson', 'csv']);
    expect(await complete('friends', 'x', '--output', 'n')).toEqual(['ndjson']);
    // bash splits --output=c at `=` into three words; zsh and fish hand it over as one
    expect(await complete('--output', '=', 'c')).toEqual(['csv']);
    expect(await complete('--output=n')).toEqual(['--output=ndjson']);
    expect(await complete('--output=c')).toEqual(['--output=csv']);
    expect(await complete('achievements', 'list', 'uid', '--sort', '')).toEqual(['asc', 'desc']);
    expect(await complete('achievements', 'list', '--order', 'c')).toEqual(['completed_date']);
    expect(await complete('products', 'give', '--type', '')).toEqual(['Game', 'Website']);
    expect(await complete('profile', 'add', 'x', '--signing-scheme', '')).toEqual(['agi', 'hmac-sha256-v1', 'none']);
    expect(await complete('sandbox', 'start', '--seed', '')).toEqual(['demo', 'none']);
    expect(await complete('sandbox', 'seed', '--seed', '')).toEqual([]); // a number there
  });

  it('argument values, and files after --', async () => {
    expect(await complete('completion', '')).toEqual(['bash', 'zsh', 'fish']);
    expect(await complete('api', 'g')).toEqual([]); // methods are upper case
    expect(await complete('api', 'P')).toEqual(['POST', 'PUT']);
    expect(await complete('config', 'set', 'game')).toEqual(['game_id']);
    expect(await complete('config', 'set', 'game_id', '')).toEqual([]);
    expect(await complete('sandbox', 'exec', '--', '')).toEqual([':files']);
  });

  it('snapshot names for snapshot restore and delete, and exec --snapshot (issue 33)', async () => {
    expect(await complete('sandbox', 'snapshot', 'restore', '')).toEqual([]); // none saved yet
    // Saved as a user saves them, in-process (the names are what is under test, not the save).
    const { main } = await import('../../src/cli/main.js');
    const { fakeIO } = await import('../output/fake-io.js');
    for (const args of [
      ['sandbox', 'reset'],
      ['sandbox', 'snapshot', 'save', 'before-test'],
      ['sandbox', 'snapshot', 'save', 'clean'],
    ]) {
      const f = fakeIO({ env: { UDCLI_CONFIG_DIR: configDir, UDCLI_DATA_DIR: dataDir } });
      expect(await main(args, f.io), f.stderr()).toBe(0);
    }
    expect(await complete('sandbox', 'snapshot', 'restore', '')).toEqual(['before-test', 'clean']);
    expect(await complete('sandbox', 'snapshot', 'delete', 'b')).toEqual(['before-test']);
    expect(await complete('sandbox', 'exec', '--snapshot', 'c')).toEqual(['clean']);
    expect(await complete('sandbox', 'snapshot', 'save', '')).toEqual([]); // a new name there
  });

  it('profile names from the config file', async () => {
    expect(await complete('--profile', '')).toEqual(['sandbox', 'live', 'staging']);
    expect(await complete('profile', 'use', 's')).toEqual(['sandbox', 'staging']);
    expect(await complete('profile', 'rm', 'l')).toEqual(['live']); // by alias
    expect(await complete('audit', '--profile', 'l')).toEqual(['live']);
    expect(await complete('profile', 'show', 'live', '')).toEqual([]);
  });
});

/*
 * The real shells: each Tab below runs the built udcli (a process, ~0.2 s of CPU), so each shell
 * checks only its script's part, once each: it hands udcli the words typed and the word being
 * completed, and offers the answer (command names, a command's verbs, an option's values,
 * profile names from the config file). What udcli answers is checked above.
 */
describe('bash completes', () => {
  const script = join(ROOT, SCRIPTS.bash);

  /** Sources the script and calls _udcli for the words; the last word is the one being completed. */
  function complete(...words: string[]): string[] {
    const r = spawnSync(
      'bash',
      [
        '--norc',
        '--noprofile',
        '-c',
        'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _udcli; printf "%s\\n" "${COMPREPLY[@]}"',
        'bash',
        script,
        ...words,
      ],
      {
        encoding: 'utf8',
        env: shellEnv(),
      },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    return r.stdout.split('\n').filter((l) => l !== '');
  }

  it('commands, verbs, option values and profile names, by asking udcli', () => {
    expect(complete('udcli', 'pro')).toEqual(['products', 'profile']);
    expect(complete('udcli', 'achievements', '')).toEqual(ACHIEVEMENTS);
    expect(complete('udcli', '-o', '')).toEqual(['table', 'json', 'ndjson', 'csv']);
    expect(complete('udcli', 'profile', 'use', 's')).toEqual(['sandbox', 'staging']);
  });
});

const zshInstalled = installed('zsh');
describe.skipIf(!zshInstalled)(`zsh completes${zshInstalled ? '' : ': skipped, zsh is not installed'}`, () => {
  /**
   * Sources the script in zsh and calls _udcli with `words` and CURRENT set, as zsh's completion
   * system would; _describe and _files (zsh's own, which need a live completion widget) print
   * what they are handed instead: the names offered, or `<files>`.
   */
  function complete(...words: string[]): string[] {
    const r = spawnSync(
      'zsh',
      [
        '-f',
        '-c',
        [
          'compdef() { :; }',
          '_files() { print -r -- "<files>"; }',
          '_describe() { local -a items=("${(@P)4}"); print -rl -- "${items[@]}"; }',
          'source "$1"; shift',
          'words=("$@"); CURRENT=$#',
          '_udcli',
        ].join('\n'),
        'zsh',
        join(ROOT, SCRIPTS.zsh),
        ...words,
      ],
      {
        encoding: 'utf8',
        env: shellEnv(),
      },
    );
    expect(r.stderr).toBe('');
    // _udcli's last test fails when nothing is offered
    expect([0, 1]).toContain(r.status);
    // NAME:DESCRIPTION, the colons in NAME escaped
    return r.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.replace(/(?<!\\):.*$/, '').replaceAll('\\:', ':'));
  }

  it('commands, verbs, option values and profile names, by asking udcli; files; nothing', () => {
    expect(complete('udcli', 'ach')).toEqual(['achievements']);
    expect(complete('udcli', 'achievements', '')).toEqual(ACHIEVEMENTS);
    expect(complete('udcli', 'products', 'give', '--type', '')).toEqual(['Game', 'Website']);
    expect(complete('udcli', 'profile', 'use', 's')).toEqual(['sandbox', 'staging']);
    // the script's own branches: udcli's `:files` becomes zsh's file completion, no answer offers nothing
    expect(complete('udcli', 'sandbox', 'exec', '--', '')).toEqual(['<files>']);
    expect(complete('udcli', 'nosuch', '')).toEqual([]);
  });
});

describe('udcli __complete', () => {
  const env = () => ({ UDCLI_CONFIG_DIR: configDir });

  it('prints the profile names, the built-in one first', async () => {
    const r = await runInProcess(['__complete', 'profiles'], env());
    expect(r).toEqual({ code: 0, stdout: 'sandbox\nlive\nstaging\n', stderr: '' });
  });

  it('is quiet with a broken config file or an unknown kind', async () => {
    const broken = join(dir, 'broken');
    mkdirSync(broken, { recursive: true });
    writeFileSync(join(broken, 'config.json'), '{ not json');
    expect(await runInProcess(['__complete', 'profiles'], { UDCLI_CONFIG_DIR: broken })).toEqual({
      code: 0,
      stdout: 'sandbox\n',
      stderr: '',
    });
    expect(await runInProcess(['__complete', 'nothing', 'more'], env())).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('is hidden from help', async () => {
    const r = await runInProcess(['--help'], env());
    expect(r.stdout).toContain('completion');
    expect(r.stdout).not.toContain('__complete');
  });

  it('loads only the command typed, none of the sandbox or what a change runs; `completion` loads none', () => {
    const loads = (args: string[]): string[] => {
      const log = join(dir, `${args.join('-').replaceAll('/', '_')}.log`);
      const r = spawnSync(process.execPath, ['--import', HOOK, MODULES_MAIN, ...args], {
        env: { PATH: process.env.PATH, UDCLI_TEST_LOAD_LOG: log, UDCLI_CONFIG_DIR: configDir, NO_COLOR: '1' },
        encoding: 'utf8',
      });
      expect(r.status).toBe(0);
      return readFileSync(log, 'utf8').trim().split('\n');
    };
    const modules = (urls: string[]) => [
      ...new Set(urls.map((u) => /\/dist\/cli\/commands\/([^/]+)\//.exec(u)?.[1]).filter(Boolean)),
    ];
    const packages = (urls: string[]) => [
      ...new Set(urls.map((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1]).filter(Boolean)),
    ];
    /**
     * The server (dist/sandbox/) and what a change runs (dist/batch/, dist/audit/), but for what every run of these
     * loads: the sandbox's data directory and snapshot names (`__complete snapshots`), a change's batch options.
     */
    const LIGHT = [
      'sandbox/paths.js',
      'sandbox/snapshot-names.js',
      'batch/flags.js',
      'batch/input.js',
      'batch/rate.js',
    ];
    const heavy = (urls: string[]) =>
      urls.filter((u) => /\/dist\/(sandbox|batch|audit)\//.test(u) && !LIGHT.some((l) => u.endsWith(`/dist/${l}`)));

    for (const kind of ['profiles', 'snapshots']) {
      const fast = loads(['__complete', kind]);
      expect(modules(fast)).toEqual(['completion']);
      expect(fast.filter((u) => u.includes('/dist/cli/commands/completion/')).map((u) => u.split('/').at(-1))).toEqual([
        'complete.js',
      ]);
      expect(packages(fast)).toEqual(['commander']);
    }

    /** The commands whose module (the one that registers them) was loaded. */
    const registered = (urls: string[]) =>
      urls.map((u) => /\/dist\/cli\/commands\/([^/]+)\/index\.js$/.exec(u)?.[1]).filter(Boolean);
    const top = loads(['__complete', 'line', '--', 'ach']);
    expect(registered(top)).toEqual([]);
    expect(heavy(top)).toEqual([]);
    for (const noun of ['achievements', 'sandbox']) {
      const words = loads(['__complete', 'line', '--', noun, '']);
      expect(registered(words)).toEqual([noun]);
      expect(heavy(words)).toEqual([]);
      expect(packages(words)).toEqual(['commander']);
    }

    expect(modules(loads(['completion', 'bash']))).toEqual(['completion']);
  });
});

const fishInstalled = installed('fish');
describe.skipIf(!fishInstalled)(`fish completes${fishInstalled ? '' : ': skipped, fish is not installed'}`, () => {
  const fishDir = mkdtempSync(join(tmpdir(), 'udcli-fish-'));
  const fishConfig = join(fishDir, 'config');
  const fishBin = join(fishDir, 'bin');
  beforeAll(() => {
    mkdirSync(fishConfig, { recursive: true });
    writeFileSync(
      join(fishConfig, 'config.json'),
      JSON.stringify({ profiles: { staging: { base_url: 'https://staging.example.com' } } }),
    );
    mkdirSync(fishBin, { recursive: true });
    writeFileSync(join(fishBin, 'udcli'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(fishBin, 'udcli'), 0o755);
  });
  afterAll(() => rmSync(fishDir, { recursive: true, force: true }));

  /** What fish offers for a command line (`complete -C`), candidates only. */
  function complete(line: string): string[] {
    const r = spawnSync(
      'fish',
      ['--no-config', '-c', 'source $argv[1]; complete -C $argv[2]', join(ROOT, SCRIPTS.fish), line],
      {
        encoding: 'utf8',
        env: {
          PATH: `${fishBin}${delimiter}${process.env.PATH}`,
          HOME: fishDir,
          UDCLI_CONFIG_DIR: fishConfig,
          NO_COLOR: '1',
        },
      },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    return offered(r.stdout);
  }

  it('commands, verbs, option values and profile names, by asking udcli', () => {
    expect(complete('udcli ach')).toEqual(['achievements']);
    expect(complete('udcli achievements ')).toEqual(expect.arrayContaining(ACHIEVEMENTS.slice(0, -1)));
    expect(complete('udcli -o ').sort()).toEqual(['csv', 'json', 'ndjson', 'table']);
    // fish filters what it is offered by the word typed itself: only this shows that word reaches udcli
    expect(complete('udcli --output=c')).toEqual(['--output=csv']);
    expect(complete('udcli --profile ').sort()).toEqual(['sandbox', 'staging']);
  });
});
