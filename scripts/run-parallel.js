// Runs npm scripts side by side (npm test's checks and build: each is CPU-bound on one core, and
// they do not depend on each other), prints each one's output whole once it ends, in the order
// named, and fails when any failed. Usage: node scripts/run-parallel.js typecheck lint build
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
const npm = process.env.npm_execpath;
const runs = names.map(
  (name) =>
    new Promise((resolve) => {
      // npm's own CLI under this Node when npm started us (npm test), else npm from PATH.
      const [command, args] = npm ? [process.execPath, [npm, 'run', '-s', name]] : ['npm', ['run', '-s', name]];
      const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.on('error', (error) => resolve({ name, code: 1, output: `${output}${error.message}\n` }));
      child.on('close', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), output }));
    }),
);
let failed = 0;
for (const run of runs) {
  const { name, code, output } = await run;
  process.stdout.write(output);
  if (code !== 0) {
    failed++;
    process.stderr.write(`npm run ${name} failed (exit ${code})\n`);
  }
}
process.exitCode = failed === 0 ? 0 : 1;
