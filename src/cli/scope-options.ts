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

/** `--qty` of `products give` and `take`, which count it alike, with their examples. */
export const QTY_OPTION: ChangeOption = {
  flags: '--qty <n>',
  description: 'how many, an integer ≥ 1: packs when the sku names a pack (gems:500), else units',
  default: '1',
};
export const QTY_EXAMPLES: readonly string[] = [
  'UID gems:500 --qty 2   # 2 packs: 1,000 units',
  'UID gems --qty 30       # 30 units',
];
