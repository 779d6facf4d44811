/**
 * The one verb a command line runs, set on the program before its noun registers: the change
 * registry then builds only that verb's command (and loads only its declaration) instead of
 * every verb of the noun. Help, or a verb the noun does not have, builds them all, so what help
 * and commander's "did you mean" list is unchanged.
 */
import type { Command } from 'commander';

const verbs = new WeakMap<Command, string>();

export function setVerbToRun(program: Command, verb: string | undefined): void {
  if (verb === undefined) verbs.delete(program);
  else verbs.set(program, verb);
}

/** The verb to build under `noun` alone, if any (none for a noun of another program, e.g. completion's). */
export function verbToBuild(noun: Command): string | undefined {
  return noun.parent === null ? undefined : verbs.get(noun.parent);
}
