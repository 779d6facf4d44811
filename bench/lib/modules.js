/**
 * What a process loads, for comparing udcli's one-shot path with its reference: the packages
 * (by name, from node_modules) and the node: built-ins, as modules-preload.js recorded them.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const MODULES_PRELOAD = fileURLToPath(new URL('./modules-preload.js', import.meta.url));

/**
 * @param {string} file  what modules-preload.js wrote
 * @returns {{ packages: string[], builtins: string[], files: number }}
 */
export function loadedDependencies(file) {
  const packages = new Set();
  const builtins = new Set();
  let files = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    if (line.startsWith('node:')) {
      builtins.add(line);
      continue;
    }
    if (!line.startsWith('file://')) continue;
    files++;
    const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line);
    if (m) packages.add(m[1]);
  }
  return { packages: [...packages].sort(), builtins: [...builtins].sort(), files };
}

/**
 * What one side loads that the other does not.
 * @param {ReturnType<typeof loadedDependencies>} a
 * @param {ReturnType<typeof loadedDependencies>} b
 */
export function dependencyDifference(a, b) {
  const only = (/** @type {string[]} */ x, /** @type {string[]} */ y) => x.filter((v) => !y.includes(v));
  return {
    onlyFirst: [...only(a.packages, b.packages), ...only(a.builtins, b.builtins)],
    onlySecond: [...only(b.packages, a.packages), ...only(b.builtins, a.builtins)],
  };
}
