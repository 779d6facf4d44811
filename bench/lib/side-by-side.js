/**
 * The one-shot rows' runner: a udcli command and its reference interleaved, both printing the
 * same thing (checked), on the Node running the bench and on the newest Node 24; and the trace
 * that both sides load the same packages and built-ins (bench/lib/modules.js), so a like-for-like
 * reference cannot drift into doing less than udcli.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { registryNode } from '../node.js';
import { BENCH, BIN } from './context.js';
import { MODULES_PRELOAD, dependencyDifference, loadedDependencies } from './modules.js';
import { mustRun } from './proc.js';
import { ms } from './stats.js';

/** @typedef {import('./context.js').BenchContext} BenchContext */
/** @typedef {{ suffix: '' | '-node24', label: string, nodePath: string | undefined, version: string }} Runtime */

/** @param {any} a @param {any} b */
export const sameJson = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The current LTS's node binary: $UDCLI_BENCH_NODE24, else the newest Node 24 from the npm
 * registry into bench/.work (bench/node.js: once a release, and not for --smoke runs, which
 * `npm test` makes; the start-up commands load no native addon). No pin, as in .ci/run.
 * Undefined, with a log line, when it cannot be had: the rows on this Node are still measured.
 * @param {BenchContext} ctx
 * @returns {string | undefined}
 */
function nodeLts(ctx) {
  const install = ctx.mode !== 'smoke' || (ctx.args.only ?? []).some((p) => p.endsWith('-node24'));
  const path = process.env.UDCLI_BENCH_NODE24;
  if (path || !install) return path;
  try {
    return registryNode(24, ctx.log).node;
  } catch {
    ctx.log('could not install Node 24: the start-up and one-shot rows run on this Node only');
    return undefined;
  }
}

/**
 * The Nodes the rows `ids` run on: this one, and the newest Node 24 when one of their `-node24`
 * twins is wanted and it can be had (looked up once a bench run). Each row still asks
 * ctx.wants for its own id on each.
 * @param {BenchContext} ctx
 * @param {string[]} ids  the rows' ids on this Node
 * @returns {Promise<Runtime[]>}
 */
export async function runtimes(ctx, ids) {
  /** @type {Runtime[]} */
  const all = [{ suffix: '', label: '', nodePath: undefined, version: process.versions.node }];
  if (!ids.some((id) => ctx.wants(`${id}-node24`))) return all;
  const lts = await ctx.once('node24', async () => {
    const path = nodeLts(ctx);
    if (!path) return undefined;
    return { path, version: execFileSync(path, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '') };
  });
  if (lts) all.push({ suffix: '-node24', label: ` (Node ${lts.version})`, nodePath: lts.path, version: lts.version });
  return all;
}

/**
 * @typedef {object} OneShotRow
 * @property {string} id
 * @property {string} what
 * @property {string[]} ref
 * @property {NodeJS.ProcessEnv} [refEnv]
 * @property {string[]} udcli
 * @property {string} label
 * @property {(ref: any, udcli: any) => boolean} same
 * @property {{ op: '<=' | '>=', value: number } | null} [target]
 * @property {Record<string, unknown>} [extra]
 * @property {boolean} [check]
 * @property {string} [nodePath]  the Node running both sides (default: the one running the bench)
 * @property {{ ref: TimedRun, udcli: TimedRun }} [made]  a run of each side made already (the dependency
 * trace), the reference's output in ref-<id>.json and udcli's in ctx.outFile: a --smoke run of one run a side
 * takes them as its samples rather than run each command again (npm test runs it: each process costs it CPU)
 */
/** @typedef {import('./proc.js').TimedRun} TimedRun */

/** Where a one-shot row's reference prints. @param {BenchContext} ctx @param {string} id */
const refOutFile = (ctx, id) => join(ctx.root, `ref-${id}.json`);

/**
 * A one-shot command against its reference, both printing JSON that must agree.
 * @param {BenchContext} ctx @param {OneShotRow} o
 */
export async function oneShot(ctx, o) {
  const { s } = ctx;
  const refOut = refOutFile(ctx, o.id);
  const reuse = o.made && ctx.mode === 'smoke' && s.startupRuns === 1;
  ctx.log(`${o.id}: ${s.startupRuns} runs a side${reuse ? ' (the traced runs)' : ''}`);
  const r =
    o.made && reuse
      ? { ref: [o.made.ref], udcli: [o.made.udcli] }
      : await ctx.interleaved(
          { runs: s.startupRuns, warmup: s.warmup },
          () =>
            ctx.node(o.ref[0], o.ref, {
              stdoutFile: refOut,
              nodePath: o.nodePath,
              ...(o.refEnv ? { env: o.refEnv } : {}),
            }),
          () => ctx.udcli(o.udcli, { stdoutFile: ctx.outFile, nodePath: o.nodePath }),
        );
  if (!o.same(JSON.parse(readFileSync(refOut, 'utf8')), JSON.parse(readFileSync(ctx.outFile, 'utf8'))))
    throw new Error(`${o.id}: udcli and the reference printed different things`);
  const target = o.target === undefined ? { op: /** @type {'<='} */ ('<='), value: 1.5 } : o.target;
  ctx.report({
    id: o.id,
    what: o.what,
    unit: 'ms',
    kind: target ? 'time' : 'report',
    refLabel: o.label,
    refSamples: ms(r.ref),
    udcliSamples: ms(r.udcli),
    target,
    ...(o.check === undefined ? {} : { check: o.check }),
    ...(o.extra ? { extra: o.extra } : {}),
  });
}

