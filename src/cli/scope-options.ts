/** `--game` and `--type`: the game (or website) a command's achievements and products belong to. */
import type { ChangeOption } from './change-registry.js';
import type { VerbOption } from './verb.js';

export type { ScopeOptions } from '../ops/args.js';

export const SCOPE_OPTIONS: readonly ChangeOption[] = [
  { flags: '--game <id>', description: "the game (default: the profile's game_id)" },
  { flags: '--type <type>', description: "Game or Website (default: the profile's type, else Game)" },
];

/** The same, for a command that is no declared change (`achievements list`, `products list`). */
export const SCOPE_VERB_OPTIONS: readonly VerbOption[] = SCOPE_OPTIONS.map((o) => [o.flags, o.description] as const);
