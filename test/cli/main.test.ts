import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadChanges, registerForTest } from '../../src/cli/change-registry.js';
import { COMMANDS, type CommandEntry } from '../../src/cli/commands.js';
import { main, runCommandLine } from '../../src/cli/main.js';
import { UsageError } from '../../src/errors.js';
import { fakeIO } from '../output/fake-io.js';

let dir: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'udcli-main-'));
  // A data dir of its own: the sandbox profile follows a sandbox running from the default one (another session's).
  env = { UDCLI_CONFIG_DIR: dir, UDCLI_DATA_DIR: join(dir, 'data') };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[], options: { tty?: boolean; stdin?: string; commands?: CommandEntry[] } = {}) {
  const f = fakeIO({
    env,
    tty: options.tty ?? false,
    ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
  });
  const code = options.commands ? await runCommandLine(argv, f.io, options.commands) : await main(argv, f.io);
  return { code, stdout: f.stdout(), stderr: f.stderr() };
}

describe('help and version', () => {
  it('--version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(await run(['--version'])).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('--help lists every command of the table with an example', async () => {
    for (const argv of [['--help'], ['help'], []]) {
      const r = await run(argv);
      expect(r.code).toBe(0);
      for (const c of COMMANDS.filter((c) => !c.hidden)) {
        const verbs = (await loadChanges(c.name)).map((d) => d.command.split(' ')[1]!);
        const summary = typeof c.summary === 'string' ? c.summary : c.summary(verbs);
        expect(r.stdout).toMatch(new RegExp(`^  ${c.name}\\s+${summary.slice(0, 20).replace(/[()]/g, '.')}`, 'm'));
      }
      // hidden rows (`__complete`, called by the completion scripts) stay out of help
      for (const c of COMMANDS.filter((c) => c.hidden)) expect(r.stdout).not.toContain(c.name);
      expect(r.stdout).toContain('Examples:\n  $ udcli');
      expect(r.stderr).toBe('');
    }
  });

  it("--help's line of a noun names its mutating verbs from the change registry: a new verb is listed", async () => {
    expect((await run(['--help'])).stdout).toMatch(/^ {2}products\s+List, give and take the products a user holds$/m);
    const drop = registerForTest({ ...(await loadChanges('products'))[0]!, command: 'products lend', order: 3 });
    try {
      expect((await run(['--help'])).stdout).toMatch(
        /^ {2}products\s+List, give, take and lend the products a user holds$/m,
      );
    } finally {
      drop();
    }
  });

  it('help <command> and <command> --help show that command with its example', async () => {
    const a = await run(['help', 'profile']);
    const b = await run(['profile', '--help']);
    expect(a.code).toBe(0);
    expect(b).toEqual(a);
    expect(a.stdout).toContain('Usage: udcli profile');
    expect(a.stdout).toContain('$ udcli profile use live');
    expect(a.stdout).toContain('Global Options:');
  });

  it('subcommand help: commands first, global options last, none listed twice (issue 15)', async () => {
    const noun = (await run(['achievements', '--help'])).stdout;
    expect(noun.indexOf('Commands:')).toBeGreaterThan(0);
    expect(noun.indexOf('Global Options:')).toBeGreaterThan(noun.indexOf('Commands:'));
    expect(noun.indexOf('Examples:') < 0 || noun.indexOf('Examples:') > noun.indexOf('Global Options:')).toBe(true);
    const options = (text: string, flag: string) =>
      text.split('\n').filter((l) => new RegExp(`^\\s+(-\\w, )?${flag} `).test(l)).length;
    const add = (await run(['profile', 'add', '--help'])).stdout;
    expect(options(add, '--base-url')).toBe(1);
    expect(options(add, '--api-key')).toBe(1);
    const audit = (await run(['audit', '--help'])).stdout;
    expect(options(audit, '--profile')).toBe(1);
    expect(audit).toMatch(/--profile <name>\s+only changes made under this profile/);
  });

  it('a noun without its verb is a usage error showing its help on stderr', async () => {
    const r = await run(['profile']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Usage: udcli profile');
  });
});

