/**
 * The manuals, run: every `udcli` command in the shell blocks of README.md, CHANGELOG.md and every
 * page of docs/ is run as a reader would type it, in order, against a sandbox on a free port with a temporary
 * database, data directory and config (a fresh config for each block, as the blocks do not
 * build on each other's profiles). The commands run in-process through `main`; the sandbox is
 * the one the first command starts in the background, as the Quick start says (so the built
 * binary must exist: `npm run build`). Each command must exit 0 (or the `#  (exit N)` shown), and
 * print every line the doc shows under it (`#  TEXT`), in that order. Synopsis lines
 * (`[options]`, `<placeholders>`, `a | b`) are not run: each option they name must be in the
 * command's --help. What cannot run here is in SKIP, each with its reason, so a new command in
 * the docs runs unless someone decides otherwise here. A data file a doc shows (a ```yaml block
 * opening with the schema line) must load as shown. The conventions: test/docs/doc-blocks.ts.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { main } from '../../src/cli/main.js';
import type { IOStreams } from '../../src/ops/factory.js';
import { closedPort } from '../e2e/harness.js';
import { readDataFileBlocks, readDocBlocks, type DocBlock, type DocCommand, type DocSynopsis } from './doc-blocks.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Commands a test cannot run, as written in the docs, each with why. */
const SKIP = new Map<string, string>([
  [
    'udcli sandbox start --data qa.yaml',
    'a foreground sandbox runs until Ctrl-C; the next lines load the same file into the running one',
  ],
  ['udcli sandbox start --data qa.yaml --reset', 'a foreground sandbox runs until Ctrl-C'],
  [
    'udcli doctor',
    'in the profiles block it asks https://api.example.com, a platform a test cannot reach (the tour runs doctor against the sandbox)',
  ],
]);
/** Lines the profiles block runs once: `udcli doctor` is run in the tour, and skipped in that block only. */
const SKIP_IN_BLOCK_AFTER = new Map<string, string>([['udcli doctor', 'udcli profile use live']]);

/** What the docs' readers answer when a command asks on a terminal. */
const ANSWERS = new Map<string, string>([
  ['udcli achievements delete 01e528d59829836fd23b09085b56edab LEVEL_10', 'y\n'],
  ['udcli saves erase demo_player slot1', 'y\n'],
]);

/** Commands (by how they start) run with their output piped rather than on a terminal, and why. */
const OFF_TERMINAL = new Map<string, string>([['udcli sandbox play', 'on a terminal it opens a browser']]);
const offTerminal = (text: string) =>
  [...OFF_TERMINAL.keys()].some((start) => text === start || text.startsWith(`${start} `));

/**
 * Exit codes other than 0 that the doc implies without showing them. A doc shows one as an
 * output line `#  (exit N)` under the command; this map is for what cannot be said that way.
 */
const EXIT = new Map<string, number>([]);
const SHOWN_EXIT = /^\(exit (\d+)\)$/;

/** Files a command reads that the reader has, not the doc: written before the commands run. */
const READER_FILES: Record<string, string> = {
  'slot1.json': '{"level":3,"ore":40}\n',
  'secret.txt': 'a-signing-secret-of-the-reader\n',
};

/** `-- npm test`: the reader's own test suite. Here a command that fails unless udcli's environment is set. */
const TEST_SUITE = [
  process.execPath,
  '-e',
  'process.exit(process.env.UDCLI_BASE_URL && process.env.UDCLI_API_KEY ? 0 : 1)',
];

class Collector extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (error?: Error | null) => void): void {
    this.text += chunk.toString('utf8');
    cb();
  }
}

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** udcli as the reader runs it: in a terminal unless piped, answering what it asks. */
async function udcli(
  argv: string[],
  env: NodeJS.ProcessEnv,
  options: { terminal?: boolean; answer?: string; stdin?: string } = {},
): Promise<Result> {
  const out = new Collector();
  const err = new Collector();
  const stdin = new PassThrough();
  stdin.end(options.answer ?? options.stdin ?? '');
  const asks = options.answer !== undefined;
  const io: IOStreams = {
    stdin,
    stdout: out,
    stderr: err,
    stdinIsTTY: asks,
    stdoutIsTTY: options.terminal ?? false,
    stderrIsTTY: asks,
    env,
    onSignals: () => () => {},
  };
  const code = await main(argv, io);
  return { code, stdout: out.text, stderr: err.text };
}

