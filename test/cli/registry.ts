/**
 * The commands a noun has, for tests that list them: read from its declaration and the change
 * registry (src/cli/changes/ and what a test registered), so a new verb needs no edit in any test.
 */
import { changeVerbs, loadChanges } from '../../src/cli/change-registry.js';
import type { Verb } from '../../src/cli/verb.js';
import { declarationFiles } from '../../src/ops/args.js';

/** Every declared change (`achievements inc`, ...), of the nouns with a declaration file. */
export async function declaredCommands(): Promise<string[]> {
  const nouns = [...new Set(declarationFiles().map((m) => m[1]!))];
  const all = await Promise.all(nouns.map(async (noun) => (await loadChanges(noun)).map((d) => d.command)));
  return all.flat();
}

/** The verbs a noun lists: its own (read) verbs, as its `Verb` declares them, then its changes in help's order. */
export async function verbsOf(noun: Verb): Promise<string[]> {
  return [...ownVerbs(noun), ...(await changeVerbs(noun.name))];
}

/** The verbs a noun declares itself (`defs`, `list`), not changes. */
export function ownVerbs(noun: Verb): string[] {
  return (noun.verbs ?? []).map((v) => v.name);
}
