/**
 * Reading recordings for what they show (the first step of both `sandbox diff` and `sandbox
 * import`): every platform exchange with a recorded reply body observed, in order. A recording
 * without one is refused, naming the hosts it did hold, or saying that its bodies were left out.
 */
import { UsageError } from '../../errors.js';
import { readHar } from '../../har/reader.js';
import { classify } from './exchange.js';
import { Observations, type Mode } from './observe.js';

export interface Learned {
  seen: Observations;
  /** Platform exchanges whose reply body the recording does not hold: they showed nothing. */
  withoutBody: Array<{ file: string; entry: number }>;
}

/** `first`: the state before the recording (diff seeds it); `last`: as last seen (import). */
export async function learnRecordings(files: readonly string[], mode: Mode): Promise<Learned> {
  const seen = new Observations(mode);
  let platform = 0;
  const withoutBody: Learned['withoutBody'] = [];
  const otherHosts = new Set<string>();
  for (const file of files) {
    await readHar(file, (entry, index) => {
      const c = classify(entry, index);
      if (c.kind === 'platform') {
        platform++;
        // An empty text in place of a body left out would read as "the platform showed nothing".
        if (c.exchange.reply.recorded) seen.observe(c.exchange);
        else withoutBody.push({ file, entry: index });
      } else if (c.host !== undefined) otherHosts.add(c.host);
    });
  }
  if (platform === 0) {
    const hosts = [...otherHosts].slice(0, 10).join(', ');
    throw new UsageError(
      `no platform exchange (a path under /services/rest/v1/) in ${files.join(', ')}${hosts ? `; its hosts: ${hosts}` : '; it holds no requests'}`,
    );
  }
  if (withoutBody.length === platform) {
    throw new UsageError(
      `nothing to read in ${files.join(', ')}: none of its ${platform} platform replies has its body recorded (save the HAR with content, or record with udcli --har)`,
    );
  }
  return { seen, withoutBody };
}
