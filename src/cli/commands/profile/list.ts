import {
  activeProfileName,
  displayValue,
  profileLayers,
  profileNames,
  readConfig,
  resolveSettings,
  BUILT_IN_PROFILE,
} from '../../../config/index.js';
import { followBuiltIn } from './show.js';
import type { Column } from '../../../output/types.js';
import type { Factory } from '../../../ops/factory.js';

export interface ProfileRow {
  name: string;
  active: boolean;
  builtin: boolean;
  base_url: string | null;
  game_id: string | null;
  /** The built-in profile: which sandbox game it uses and why (absent: the default, or a stored profile). */
  game_why?: string;
  production: boolean;
}

export const PROFILE_LIST_COLUMNS: ReadonlyArray<Column<ProfileRow>> = [
  { key: 'active', header: '', cell: (r) => (r.active ? '*' : '') },
  { key: 'name', header: 'NAME', cell: (r) => r.name },
  { key: 'base_url', header: 'BASE URL', cell: (r) => r.base_url ?? '' },
  {
    key: 'game_id',
    header: 'GAME ID',
    cell: (r) =>
      r.game_why === undefined ? (r.game_id ?? '') : `${r.game_id ?? ''} (${r.game_why.replace(/^game \S+, /, '')})`,
  },
  { key: 'production', header: 'PRODUCTION', cell: (r) => (r.production ? 'yes' : '') },
];

/** The base URL as every URL is shown: a password in it redacted. */
function displayOrNull(url: string | undefined): string | null {
  return url === undefined ? null : displayValue('base_url', url);
}

export async function run(factory: Factory): Promise<void> {
  const env = factory.io.env;
  const { data } = readConfig(env);
  const active = activeProfileName({ profile: factory.globals().profile }, env, data).name;
  // The built-in profile as its commands will use it: the game and URL of the sandbox it follows.
  const builtIn = resolveSettings({ profile: BUILT_IN_PROFILE }, env, data);
  await followBuiltIn(builtIn, env);
  const rows: ProfileRow[] = profileNames(data).map((name) => {
    const { stored, defaults } = profileLayers(name, env, data);
    if (name === BUILT_IN_PROFILE) {
      return {
        name,
        active: name === active,
        builtin: true,
        base_url: displayOrNull(builtIn.baseUrl),
        game_id: builtIn.gameId ?? null,
        ...(builtIn.followed === undefined ? {} : { game_why: builtIn.followed }),
        production: builtIn.production,
      };
    }
    return {
      name,
      active: name === active,
      builtin: false,
      base_url: displayOrNull(stored.base_url ?? defaults.base_url),
      game_id: stored.game_id ?? defaults.game_id ?? null,
      production: stored.production ?? defaults.production ?? false,
    };
  });
  const out = await factory.output();
  await out.list(rows, PROFILE_LIST_COLUMNS);
}
