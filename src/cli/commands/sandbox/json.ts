/** `--json` on the verb, or the global `--json`/`-o json` (which the root program may consume first). */
import type { Factory } from '../../../ops/factory.js';

export function wantsJson(factory: Factory, flag: boolean | undefined): boolean {
  if (flag === true) return true;
  try {
    return factory.globals().output === 'json';
  } catch {
    return false;
  }
}
