/**
 * One row of the results: both sides' medians, the spread of their runs, the ratio judged against
 * the row's target, and the machine's load while it ran (on a shared machine a ratio means little
 * without the last two).
 */
import { median, quantile, round } from './stats.js';

/**
 * What a row module reports (ctx.report): its samples and how to judge them.
 * @typedef {object} RowSpec
 * @property {string} id
 * @property {string} what
 * @property {string} unit
 * @property {string} refLabel
 * @property {number[]} refSamples
 * @property {number[]} udcliSamples
 * @property {'time' | 'throughput' | 'memory' | 'report'} kind time/memory: ratio = udcli/ref (lower is better);
 * throughput: udcli/ref (higher is better)
 * @property {{ op: '<=' | '>=', value: number } | null} target
 * @property {Record<string, unknown>} [extra]
 * @property {boolean} [check]  a pass condition besides the ratio (e.g. exact final value)
 * @property {string} [targetText]
 * @property {string[]} [notes]  lines for results.md's notes (what the ratio alone does not say)
 * @property {LoadWindow} [load] a row measured with another: that row's load window
 */
/** @typedef {ReturnType<ReturnType<typeof import('./load-monitor.js').startLoadMonitor>['window']>} LoadWindow */

/** @param {number[]} xs */
const spread = (xs) => ({
  p25: round(quantile(xs, 0.25)),
  p75: round(quantile(xs, 0.75)),
  min: round(Math.min(...xs)),
  max: round(Math.max(...xs)),
});

/** @param {number[]} xs */
const side = (xs) => ({
  median: round(median(xs)),
  spread: spread(xs),
  runs: xs.length,
  samples: xs.map((x) => round(x)),
});

/**
 * @param {RowSpec} r
 * @param {LoadWindow} load  the machine's load while the row ran
 */
export function buildRow(r, load) {
  const ref = median(r.refSamples);
  const udcli = median(r.udcliSamples);
  const ratio = ref > 0 ? udcli / ref : NaN;
  let pass = r.check ?? true;
  if (r.target) pass = pass && (r.target.op === '<=' ? ratio <= r.target.value : ratio >= r.target.value);
  return {
    id: r.id,
    what: r.what,
    unit: r.unit,
    kind: r.kind,
    reference: { label: r.refLabel, ...side(r.refSamples) },
    udcli: side(r.udcliSamples),
    load1: load.load1.end,
    load,
    ratio: round(ratio),
    target: r.target,
    targetText: r.targetText ?? (r.target ? `${r.target.op === '<=' ? '≤' : '≥'} ${r.target.value}×` : 'report'),
    pass,
    ...(r.extra ? { extra: r.extra } : {}),
    ...(r.notes?.length ? { notes: r.notes } : {}),
  };
}
