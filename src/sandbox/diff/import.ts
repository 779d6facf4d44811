/**
 * `udcli sandbox import FILE.har`: the state a recording shows, as last seen (the player's
 * profile, friends, quests and progress with their recorded states and dates, products held,
 * saves), as a data file that `sandbox start --data` takes at once: read → seed, the first half
 * of the diff's pipeline. Each game gets a new sandbox key (a recorded key is never copied);
 * personal fields beyond what the sandbox needs are left out unless asked for.
 */
import type { DataFile } from '../data/model.js';
import { learnRecordings } from './learn.js';
import { seedData } from './seed.js';

export interface Imported {
  data: DataFile;
  /** Platform exchanges whose reply body the recording does not hold: what they showed is not in `data`. */
  withoutBody: Array<{ file: string; entry: number }>;
}

export async function importRecordings(
  files: readonly string[],
  options: { keepPersonal: boolean },
): Promise<Imported> {
  const { seen, withoutBody } = await learnRecordings(files, 'last');
  return {
    data: seedData(seen, {
      signing: 'agi',
      keepPersonal: options.keepPersonal,
      dates: true,
      label: 'made by udcli sandbox import',
    }).data,
    withoutBody,
  };
}
