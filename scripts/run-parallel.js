// Runs npm scripts side by side (their commands, as `npm run` would) and fails when any failed. npm
// test's checks (typecheck, lint, the format check) need nothing built and nothing of each other, and
// the tests need only the build:
// on 2 cores the checks running beside vitest took 2 min 43-45 s, where checks first (18 s), then
// vitest (about 170 s), add up to about 3 min 8 s (issue 43).
//
// Usage: node scripts/run-parallel.js [--live SCRIPT] SCRIPT...
// Each SCRIPT's output is kept and printed whole once it ends, in the order named; the --live one
// (vitest) writes straight through as it runs, and the kept outputs follow it.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const args = process.argv.slice(2);
const liveAt = args.indexOf('--live');
const live = liveAt >= 0 ? args[liveAt + 1] : undefined;
const names = args.filter((_, i) => liveAt < 0 || (i !== liveAt && i !== liveAt + 1));
const root = join(import.meta.dirname, '..');
const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
// The scripts' own commands, run by the shell as npm runs them (node_modules/.bin first on PATH):
// `npm run` for each of the four cost 0.3 CPU-s of npm's start-up apiece, beside a busy vitest.
const env = { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}` };

const unknown = [...names, ...(live === undefined ? [] : [live])].filter((name) => typeof scripts[name] !== 'string');
if (unknown.length > 0) {
  process.stderr.write(`run-parallel: package.json has no script ${unknown.join(', ')}\n`);
  process.exit(2);
}

/** An npm script's command as a child process of the shell, in the package's folder. */
function start(name, stdio) {
  return spawn(scripts[name], { stdio, shell: true, cwd: root, env });
}

const kept = names.map(
  (name) =>
    new Promise((resolve) => {
      const child = start(name, ['ignore', 'pipe', 'pipe']);
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.on('error', (error) => resolve({ name, code: 1, output: `${output}${error.message}\n` }));
      child.on('close', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), output }));
    }),
);
const streamed =
  live === undefined
    ? []
    : [
        new Promise((resolve) => {
          const child = start(live, ['ignore', 'inherit', 'inherit']);
          child.on('error', (error) => resolve({ name: live, code: 1, output: `${error.message}\n` }));
          child.on('close', (code, signal) => resolve({ name: live, code: code ?? (signal ? 1 : 0), output: '' }));
        }),
      ];

let failed = 0;
for (const run of [...streamed, ...kept]) {
  const { name, code, output } = await run;
  process.stdout.write(output);
  if (code !== 0) {
    failed++;
    process.stderr.write(`npm run ${name} failed (exit ${code})\n`);
  }
}
process.exitCode = failed === 0 ? 0 : 1;
