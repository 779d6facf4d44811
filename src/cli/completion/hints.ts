/**
 * Values for options and arguments that commands validate themselves (case-insensitively, with
 * their own messages) rather than through commander's `.choices()`, which would make them
 * case-sensitive. An option declared with `.choices()` needs no row: its `argChoices` are used.
 * The lists come from the modules that validate the values, so they cannot drift apart; the
 * completion test fails when a row matches no option or argument any more.
 */
import { FILTERS, ORDERS, SORTS } from '../../domain/contract.js';
import type { SeedMode } from '../commands/sandbox/options.js';
import { HTTP_METHODS } from '../../ops/args.js';
import { OUTPUT_FORMATS } from '../global-options.js';
import { PROFILE_KEYS, SIGNING_SCHEMES } from '../../config/keys.js';
import type { ParentType } from '../../domain/types.js';
import type { ValueSource } from './tree.js';

export interface ValueHint {
  /** The command path without `udcli` (`achievements list`), '' for the program, '*' for any. */
  command: string;
  /** A flag of the option (`--order`), or the argument's index. */
  option?: string;
  argument?: number;
  values: ValueSource;
}

// Records keyed by the type: adding a value to the type without adding it here fails to compile.
const PARENT_TYPES: Record<ParentType, true> = { Game: true, Website: true };
const SEED_MODES: Record<SeedMode, true> = { demo: true, none: true };

const choices = (values: readonly string[]): ValueSource => ({ kind: 'choices', values });
const PROFILES: ValueSource = { kind: 'profiles' };
const SNAPSHOTS: ValueSource = { kind: 'snapshots' };

export const VALUE_HINTS: readonly ValueHint[] = [
  { command: '', option: '--output', values: choices(OUTPUT_FORMATS) },
  // The global --profile, and `audit --profile` (changes made under a profile).
  { command: '*', option: '--profile', values: PROFILES },
  { command: '*', option: '--type', values: choices(Object.keys(PARENT_TYPES)) },
  { command: 'profile add', option: '--signing-scheme', values: choices(SIGNING_SCHEMES) },
  { command: 'achievements list', option: '--order', values: choices(ORDERS) },
  { command: 'achievements list', option: '--sort', values: choices(SORTS) },
  { command: 'achievements list', option: '--filter', values: choices(FILTERS) },
  { command: 'sandbox start', option: '--seed', values: choices(Object.keys(SEED_MODES)) },
  { command: 'sandbox exec', option: '--seed', values: choices(Object.keys(SEED_MODES)) },
  { command: 'sandbox reset', option: '--seed', values: choices(Object.keys(SEED_MODES)) },
  { command: 'api', argument: 0, values: choices(HTTP_METHODS) },
  { command: 'config get', argument: 0, values: choices(PROFILE_KEYS) },
  { command: 'config set', argument: 0, values: choices(PROFILE_KEYS) },
  { command: 'config unset', argument: 0, values: choices(PROFILE_KEYS) },
  { command: 'profile use', argument: 0, values: PROFILES },
  { command: 'profile show', argument: 0, values: PROFILES },
  { command: 'profile remove', argument: 0, values: PROFILES },
  { command: 'sandbox snapshot restore', argument: 0, values: SNAPSHOTS },
  { command: 'sandbox snapshot delete', argument: 0, values: SNAPSHOTS },
  { command: 'sandbox exec', option: '--snapshot', values: SNAPSHOTS },
];
