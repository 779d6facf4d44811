/**
 * The commands the change registry declares, for tests that list them: read from the registry
 * (src/cli/changes/ and what a test registered), so a new verb needs no edit in any test.
 */
import { changeVerbs, loadChanges } from '../../src/cli/change-registry.js';
import { declarationFiles } from '../../src/ops/args.js';

/** Every declared change (`achievements inc`, ...), of the nouns with a declaration file. */
export async function declaredCommands(): Promise<string[]> {
  const nouns = [...new Set(declarationFiles().map((m) => m[1]!))];
  const all = await Promise.all(nouns.map(async (noun) => (await loadChanges(noun)).map((d) => d.command)));
  return all.flat();
}

/** The verbs a noun lists: its own (read) verbs, then its declared changes in help's order. */
export async function verbsOf(noun: string, own: readonly string[]): Promise<string[]> {
  return [...own, ...(await changeVerbs(noun))];
}
