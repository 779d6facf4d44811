/**
 * The mutating commands (`achievements inc`), read from the names of the change declaration
 * files in cli/changes/ (`achievements-inc.ts`, one a verb: src/cli/change-registry.ts), so the
 * layers below the CLI can name them (the @FILE hint) without loading any of them.
 */
import { readdirSync } from 'node:fs';

/** A declaration's file name: `achievements-inc.js` (`.ts` when run from the sources). */
export const DECLARATION_FILE = /^([a-z]+)-([a-z][a-z-]*)\.(?:js|ts)$/;

/** The declaration files, in name order: [file, noun, verb]. */
export function declarationFiles(): RegExpExecArray[] {
  return readdirSync(new URL('./cli/changes/', import.meta.url))
    .sort()
    .map((name) => DECLARATION_FILE.exec(name))
    .filter((m): m is RegExpExecArray => m !== null);
}

/** `achievements delete|inc|reset|set and products give|take`: the commands that take @FILE, by noun. */
export function batchCommandsPhrase(batchVerbs: ReadonlyArray<readonly [noun: string, verb: string]>): string {
  const byNoun = new Map<string, string[]>();
  for (const [noun, verb] of batchVerbs) byNoun.set(noun, [...(byNoun.get(noun) ?? []), verb]);
  const parts = [...byNoun].map(([noun, verbs]) => `${noun} ${verbs.join('|')}`);
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? '');
}
