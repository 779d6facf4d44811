/**
 * The machine's load during each row, so a row measured while something else ran says so.
 *
 * Two measures, sampled once a second from the start of the bench:
 * - the 1-minute load average (/proc/loadavg, os.loadavg elsewhere), as it stood when the row
 *   began and ended and its highest value in between;
 * - the CPU other processes took (Linux only): all busy CPU time in /proc/stat minus this
 *   process's own, its finished children's (cutime/cstime: the bench waits for every child) and
 *   that of its live descendants (/proc/PID/stat). The load average counts the bench's own
 *   servers and load generators (a sandbox row keeps both cores busy by design), so on its own it
 *   cannot tell "the bench is busy" from "someone else is"; the CPU others took can.
 *
 * A row is "measured under load" when other processes took more than a quarter of the machine on
 * average during it (half a core on 2 cores): then the two sides of a row that itself needs
 * one or two cores queue behind it and a ratio moves by tens of percent. Without /proc the rule
 * falls back to the 1-minute load average above half the core count.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';

const CORES = cpus().length || 1;
/** The share of the machine others may take before a row is marked measured under load. */
export const OTHERS_LIMIT_CORES = CORES * 0.25;
const LOADAVG_LIMIT = CORES * 0.5;

/** @returns {number} busy jiffies of the whole machine, or NaN without /proc */
function machineBusy() {
  try {
    const [, ...f] = readFileSync('/proc/stat', 'latin1').split('\n', 1)[0].trim().split(/\s+/).map(Number);
    // user nice system idle iowait irq softirq steal
    return f[0] + f[1] + f[2] + f[5] + f[6] + (f[7] || 0);
  } catch {
    return NaN;
  }
}

/** @param {string} text  the content of /proc/PID/stat @returns {{ ppid: number, own: number, children: number }} */
function parseStat(text) {
  // The command name (field 2) may hold spaces and parentheses: the fields after it follow the last ')'.
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // f[0] is field 3 (state): ppid field 4, utime 14, stime 15, cutime 16, cstime 17
  return { ppid: Number(f[1]), own: Number(f[11]) + Number(f[12]), children: Number(f[13]) + Number(f[14]) };
}

/** @returns {number} jiffies this process and all its descendants (live or waited for) used, or NaN */
function ourBusy() {
  try {
    /** @type {Map<number, { ppid: number, own: number, children: number }>} */
    const procs = new Map();
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        procs.set(Number(name), parseStat(readFileSync(`/proc/${name}/stat`, 'latin1')));
      } catch {
        // gone between the listing and the read
      }
    }
    const self = procs.get(process.pid);
    if (!self) return NaN;
    let total = self.own + self.children;
    /** @type {Map<number, number[]>} */
    const kids = new Map();
    for (const [pid, p] of procs) kids.set(p.ppid, [...(kids.get(p.ppid) ?? []), pid]);
    const stack = [...(kids.get(process.pid) ?? [])];
    while (stack.length > 0) {
      const pid = /** @type {number} */ (stack.pop());
      const p = procs.get(pid);
      if (!p) continue;
      // A live child's own time and that of its children it has waited for: once it is waited
      // for itself, all of it moves into its parent's cutime/cstime, counted above.
      total += p.own + p.children;
      stack.push(...(kids.get(pid) ?? []));
    }
    return total;
  } catch {
    return NaN;
  }
}

/**
 * @typedef {object} LoadSample
 * @property {number} t        ms (performance.now())
 * @property {number} load1
 * @property {number} busy     machine busy jiffies
 * @property {number} ours     our tree's jiffies
 */

/** @returns {LoadSample} */
function sample() {
  return { t: performance.now(), load1: loadavg()[0], busy: machineBusy(), ours: ourBusy() };
}

/**
 * Starts sampling; `window()` closes the current window (a row) and opens the next.
 * @param {number} [everyMs]
 */
export function startLoadMonitor(everyMs = 1000) {
  /** @type {LoadSample[]} */
  let samples = [sample()];
  const timer = setInterval(() => samples.push(sample()), everyMs);
  timer.unref();
  return {
    /**
     * The load since the last call (or the start), and a fresh window from now.
     * @returns {{ load1: { start: number, end: number, max: number }, othersCores: number | null, underLoad: boolean,
     * rule: string }}
     */
    window() {
      const end = sample();
      const all = [...samples, end];
      samples = [end];
      const first = all[0];
      const seconds = (end.t - first.t) / 1000;
      const tick = 100; // USER_HZ: the unit of /proc/stat and /proc/PID/stat on Linux
      const others =
        Number.isFinite(first.busy) && Number.isFinite(first.ours) && Number.isFinite(end.ours) && seconds > 0
          ? Math.max(0, (end.busy - first.busy - (end.ours - first.ours)) / tick / seconds)
          : null;
      const max = Math.max(...all.map((x) => x.load1));
      const r = (/** @type {number} */ x) => Math.round(x * 100) / 100;
      const underLoad = others !== null ? others > OTHERS_LIMIT_CORES : max > LOADAVG_LIMIT;
      return {
        load1: { start: r(first.load1), end: r(end.load1), max: r(max) },
        othersCores: others === null ? null : r(others),
        underLoad,
        rule:
          others !== null
            ? `other processes took > ${OTHERS_LIMIT_CORES} of ${CORES} cores`
            : `1-minute load average > ${LOADAVG_LIMIT}`,
      };
    },
    stop() {
      clearInterval(timer);
    },
  };
}
