/**
 * `udcli __complete <kind>`: the dynamic values the completion scripts ask for while the user
 * presses Tab, one a line. Hidden, and fast: it reads the config file directly (no `conf`, no
 * other command module) and never fails loudly, since its output lands in a completion menu.
 * Kinds: `profiles` (the built-in one first, then the stored ones), `snapshots` (the local
 * sandbox's, by listing its data directory: nothing is started or opened). An unknown kind prints
 * nothing.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { configFilePath } from '../../../config/paths.js';
import { profileNames } from '../../../config/resolve.js';
import { dataDir } from '../../../sandbox/paths.js';
import { snapshotDir, snapshotNames } from '../../../sandbox/snapshot-names.js';
import type { Factory } from '../../../ops/factory.js';

/** Names a shell can take as one word (profile names are letters, digits, . _ -). */
const SAFE_NAME = /^[A-Za-z0-9._-]+$/;

/** The profile names in the config file, without validating anything else in it. */
export function completeProfiles(env: NodeJS.ProcessEnv): string[] {
  let stored: string[] = [];
  try {
    const raw = JSON.parse(readFileSync(configFilePath(env), 'utf8')) as { profiles?: unknown } | null;
    const profiles = raw?.profiles;
    if (typeof profiles === 'object' && profiles !== null && !Array.isArray(profiles)) stored = Object.keys(profiles);
  } catch {
    // no file, unreadable or not JSON: the built-in profile only
  }
  return profileNames({ profiles: Object.fromEntries(stored.filter((n) => SAFE_NAME.test(n)).map((n) => [n, {}])) });
}

/** The local sandbox's snapshot names (`udcli sandbox snapshot list` without reading the files). */
export function completeSnapshots(env: NodeJS.ProcessEnv): string[] {
  try {
    return snapshotNames(snapshotDir(dataDir(env)));
  } catch {
    return [];
  }
}

const KINDS: Record<string, (env: NodeJS.ProcessEnv) => string[]> = {
  profiles: completeProfiles,
  snapshots: completeSnapshots,
};

export function register(program: Command, factory: Factory): void {
  program
    .command('__complete', { hidden: true })
    .description('values for the shell completion scripts')
    .argument('[kind]')
    .allowExcessArguments()
    .allowUnknownOption()
    .action(async (kind: string | undefined) => {
      const values = kind !== undefined && Object.hasOwn(KINDS, kind) ? KINDS[kind]!(factory.io.env) : [];
      if (values.length === 0) return;
      const out = await factory.output();
      out.text(values.join('\n'));
    });
}