const squash = (line: string) => line.replace(/\s+/g, ' ').trim();

/** The lines shown that the output lacks, or holds out of order. */
function missingLines(shown: string[], result: Result, baseUrl: string): string[] {
  const streams = [result.stdout, result.stderr].map((text) => text.split('\n').map(squash));
  const at = [0, 0];
  const missing: string[] = [];
  for (const line of shown) {
    if (squash(line) === '…' || SHOWN_EXIT.test(squash(line))) continue;
    const want = squash(line.replaceAll('http://127.0.0.1:8787', baseUrl));
    const found = streams.findIndex((lines, s) => lines.indexOf(want, at[s]) !== -1);
    if (found === -1) missing.push(line);
    else at[found] = streams[found]!.indexOf(want, at[found]) + 1;
  }
  return missing;
}

interface DocRun {
  /** Where the doc's commands run (its `cd` moves it). */
  cwd: string;
  env: NodeJS.ProcessEnv;
  baseUrl: string;
  root: string;
}

async function startDocRun(name: string): Promise<DocRun> {
  // The background sandbox is the built binary; without it every sandbox command would fail on its own.
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('no dist/: run `npm run build` first');
  const root = mkdtempSync(join(tmpdir(), `udcli-docs-${name}-`));
  const cwd = join(root, 'work');
  mkdirSync(cwd);
  for (const [file, text] of Object.entries(READER_FILES)) writeFileSync(join(cwd, file), text);
  const port = await closedPort();
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('UDCLI_') && k !== 'FORCE_COLOR') env[k] = v;
  Object.assign(env, {
    NO_COLOR: '1',
    UDCLI_DATA_DIR: join(root, 'data'),
    UDCLI_SANDBOX_PORT: String(port),
    USER: 'docs-reader',
  });
  return { cwd, env, baseUrl: `http://127.0.0.1:${port}`, root };
}

async function endDocRun(run: DocRun | undefined): Promise<void> {
  if (!run) return;
  await udcli(['sandbox', 'stop'], { ...run.env, UDCLI_CONFIG_DIR: join(run.root, 'config-stop') });
  rmSync(run.root, { recursive: true, force: true });
}

async function checkSynopsis(step: DocSynopsis, env: NodeJS.ProcessEnv): Promise<string[]> {
  const problems: string[] = [];
  for (const form of step.forms) {
    const help = await udcli([...form.path, '--help'], env);
    if (help.code !== 0) {
      problems.push(`udcli ${form.path.join(' ')} --help: exit ${help.code}`);
      continue;
    }
    const known = new Set(help.stdout.match(/(?<![\w-])--?[a-zA-Z][\w-]*/g));
    for (const option of form.options)
      if (!known.has(option)) problems.push(`udcli ${form.path.join(' ')}: no option ${option} in its --help`);
  }
  return problems;
}

/** Runs one block's steps in order; the problems found (empty when the block is true). */
async function runBlock(block: DocBlock, run: DocRun, index: number): Promise<string[]> {
  const problems: string[] = [];
  const configDir = join(run.root, `config-${index}`);
  const env = { ...run.env, UDCLI_CONFIG_DIR: configDir };
  const ran: string[] = [];
  const previous = process.cwd();
  process.chdir(run.cwd);
  try {
    for (const step of block.steps) {
      const where = `line ${step.line}`;
      if (step.kind === 'file') writeFileSync(step.path, step.content);
      else if (step.kind === 'mkdir') mkdirSync(step.path, { recursive: true });
      else if (step.kind === 'cd') {
        process.chdir(step.path);
        run.cwd = process.cwd();
      } else if (step.kind === 'synopsis') {
        problems.push(...(await checkSynopsis(step, env)).map((p) => `${where}: ${step.text}\n  ${p}`));
      } else {
        const after = SKIP_IN_BLOCK_AFTER.get(step.text);
        if (SKIP.has(step.text) && (after === undefined || ran.includes(after))) continue;
        const problem = await runCommand(step, env, run);
        ran.push(step.text);
        if (problem) problems.push(`${where}: ${step.text}\n  ${problem}`);
      }
    }
  } finally {
    process.chdir(previous);
  }
  return problems;
}

