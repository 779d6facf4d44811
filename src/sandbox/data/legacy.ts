/**
 * Data files written before the platform's JavaScript pages were read say `state: Started` and
 * `completed_date: null` for a quest not completed. They keep loading: the values are rewritten
 * to the platform's words (`In Progress`, and no completed date, which is sent as
 * `0000-00-00 00:00:00`), and the reader warns once per file, naming the first such line.
 */
import { LEGACY_IN_PROGRESS } from '../domain/achievements.js';
import type { DataFile } from './model.js';
import type { DataPath } from './validate.js';

/** Rewrites the old words in place; returns the path of each value rewritten, in file order. */
export function upgradeLegacyProgress(data: DataFile): DataPath[] {
  const found: DataPath[] = [];
  (data.users ?? []).forEach((u, i) => {
    for (const [gameId, entries] of Object.entries(u.progress ?? {})) {
      for (const [developerId, entry] of Object.entries(entries)) {
        if (typeof entry !== 'object' || entry === null) continue;
        const raw = entry as { state?: string; completed_date?: unknown };
        const at: DataPath = ['users', i, 'progress', gameId, developerId];
        if (raw.state === LEGACY_IN_PROGRESS) {
          found.push([...at, 'state']);
          raw.state = 'In Progress';
        }
        if (raw.completed_date === null) {
          found.push([...at, 'completed_date']);
          delete raw.completed_date;
        }
      }
    }
  });
  return found;
}

/** The one warning line of a file with old words: the first place, and how many there are. */
export function legacyWarning(file: string, first: string, line: number | undefined, count: number): string {
  const more = count > 1 ? ` (and ${count - 1} more like it)` : '';
  return (
    `${file}: ${first}${line ? ` (line ${line})` : ''}${more}: "state: Started" is read as "In Progress" and ` +
    '"completed_date: null" as "0000-00-00 00:00:00" (the platform\'s words; `udcli sandbox export` writes them)'
  );
}
