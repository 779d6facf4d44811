/**
 * The top-level commands. Only the entry for the command being run is loaded, so start-up
 * stays small; `--help` lists them from this table without loading any.
 */
import type { CommandModule } from '../ops/factory.js';
import { endpointCommands } from './endpoint-commands.js';

export interface CommandEntry {
  name: string;
  /**
   * One line for `udcli --help`; for a noun with mutating verbs, made from their names in help's
   * order (the change registry's declarations), so a new verb is listed without an edit here.
   */
  summary: string | ((changeVerbs: readonly string[]) => string);
  load: () => Promise<CommandModule>;
  /** Left out of `udcli --help` (internal commands such as `__complete`). */
  hidden?: boolean;
}

/** `give and take`, `inc, set and reset`. */
function andList(words: readonly string[]): string {
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : (words[0] ?? '');
}

export const COMMANDS: CommandEntry[] = [
  // Each command owner adds its row here, e.g.
  // { name: 'user', summary: 'Look a user up by uid or username', load: () => import('./commands/user/index.js') },
  {
    name: 'auth',
    summary: 'Verify user tokens; get test tokens from the token generator',
    load: () => import('./commands/auth/index.js'),
  },
  { name: 'user', summary: 'Look a user up by uid or username', load: () => import('./commands/user/index.js') },
  { name: 'friends', summary: "List a user's friends", load: () => import('./commands/friends/index.js') },
  {
    name: 'achievements',
    summary: (verbs) => `Achievement definitions; read, ${verbs.join(', ')} user progress`,
    load: () => import('./commands/achievements/index.js'),
  },
  {
    name: 'products',
    summary: (verbs) => `List, ${andList(verbs)} the products a user holds`,
    load: () => import('./commands/products/index.js'),
  },
  {
    name: 'saves',
    summary: (verbs) => `List, read, ${andList(verbs)} a player's game saves`,
    load: () => import('./commands/saves/index.js'),
  },
  {
    name: 'api',
    summary: 'Send any request and print the reply as received',
    load: () => import('./commands/api/index.js'),
  },
  {
    name: 'audit',
    summary: 'Show the audit log of changes made with udcli',
    load: () => import('./commands/audit/index.js'),
  },
  {
    name: 'approve',
    summary: "Approve another operator's plan (--plan FILE) of a run over the profile's approval line",
    load: () => import('./commands/approve/index.js'),
  },
  {
    name: 'profile',
    summary: 'Add, list, switch, show and remove profiles',
    load: () => import('./commands/profile/index.js'),
  },
  {
    name: 'config',
    summary: "Get and set the active profile's keys; print the config file path",
    load: () => import('./commands/config/index.js'),
  },
  {
    name: 'doctor',
    summary: 'Check config, reachability, api key and its game, signing and clock',
    load: () => import('./commands/doctor/index.js'),
  },
  {
    name: 'sandbox',
    summary:
      'Run the local sandbox service (start, stop, status, logs, reset, info, seed, exec, play, game, init, schema, load, export, snapshot, clock, diff, import)',
    load: () => import('./commands/sandbox/index.js'),
  },
  {
    name: 'completion',
    summary: 'Print the shell completion script (bash, zsh or fish)',
    load: () => import('./commands/completion/index.js'),
  },
  ...endpointCommands(),
  // Called by the completion scripts while the user presses Tab: profile names, fast.
  {
    name: '__complete',
    summary: 'Values for the completion scripts',
    load: () => import('./commands/completion/complete.js'),
    hidden: true,
  },
];
