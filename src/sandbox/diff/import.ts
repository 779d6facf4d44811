/**
 * `udcli sandbox import FILE.har`: the state a recording shows, as last seen (the player's
 * profile, friends, quests and progress, products held, saves), as a data file that `sandbox
 * start --data` takes at once: read → seed, the first half of the diff's pipeline. Each game
 * gets a new sandbox key (a recorded key is never copied); personal fields beyond what the
 * sandbox needs are left out unless asked for.
 */
import { UsageError } from '../../errors.js';
import { readHar } from '../../har/reader.js';
import type { DataFile } from '../data/model.js';
import { classify } from './exchange.js';
import { Observations } from './observe.js';
import { seedData } from './seed.js';

export async function importRecordings(files: readonly string[], options: { keepPersonal: boolean }): Promise<DataFile> {
  const seen = new Observations('last');
  let platform = 0;
  const hosts = new Set<string>();
  for (const file of files) {
    await readHar(file, (entry, index) => {
      const c = classify(entry, index);
      if (c.kind === 'platform') {
        platform++;
        seen.observe(c.exchange);
      } else if (c.host !== undefined) hosts.add(c.host);
    });
  }
  if (platform === 0) {
    throw new UsageError(`no platform exchange (a path under /services/rest/v1/) in ${files.join(', ')}${hosts.size ? `; its hosts: ${[...hosts].slice(0, 10).join(', ')}` : ''}`);
  }
  return seedData(seen, { signing: 'agi', keepPersonal: options.keepPersonal, label: 'made by udcli sandbox import' }).data;
}
