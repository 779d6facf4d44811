/** `--game` and `--type`: the game (or website) a command's achievements and products belong to. */
import type { Command } from 'commander';
import type { ChangeOption } from './change-registry.js';

export type { ScopeOptions } from '../ops/args.js';

export const SCOPE_OPTIONS: readonly ChangeOption[] = [
  { flags: '--game <id>', description: "the game (default: the profile's game_id)" },
  { flags: '--type <type>', description: "Game or Website (default: the profile's type, else Game)" },
];

/** Adds them to a command that is no declared change (`achievements list`, `products list`). */
export function addScopeOptions(cmd: Command): Command {
  for (const o of SCOPE_OPTIONS) cmd.option(o.flags, o.description);
  return cmd;
}
