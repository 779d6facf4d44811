/**
 * Reading recordings for what they show (the first step of both `sandbox diff` and `sandbox
 * import`): every platform exchange observed, in order; a recording without one is refused,
 * naming the hosts it did hold.
 */
import { UsageError } from '../../errors.js';
import { readHar } from '../../har/reader.js';
import { classify } from './exchange.js';
import { Observations, type Mode } from './observe.js';

/** `first`: the state before the recording (diff seeds it); `last`: as last seen (import). */
export async function learnRecordings(files: readonly string[], mode: Mode): Promise<Observations> {
  const seen = new Observations(mode);
  let platform = 0;
  const otherHosts = new Set<string>();
  for (const file of files) {
    await readHar(file, (entry, index) => {
      const c = classify(entry, index);
      if (c.kind === 'platform') {
        platform++;
        seen.observe(c.exchange);
      } else if (c.host !== undefined) otherHosts.add(c.host);
    });
  }
  if (platform === 0) {
    const hosts = [...otherHosts].slice(0, 10).join(', ');
    throw new UsageError(`no platform exchange (a path under /services/rest/v1/) in ${files.join(', ')}${hosts ? `; its hosts: ${hosts}` : '; it holds no requests'}`);
  }
  return seen;
}
