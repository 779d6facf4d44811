/**
 * `udcli __complete <kind>`: the dynamic values the completion scripts ask for while the user
 * presses Tab, one a line. Hidden, and fast: it reads the config file directly (no `conf`, no
 * other command module) and never fails loudly, since its output lands in a completion menu.
 * Kinds: `profiles` (the built-in one first, then the stored ones), `snapshots` (the local
 * sandbox's, by listing its data directory: nothing is started or opened), and `line -- WORDS`:
 * what Tab offers after WORDS (the last one is the word being completed), from the command tree
 * of this udcli, for which only the module of the command typed is loaded. An unknown kind prints
 * nothing.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { configFilePath } from '../../../config/paths.js';
import { profileNames } from '../../../config/resolve.js';
import { dataDir } from '../../../sandbox/paths.js';
import { snapshotDir, snapshotNames } from '../../../sandbox/snapshot-names.js';
import type { Factory } from '../../../ops/factory.js';
import { addVerb, type Verb } from '../../verb.js';

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

/** What Tab offers after the words (`udcli` left out); nothing when the words do not build a program. */
async function completeLine(factory: Factory, words: readonly string[]): Promise<string[]> {
  const [{ answer, answerLines }, { treeOf }, { buildProgram }, { scanArgv }] = await Promise.all([
    import('../../completion/answer.js'),
    import('../../completion/tree.js'),
    import('../../program.js'),
    import('../../global-options.js'),
  ]);
  const typed = words.slice(0, -1);
  // The command typed, every verb of it (not only the one a run would build) and every global option.
  const scan = scanArgv(typed);
  const noun = scan.command === 'help' ? scan.helpTarget : scan.command;
  try {
    const program = await buildProgram(noun === undefined ? [] : [noun], factory, { onGlobals: () => {} });
    const env = factory.io.env;
    const dynamic = (source: { kind: 'profiles' | 'snapshots' }) => KINDS[source.kind]!(env);
    return answerLines(answer(treeOf(program), typed, words.at(-1) ?? '', dynamic));
  } catch {
    // An unknown command (`udcli batch`): nothing to offer, and nothing to say in a completion menu.
    return [];
  }
}

export const COMPLETE: Verb = {
  name: '__complete',
  hidden: true,
  anyWords: true,
  description: 'values for the shell completion scripts',
  arguments: [
    ['[kind]', 'profiles, snapshots or line'],
    ['[words...]', 'for line: the words typed after udcli, after --'],
  ],
  run: async (factory, kind: string | undefined, words: string[]) => {
    const values =
      kind === 'line'
        ? await completeLine(factory, words)
        : kind !== undefined && Object.hasOwn(KINDS, kind)
          ? KINDS[kind]!(factory.io.env)
          : [];
    if (values.length === 0) return;
    const out = await factory.output();
    out.text(values.join('\n'));
  },
};

export function register(program: Command, factory: Factory): void {
  addVerb(program, factory, COMPLETE);
}
