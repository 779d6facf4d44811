// Build step: renders what commander prints for `udcli`, `udcli --help`, `-h` and `--version`
// into dist/cli/root-help.json, so bin/udcli.js can print it without loading the CLI (start-up
// at the floor of `node -e 0`). commander stays the one source of truth: this runs the real
// program, and test/e2e/root-help.test.ts checks the stored text against its live output.
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { Writable } from 'node:stream';

// The change registry finds its declarations by reading dist/cli/changes/ (src/cli/change-registry.ts),
// and tsc never deletes: a declaration removed or renamed in src/ would live on there. Pruned first.
const changes = new URL('../dist/cli/changes/', import.meta.url);
for (const name of readdirSync(changes)) {
  const source = new URL(`../src/cli/changes/${name.replace(/\.js(\.map)?$/, '.ts')}`, import.meta.url);
  if (!existsSync(source)) rmSync(new URL(name, changes));
}

const { runCommandLine } = await import('../dist/cli/main.js');
const { COMMANDS } = await import('../dist/cli/commands.js');

/** The exact argv lists bin/udcli.js answers from the stored text (its STORED set). */
const FAST_ARGV = [[], ['--help'], ['-h'], ['--version']];

async function render(argv) {
  let out = '';
  let err = '';
  const sink = (append) =>
    new Writable({
      write(chunk, _enc, done) {
        append(String(chunk));
        done();
      },
    });
  const io = {
    stdin: process.stdin,
    stdout: sink((s) => (out += s)),
    stderr: sink((s) => (err += s)),
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    env: {},
    onSignals: () => () => {},
  };
  const code = await runCommandLine(argv, io, COMMANDS);
  if (code !== 0 || err !== '') throw new Error(`udcli ${argv.join(' ')} exited ${code}: ${err}`);
  return out;
}

const answers = {};
for (const argv of FAST_ARGV) answers[argv.join(' ')] = await render(argv);
writeFileSync(new URL('../dist/cli/root-help.json', import.meta.url), JSON.stringify(answers));
