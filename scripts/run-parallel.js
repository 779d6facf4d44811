// Runs npm scripts side by side and fails when any failed. npm test's checks (typecheck, lint, the
// format check) need nothing built and nothing of each other, and the tests need only the build:
// on 2 cores the checks running beside vitest took 2 min 43-45 s, where checks first (18 s), then
// vitest (about 170 s), add up to about 3 min 8 s (issue 43).
//
// Usage: node scripts/run-parallel.js [--live SCRIPT] SCRIPT...
// Each SCRIPT's output is kept and printed whole once it ends, in the order named; the --live one
// (vitest) writes straight through as it runs, and the kept outputs follow it.
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
const liveAt = args.indexOf('--live');
const live = liveAt >= 0 ? args[liveAt + 1] : undefined;
const names = args.filter((_, i) => liveAt < 0 || (i !== liveAt && i !== liveAt + 1));
const npm = process.env.npm_execpath;

/** An npm script as a child process: npm's own CLI under this Node when npm started us, else npm from PATH. */
function start(name, stdio) {
  const [command, argv] = npm ? [process.execPath, [npm, 'run', '-s', name]] : ['npm', ['run', '-s', name]];
  return spawn(command, argv, { stdio });
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
