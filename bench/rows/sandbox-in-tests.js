/**
 * "A ready sandbox in test code" (issue 53): what a studio's test file waits for.
 * - ready: from calling `startSandbox()` to its first answered request, in a fresh Node process that has imported
 *   `udcli/sandbox` (a test worker's first sandbox), and a second one in the same process (every test file after the
 *   first, with isolate: false); against spawning `udcli sandbox start --port 0 --db :memory:` and waiting for its URL
 *   and first answer, as a test did before the API. Goals: ≤ 150 ms and ≥ 5× faster.
 * - reset: `reset()` after 100 changes over HTTP (grants), against the reset the sandbox's control route does
 *   (`POST /_sandbox/reset`, seeding again) after the same changes, on the same sandbox. Goal: ≤ 20 ms.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../lib/context.js';
import { cleanEnv } from '../lib/proc.js';
import { median } from '../lib/stats.js';

const { fetch } = globalThis;
const ENTRY = pathToFileURL(`${ROOT}/dist/sandbox-api.mjs`).href;
const BIN = `${ROOT}/bin/udcli.js`;
const CHANGES = 100;
/** --smoke proves the row runs: a few changes are enough. */
const SMOKE_CHANGES = 5;
const READY_GOAL_MS = 150;
const RESET_GOAL_MS = 20;

/** One fresh process: its first and second sandbox, each from startSandbox() to its first answer (ms). */
function inProcessSample() {
  const script = `
const { startSandbox } = await import(${JSON.stringify(ENTRY)});
// fetch's own first use (undici's start) is the client's, as warm here as in the bench process that times the spawned side.
await (await fetch('data:,')).text();
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

/**
 * `udcli sandbox start` spawned: from spawn to its URL and first answer (ms).
 * @param {string} dataDir
 */
function spawnedSample(dataDir) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', '--db', ':memory:'], {
      env: cleanEnv({ UDCLI_DATA_DIR: dataDir }),
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
async function changes(url, apiKey, gameId, uids, count = CHANGES) {
  for (let i = 0; i < count; i++) {
    const reply = await fetch(`${url}/services/rest/v1/products/user/${uids[i % uids.length]}.json?api_key=${apiKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `parent_id=${gameId}&sku=xp-boost&qty=1`,
    });
    if (reply.status !== 200) throw new Error(`a change answered ${reply.status}`);
    await reply.arrayBuffer();
  }
}

/** @type {import('../run.js').BenchRow} */
export default {
  ids: ['sandbox-in-tests-ready', 'sandbox-in-tests-ready-next', 'sandbox-in-tests-reset'],
  async run(ctx) {
    const runs = Math.max(ctx.s.startupRuns, 1);
    const dataDir = `${ctx.root}/sandbox-in-tests`;
    ctx.log(`sandbox-in-tests: ${runs} runs a side`);
    const ready = await ctx.interleaved({ runs, warmup: 0 }, () => spawnedSample(dataDir), inProcessSample);
    const first = ready.udcli.map((s) => s.first);
    const next = ready.udcli.map((s) => s.second);
    const common = {
      unit: 'ms',
      kind: /** @type {const} */ ('time'),
      refLabel: 'spawned `udcli sandbox start` → URL → first answer',
      refSamples: ready.ref,
      target: { op: /** @type {const} */ ('<='), value: 0.2 },
    };
    const firstRow = ctx.report({
      ...common,
      id: 'sandbox-in-tests-ready',
      what: 'a ready sandbox in test code: startSandbox() → first answer, the first of a process',
      udcliSamples: first,
      check: median(first) <= READY_GOAL_MS,
      targetText: `≤ ${READY_GOAL_MS} ms and ≥ 5× faster`,
    });
    ctx.report({
      ...common,
      id: 'sandbox-in-tests-ready-next',
      what: 'a ready sandbox in test code: the next one in the same process',
      udcliSamples: next,
      check: median(next) <= READY_GOAL_MS,
      targetText: `≤ ${READY_GOAL_MS} ms and ≥ 5× faster`,
      load: firstRow.load,
    });

    const { startSandbox } = await import(ENTRY);
    const sandbox = await startSandbox();
    const n = ctx.mode === 'smoke' ? SMOKE_CHANGES : CHANGES;
    const uids = sandbox.users.slice(0, 50).map((/** @type {{uid: string}} */ u) => u.uid);
    try {
      const r = await ctx.interleaved(
        { runs, warmup: 0 },
        async () => {
          await changes(sandbox.url, sandbox.apiKey, sandbox.gameId, uids, n);
          const t0 = performance.now();
          const reply = await fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST' });
          if (reply.status !== 200) throw new Error(`POST /_sandbox/reset answered ${reply.status}`);
          await reply.arrayBuffer();
          const ms = performance.now() - t0;
          // The reseed wrote every table: put them back untimed, so the next sample starts from the handle's baseline.
          await sandbox.reset();
          return ms;
        },
        async () => {
          await changes(sandbox.url, sandbox.apiKey, sandbox.gameId, uids, n);
          const t0 = performance.now();
          await sandbox.reset();
          return performance.now() - t0;
        },
      );
      ctx.report({
        id: 'sandbox-in-tests-reset',
        what: `sandbox.reset() after ${CHANGES} changes`,
        unit: 'ms',
        kind: 'time',
        refLabel: 'POST /_sandbox/reset (seeds again) after the same changes',
        refSamples: r.ref,
        udcliSamples: r.udcli,
        target: null,
        check: median(r.udcli) <= RESET_GOAL_MS,
        targetText: `≤ ${RESET_GOAL_MS} ms`,
      });
    } finally {
      await sandbox.stop();
    }
  },
};
