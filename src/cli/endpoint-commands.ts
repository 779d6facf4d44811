/**
 * The top-level commands the endpoint table declares (a row's `command`, src/domain/endpoints.ts),
 * listed in src/cli/commands.ts beside the hand-written ones; each command's module
 * (endpoint-command.ts) loads only when it runs. A new read endpoint gets its command here, with
 * no file of its own.
 */
import { ENDPOINTS, type EndpointRow } from '../domain/endpoints.js';
import type { CommandEntry } from './commands.js';

/** The top-level commands of the rows that declare one (src/cli/commands.ts lists them with its own). */
export function endpointCommands(rows: readonly EndpointRow[] = Object.values(ENDPOINTS)): CommandEntry[] {
  return rows.flatMap((row) =>
    row.command === undefined
      ? []
      : [
          {
            name: row.command.name,
            summary: row.command.description,
            load: async () => (await import('./endpoint-command.js')).endpointModule(row),
          },
        ],
  );
}
