/**
 * The numbers every row is made of: medians and quantiles of its runs, and the ABAB runner that
 * interleaves a reference with udcli so the machine's drift falls on both sides alike.
 */

/** @param {number[]} xs */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The p-quantile of xs (nearest rank). @param {number[]} xs @param {number} p */
export function quantile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.round(p * (s.length - 1))))];
}

/** @param {number} x @param {number} [digits] */
export const round = (x, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

/** The wall times of timed runs. @param {{ ms: number }[]} xs */
export const ms = (xs) => xs.map((x) => x.ms);

/** Peak RSS of timed runs, in MB. @param {{ rssKB?: number }[]} xs */
export const rssMB = (xs) => xs.map((x) => (x.rssKB ?? NaN) / 1024);

/** Newline-terminated lines in a text, without splitting a large one. @param {string} text */
export function countLines(text) {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Warm-up (excluded), then ABAB: reference, udcli, reference, udcli ...
 * @template T
 * @param {{ runs: number, warmup: number }} n
 * @param {() => Promise<T>} ref
 * @param {() => Promise<T>} udcli
 */
export async function interleaved(n, ref, udcli) {
  for (let i = 0; i < n.warmup; i++) {
    await ref();
    await udcli();
  }
  /** @type {T[]} */ const a = [];
  /** @type {T[]} */ const b = [];
  for (let i = 0; i < n.runs; i++) {
    a.push(await ref());
    b.push(await udcli());
  }
  return { ref: a, udcli: b };
}