async function runCommand(step: DocCommand, env: NodeJS.ProcessEnv, run: DocRun): Promise<string | undefined> {
  const dashes = step.argv.indexOf('--');
  const argv =
    dashes !== -1 && step.argv.slice(dashes + 1).join(' ') === 'npm test'
      ? [...step.argv.slice(0, dashes + 1), ...TEST_SUITE]
      : step.argv;
  const answer = ANSWERS.get(step.text);
  const result = await udcli(argv, env, {
    terminal: !step.piped && !offTerminal(step.text),
    ...(answer === undefined ? {} : { answer }),
    ...(step.stdinFile === undefined ? {} : { stdin: readFileSync(step.stdinFile, 'utf8') }),
  });
  const shownExit = step.shown.map((line) => SHOWN_EXIT.exec(squash(line))).find((m) => m !== null);
  const expected = shownExit ? Number(shownExit[1]) : (EXIT.get(step.text) ?? 0);
  if (step.through.length > 0) {
    // The one filter the docs pipe into: its output is what the doc shows.
    if (step.through.length !== 1 || step.through[0]!.join(' ') !== 'wc -l')
      return `a pipe through ${step.through.map((w) => w.join(' ')).join(' | ')}: only | wc -l is followed`;
    result.stdout = `${result.stdout.split('\n').length - 1}\n`;
  }
  const output = () => `\n  stdout: ${result.stdout.slice(0, 1500)}\n  stderr: ${result.stderr.slice(0, 1500)}`;
  if (result.code !== expected) return `exit ${result.code}, expected ${expected}${output()}`;
  if (step.evaluated) {
    // `K=V` lines (and `export K=V`), as the shell's eval would take them.
    for (const m of result.stdout.matchAll(/^(?:export )?([A-Z_][A-Z0-9_]*)=(\S*)$/gm))
      env[m[1]!] = m[2]!.replace(/^'(.*)'$/, '$1');
  }
  const missing = missingLines(step.shown, result, run.baseUrl);
  return missing.length === 0
    ? undefined
    : `the output lacks (or has out of order):\n    ${missing.join('\n    ')}${output()}`;
}

/**
 * Docs whose commands a test cannot run as written, each with why; their blocks are still read,
 * and each option a command names must be in its --help.
 */
const NOT_RUN = new Map<string, string>([
  [
    'docs/FIDELITY.md',
    "its commands read the reader's own recordings and a production profile of the real platform; test/diff runs the same commands on recordings of its own",
  ],
]);

