/**
 * The newcomer's default: the built-in profile with no sandbox running. The first command starts
 * one in the background (timed alone, from a data dir without a database: the first command after
 * install); the runs after it are compared with the same command against the bench's running
 * sandbox.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BIN } from '../lib/context.js';
import { freePort } from '../lib/free-port.js';
import { udcliHere } from '../lib/in-process.js';
import { cleanEnv } from '../lib/proc.js';
import { fmt } from '../lib/render.js';
import { ms, round } from '../lib/stats.js';

/** @type {import('../run.js').BenchRow} */
export default {
  ids: ['embedded'],
  async run(ctx) {
    const { s, outFile } = ctx;
    const port = await freePort();
    const newcomer = cleanEnv({
      UDCLI_CONFIG_DIR: join(ctx.root, 'newcomer-config'),
      UDCLI_DATA_DIR: join(ctx.root, 'newcomer-data'),
      UDCLI_SANDBOX_PORT: String(port),
    });
    // The background sandbox outlives its command: stopped here, and at the end of a failed run.
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      spawnSync(process.execPath, [BIN, 'sandbox', 'stop'], { env: newcomer, stdio: 'ignore' });
    };
    ctx.onClose(stop);
    const uid = ctx.demo.user.uid;
    ctx.log(`embedded: the first command (no database yet), then ${s.startupRuns} runs a side`);
    const first = await ctx.udcli(['user', uid, '--json'], { stdoutFile: outFile, env: newcomer });
    if (!/started one in the background/.test(first.stderr))
      throw new Error(`embedded: the first command did not start a sandbox: ${first.stderr}`);
    const r = await ctx.interleaved(
      { runs: s.startupRuns, warmup: s.warmup },
      () => ctx.udcli(['user', ctx.seeded.big.uid, '--json'], { stdoutFile: outFile }),
      () => ctx.udcli(['user', uid, '--json'], { stdoutFile: outFile, env: newcomer }),
    );
    if (ctx.mode === 'smoke') {
      // Clean-up, not measured: in this process (bench/lib/in-process.js); a failure leaves it to onClose.
      await udcliHere(['sandbox', 'stop'], newcomer);
      stopped = true;
    } else stop();
    ctx.report({
      id: 'embedded',
      what: 'udcli user <uid> --json, built-in profile, no sandbox running before the first command',
      unit: 'ms',
      kind: 'time',
      refLabel: 'the same command against a running sandbox',
      refSamples: ms(r.ref),
      udcliSamples: ms(r.udcli),
      target: { op: '<=', value: 1.25 },
      check: ctx.mode !== 'full' || first.ms < 3000,
      targetText: ctx.mode === 'full' ? '≤ 1.25×; first command < 3 s' : '≤ 1.25×',
      extra: { firstCommandMs: round(first.ms) },
      notes: [
        `embedded: the first command (no database yet: it is created and seeded, the sandbox started in the background) took ${fmt(first.ms)} ms; the runs compared are the commands after it.`,
      ],
    });
  },
};
