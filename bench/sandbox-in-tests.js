// The bench row "a ready sandbox in test code" (issue 53): what a studio's test file waits for.
//
// - ready: from calling `startSandbox()` to its first answered request, in a fresh Node process that has imported
//   `udcli/sandbox` (the first sandbox of a test worker) and, in the same process, a second one (every test file after
//   the first, with isolate: false); side by side with spawning `udcli sandbox start --port 0 --db :memory:` and
//   waiting for its URL and first answer, as a test did before the API.
// - reset: `reset()` after 100 changes over HTTP (grants), side by side with the reset the sandbox's control route
//   does (`POST /_sandbox/reset`, seeding again), on the same sandbox, the same changes.
// Runs interleaved (A, B, A, B, ...), medians with their spread (min–max), and the machine's load over the row.
//
//   node bench/sandbox-in-tests.js [--runs N] [--json FILE]
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const { fetch } = globalThis;
import { startLoadMonitor } from './lib/load-monitor.js';
import { cleanEnv } from './lib/proc.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = pathToFileURL(`${ROOT}dist/sandbox-api.mjs`).href;
const BIN = `${ROOT}bin/udcli.js`;
const CHANGES = 100;

/** @param {number[]} xs */
function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const median = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return { median, min: s[0], max: s.at(-1), n: s.length };
}

/** One fresh process: its first and second sandbox, each from startSandbox() to its first answer (ms). */
function inProcessSample() {
  const script = `
const { startSandbox } = await import(${JSON.stringify(ENTRY)});
const ready = async () => {
  const t0 = performance.now();
  const sandbox = await startSandbox();
  await (await fetch(sandbox.url + '/_sandbox/status')).text();
  return { ms: performance.now() - t0, sandbox };
};
const first = await ready();
const second = await ready();
process.stdout.write(JSON.stringify({ first: first.ms, second: second.ms }));
await Promise.all([first.sandbox.stop(), second.sandbox.stop()]);
`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`in-process sample exited ${code}`)),
    );
  });
}

/** `udcli sandbox start` spawned: from spawn to its URL and first answer (ms). */
function spawnedSample() {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', '--db', ':memory:'], {
      env: cleanEnv({ UDCLI_DATA_DIR: `${ROOT}.bench-data-${process.pid}` }),
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    child.on('error', reject);
    createInterface({ input: child.stdout }).once('line', async (url) => {
      try {
        await (await fetch(`${url.trim()}/_sandbox/status`)).text();
        const ms = performance.now() - t0;
        child.once('close', () => resolve(ms));
        child.kill('SIGINT');
      } catch (error) {
        child.kill('SIGKILL');
        reject(error);
      }
    });
  });
}

/** @param {string} url @param {string} apiKey @param {string} gameId @param {string[]} uids */
async function changes(url, apiKey, gameId, uids) {
  for (let i = 0; i < CHANGES; i++) {
    const reply = await fetch(`${url}/services/rest/v1/products/user/${uids[i % uids.length]}.json?api_key=${apiKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `parent_id=${gameId}&sku=xp-boost&qty=1`,
    });
    if (reply.status !== 200) throw new Error(`a change answered ${reply.status}`);
    await reply.arrayBuffer();
  }
}

async function main() {
  const args = process.argv.slice(2);
  const runs = Number(args[args.indexOf('--runs') + 1] || 0) || 15;
  const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined;
  const load = startLoadMonitor();

  const first = [];
  const second = [];
  const spawned = [];
  for (let i = 0; i < runs; i++) {
    const sample = await inProcessSample();
    first.push(sample.first);
    second.push(sample.second);
    spawned.push(await spawnedSample());
  }
  const readyLoad = load.window();

  const { startSandbox } = await import(ENTRY);
  const sandbox = await startSandbox();
  const uids = sandbox.users.slice(0, 50).map((/** @type {{uid: string}} */ u) => u.uid);
  const reset = [];
  const reseed = [];
  try {
    for (let i = 0; i < runs; i++) {
      await changes(sandbox.url, sandbox.apiKey, sandbox.gameId, uids);
      let t0 = performance.now();
      await sandbox.reset();
      reset.push(performance.now() - t0);
      await changes(sandbox.url, sandbox.apiKey, sandbox.gameId, uids);
      t0 = performance.now();
      const reply = await fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST' });
      if (reply.status !== 200) throw new Error(`POST /_sandbox/reset answered ${reply.status}`);
      await reply.arrayBuffer();
      reseed.push(performance.now() - t0);
    }
  } finally {
    await sandbox.stop();
  }
  const resetLoad = load.window();
  load.stop();

  const result = {
    node: process.versions.node,
    runs,
    ready: { inProcessFirst: stats(first), inProcessNext: stats(second), spawned: stats(spawned), load: readyLoad },
    reset: { reset: stats(reset), reseed: stats(reseed), load: resetLoad },
  };
  const ms = (/** @type {{median: number, min: number, max: number}} */ s) =>
    `${s.median.toFixed(1)} ms (${s.min.toFixed(1)}–${s.max.toFixed(1)})`;
  const loadCell = (/** @type {any} */ l) =>
    `load ${l.load1.start}→${l.load1.end} (max ${l.load1.max}), others ${l.othersCores ?? '?'} cores${l.underLoad ? ', MEASURED UNDER LOAD' : ''}`;
  const r = result.ready;
  const lines = [
    `## A ready sandbox in test code (Node ${result.node}, ${runs} interleaved runs a side)`,
    '',
    '| measure | udcli/sandbox | reference | ratio | goal | machine |',
    '| --- | --- | --- | --- | --- | --- |',
    `| ready: first sandbox of a process, startSandbox() → first answer | ${ms(r.inProcessFirst)} | spawned \`udcli sandbox start\` → URL → first answer: ${ms(r.spawned)} | ${(r.spawned.median / r.inProcessFirst.median).toFixed(1)}× faster | ≤ 150 ms, ≥ 5× | ${loadCell(r.load)} |`,
    `| ready: next sandbox in the same process | ${ms(r.inProcessNext)} | the same spawned start | ${(r.spawned.median / r.inProcessNext.median).toFixed(1)}× faster | | ${loadCell(r.load)} |`,
    `| reset() after ${CHANGES} changes | ${ms(result.reset.reset)} | POST /_sandbox/reset (seeds again) after the same changes: ${ms(result.reset.reseed)} | ${(result.reset.reseed.median / result.reset.reset.median).toFixed(1)}× faster | ≤ 20 ms | ${loadCell(result.reset.load)} |`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(result, null, 2)}\n`);
}

await main();