/** Every doc: the README, the changelog and every page of docs/ (a new page is covered without a change here). */
const DOC_FILES = [
  'README.md',
  'CHANGELOG.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
const docs: Record<string, DocBlock[]> = Object.fromEntries(
  DOC_FILES.filter((f) => existsSync(join(ROOT, f))).map((f) => [
    f,
    readDocBlocks(readFileSync(join(ROOT, f), 'utf8')),
  ]),
);

describe('the docs are read as intended', () => {
  it('finds the commands of each doc (a reader that found none would pass everything)', () => {
    const commands = (blocks: DocBlock[]) => blocks.flatMap((b) => b.steps).filter((s) => s.kind === 'command');
    expect(Object.keys(docs)).toEqual(
      expect.arrayContaining([
        'README.md',
        'docs/SUPPORT.md',
        'docs/SANDBOX.md',
        'docs/USING.md',
        'docs/INTEGRATING.md',
        'docs/FIDELITY.md',
      ]),
    );
    expect(commands(docs['README.md']!).length).toBeGreaterThan(25);
    expect(commands(docs['docs/SANDBOX.md']!).length).toBeGreaterThan(10);
    expect(commands(docs['docs/INTEGRATING.md']!).length).toBeGreaterThan(3);
    expect(commands(docs['docs/SUPPORT.md']!).length).toBeGreaterThan(10);
    const tour = commands(docs['README.md']!).find((c) => c.text.startsWith('udcli achievements reset 01e5'));
    expect(tour?.shown[0]).toMatch(/^Changed: LEVEL_10/);
  });

  it('skips, answers and exceptions name commands the docs still hold', () => {
    const all = new Set(
      Object.values(docs).flatMap((blocks) => blocks.flatMap((b) => b.steps).map((s) => ('text' in s ? s.text : ''))),
    );
    for (const text of [...SKIP.keys(), ...SKIP_IN_BLOCK_AFTER.values(), ...ANSWERS.keys(), ...EXIT.keys()])
      expect(all, text).toContain(text);
    for (const start of OFF_TERMINAL.keys())
      expect(
        [...all].some((text) => text.startsWith(`${start} `)),
        start,
      ).toBe(true);
  });
});

for (const [name, blocks] of Object.entries(docs)) {
  if (NOT_RUN.has(name)) {
    describe(`${name}: not run (${NOT_RUN.get(name)!})`, () => {
      it('names only options its commands have', async () => {
        const env = {
          ...process.env,
          NO_COLOR: '1',
          UDCLI_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'udcli-docs-options-')),
        };
        const problems: string[] = [];
        for (const step of blocks.flatMap((b) => b.steps)) {
          if (step.kind !== 'command') continue;
          const start = step.argv.findIndex((w) => COMMANDS.some((c) => c.name === w));
          const words = step.argv
            .slice(Math.max(0, start))
            .filter((w) => !w.startsWith('-'))
            .slice(0, 2);
          const options = step.argv.filter((w) => /^--?[a-zA-Z]/.test(w)).map((w) => w.replace(/=.*$/, ''));
          let help: Result | undefined;
          for (let n = words.length; n > 0 && (help === undefined || help.code !== 0); n--)
            help = await udcli([...words.slice(0, n), '--help'], env);
          const known = new Set(help?.stdout.match(/(?<![\w-])--?[a-zA-Z][\w-]*/g));
          for (const option of options)
            if (!known.has(option)) problems.push(`line ${step.line}: ${step.text}: no option ${option}`);
        }
        expect(problems).toEqual([]);
      });
    });
    continue;
  }
  if (blocks.length === 0) {
    it(`${name} holds no shell command to run`, () => {
      expect(blocks).toEqual([]);
    });
    continue;
  }
  describe(`${name}: every command as written`, () => {
    let run: DocRun | undefined;
    beforeAll(async () => {
      run = await startDocRun(name.replace(/\W+/g, '-'));
    });
    afterAll(async () => {
      await endDocRun(run);
    });

    blocks.forEach((block, index) => {
      it(`the block at line ${block.line}`, async () => {
        expect(await runBlock(block, run!, index)).toEqual([]);
      });
    });

    for (const data of readDataFileBlocks(readFileSync(join(ROOT, name), 'utf8'))) {
      it(`the data file at line ${data.line} loads as it is shown`, async () => {
        const file = join(run!.root, `data-${data.line}.yaml`);
        writeFileSync(file, data.text);
        const env = { ...run!.env, UDCLI_CONFIG_DIR: join(run!.root, 'config-data') };
        const result = await udcli(['sandbox', 'load', file, '--db', join(run!.root, `data-${data.line}.db`)], env);
        expect(result, result.stderr).toMatchObject({ code: 0, stderr: '' });
      });
    }
  });
}
