// Build step: renders what commander prints for `udcli`, `udcli --help`, `-h` and `--version`
// into dist/root-help.json, so bin/udcli.js can print it without loading the CLI (start-up
// at the floor of `node -e 0`). commander stays the one source of truth: this runs the real
// program, and test/e2e/root-help.test.ts checks the stored text against its live output.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';

// The built file, as bin/udcli.js loads it; where the answers go, from udcli's one module of paths.
const { main } = createRequire(import.meta.url)('../dist/udcli.cjs');
const { ROOT_HELP_PATH } = await import('../dist/package-paths.js');

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
  const code = await main(argv, io);
  if (code !== 0 || err !== '') throw new Error(`udcli ${argv.join(' ')} exited ${code}: ${err}`);
  return out;
}

const answers = {};
for (const argv of FAST_ARGV) answers[argv.join(' ')] = await render(argv);
writeFileSync(ROOT_HELP_PATH, JSON.stringify(answers));