/**
 * The packages and built-ins each side loads, from one run of each under modules-preload.js; a
 * difference is logged, and the row that asked is marked. Returns the two runs too (`made`):
 * the reference printing to `refOut`, udcli to ctx.outFile; with `rssFile`, each with its peak RSS
 * (under the tracing hooks, whose loader thread it includes).
 * @param {BenchContext} ctx
 * @param {{ id: string, refArgv: string[], udcliArgv: string[], refOut: string, nodePath?: string, rssFile?: string }}
 * o
 */
export async function sameDependencies(ctx, o) {
  const traced = async (/** @type {string} */ name, /** @type {string[]} */ argv, /** @type {string} */ out) => {
    const file = join(ctx.root, `modules-${name}.txt`);
    rmSync(file, { force: true });
    const run = await mustRun(`${name} (modules traced)`, ['--import', MODULES_PRELOAD, ...argv], {
      env: { ...ctx.udcliEnv, BENCH_MODULES_FILE: file },
      stdoutFile: out,
      nodePath: o.nodePath,
      ...(o.rssFile ? { rssFile: o.rssFile } : {}),
    });
    return { run, loaded: loadedDependencies(file) };
  };
  const ref = await traced('reference', o.refArgv, o.refOut);
  const ours = await traced('udcli', [BIN, ...o.udcliArgv], ctx.outFile);
  const diff = dependencyDifference(ours.loaded, ref.loaded);
  const deps = {
    same: diff.onlyFirst.length === 0 && diff.onlySecond.length === 0,
    udcliOnly: diff.onlyFirst,
    referenceOnly: diff.onlySecond,
    packages: ours.loaded.packages,
    udcliModuleFiles: ours.loaded.files,
    referenceModuleFiles: ref.loaded.files,
  };
  if (!deps.same)
    ctx.log(
      `${o.id}: udcli and its reference load different dependencies (udcli only: ${deps.udcliOnly.join(' ') || '-'}; reference only: ${deps.referenceOnly.join(' ') || '-'}): the row is marked`,
    );
  return { deps, made: { ref: ref.run, udcli: ours.run } };
}

/**
 * @typedef {object} LikeForLikeRow
 * @property {string} id
 * @property {string} what
 * @property {string} script  under bench/ref/
 * @property {string[]} argv
 * @property {string} label
 * @property {(ref: any, udcli: any) => boolean} same
 * @property {number} [target]
 * @property {string} [nodePath]
 */

/**
 * A one-shot row against its like-for-like reference (bench/ref/like-cli.js), dependencies
 * checked first.
 * @param {BenchContext} ctx @param {LikeForLikeRow} o
 */
export async function likeForLike(ctx, o) {
  const refArgv = [join(BENCH, 'ref', o.script), ...o.argv];
  // On Node 24 this is also the check that the command loads no SQLite driver: the reference
  // loads none, and the driver installed for the Node running the bench would not load there.
  const { deps, made } = await sameDependencies(ctx, {
    id: o.id,
    refArgv,
    udcliArgv: o.argv,
    refOut: refOutFile(ctx, o.id),
    nodePath: o.nodePath,
  });
  await oneShot(ctx, {
    id: o.id,
    what: o.what,
    ref: refArgv,
    refEnv: ctx.udcliEnv,
    udcli: o.argv,
    label: `like for like: ${o.label}, commander, the same config lookup, the same dependencies (${deps.same ? 'checked' : 'NOT the same, see notes'})`,
    same: o.same,
    check: deps.same,
    extra: { dependencies: deps },
    target: { op: '<=', value: o.target ?? 1.5 },
    nodePath: o.nodePath,
    made,
  });
}

/**
 * Measures the row `id` on each Node it runs on (runtimes) where --only wants it: `measure` gets
 * the row's id there (`user`, `user-node24`) and that Node.
 * @param {BenchContext} ctx
 * @param {string} id
 * @param {(id: string, runtime: Runtime) => Promise<void>} measure
 */
export async function onEachNode(ctx, id, measure) {
  for (const runtime of await runtimes(ctx, [id])) {
    const rowId = `${id}${runtime.suffix}`;
    if (ctx.wants(rowId)) await measure(rowId, runtime);
  }
}