describe('usage errors: exit 2 and one line', () => {
  it.each([
    [['usr'], "udcli: unknown command 'usr' (did you mean user?)\n"],
    [['help', 'usr'], "udcli: unknown command 'usr' (did you mean user?)\n"],
    [['--bogus', 'profile', 'list'], "udcli: unknown option '--bogus'\n"],
    [['profile', 'list', '--jsn'], "udcli: unknown option '--jsn' (did you mean --json?)\n"],
    // A global typed beside it, and the one suggested is not: all of them are still candidates.
    [['profile', 'list', '--json', '--retrie', '3'], "udcli: unknown option '--retrie' (did you mean --retries?)\n"],
    [['profile', 'use'], "udcli: missing required argument 'name'\n"],
    [['profile', 'use', 'a', 'b'], "udcli: too many arguments for 'use'. Expected 1 argument but got 2.\n"],
    [['profile', 'list', '-o', 'yaml'], 'udcli: invalid --output "yaml": expected one of table, json, ndjson, csv\n'],
    [['--timeout', 'soon', 'profile', 'list'], 'udcli: invalid --timeout "soon": expected an integer ≥ 1\n'],
    [['profile', 'list', '--json', '--timeout=soon'], 'udcli: invalid --timeout "soon": expected an integer ≥ 1\n'],
    [['profile', 'list', '--json', '-o', 'csv'], 'udcli: --json conflicts with --output csv\n'],
  ])('%j', async (argv, stderr) => {
    expect(await run(argv)).toEqual({ code: 2, stdout: '', stderr });
  });

  it('a bad --api-key is refused before the command runs, without echoing the key', async () => {
    const key = '0123456789abcdef0123456789abcdeZ';
    const r = await run(['config', 'path', '--api-key', key]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^udcli: invalid --api-key .*: expected 32 hex digits or a UUID\n$/);
    expect(r.stderr).not.toContain(key);
  });

  it('prints the hint of a usage error on the next line', async () => {
    const r = await run(['profile', 'use', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'udcli: unknown profile "nope"; profiles: sandbox\ncreate one with: udcli profile add <name> --base-url URL --api-key KEY\n',
    );
  });
});

describe('global options anywhere on the line', () => {
  it('before the command, after it, and after a subcommand option', async () => {
    expect(
      (await run(['-q', 'profile', 'add', 'a', '--game-id', '1', '--base-url', 'https://a.example.com'])).stderr,
    ).toBe('');
    expect(
      (await run(['profile', 'add', 'b', '--base-url', 'https://b.example.com', '--game-id', '2', '--quiet'])).stderr,
    ).toBe('');
    const before = await run(['-o', 'csv', '--fields', 'name,base_url,game_id', 'profile', 'list']);
    const after = await run(['profile', 'list', '--fields', 'name,base_url,game_id', '-o', 'csv']);
    expect(before).toEqual(after);
    expect(before.stdout).toBe(
      'name,base_url,game_id\nsandbox,http://127.0.0.1:8787,1001\na,https://a.example.com,1\nb,https://b.example.com,2\n',
    );
  });

  it('--json after the command', async () => {
    const r = await run(['profile', 'list', '--json'], { tty: true });
    expect(JSON.parse(r.stdout)).toHaveLength(1);
  });
});

describe('errors from commands', () => {
  const failing = (error: unknown): CommandEntry[] => [
    {
      name: 'boom',
      summary: 'fails',
      load: async () => ({
        register: (program) => {
          program.command('boom').action(() => {
            throw error;
          });
        },
      }),
    },
  ];

  it('an unexpected error is an internal error, with the stack only under --verbose', async () => {
    const quiet = await run(['boom'], { commands: failing(new TypeError('x is not a function')) });
    expect(quiet).toEqual({ code: 1, stdout: '', stderr: 'udcli: internal error: x is not a function\n' });
    const verbose = await run(['boom', '-v'], { commands: failing(new TypeError('x is not a function')) });
    expect(verbose.code).toBe(1);
    expect(verbose.stderr).toMatch(
      /^udcli: internal error: x is not a function\nTypeError: x is not a function\n\s+at /,
    );
  });

  it('a typed error maps to its code and never shows a stack without --verbose', async () => {
    const error = new UsageError('bad thing', { hint: 'try this' });
    expect(await run(['boom'], { commands: failing(error) })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'udcli: bad thing\ntry this\n',
    });
    expect(await run(['boom', '--verbose'], { commands: failing(error) })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'udcli: bad thing\ntry this\n',
    });
  });
});
