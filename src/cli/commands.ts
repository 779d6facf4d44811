/**
 * The top-level commands. Only the entry for the command being run is loaded, so start-up
 * stays small; `--help` lists them from this table without loading any.
 */
import type { CommandModule } from './factory.js';

export interface CommandEntry {
  name: string;
  /** One line for `udcli --help`. */
  summary: string;
  load: () => Promise<CommandModule>;
}

export const COMMANDS: CommandEntry[] = [
  // Each command owner adds its row here, e.g.
  // { name: 'user', summary: 'Look a user up by uid or username', load: () => import('./commands/user/index.js') },
];
