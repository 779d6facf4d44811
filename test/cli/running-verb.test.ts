/**
 * A command line that runs one verb builds that verb's command alone (src/cli/running-verb.ts);
 * help in any form, or a verb the noun lacks, builds every verb, so help and commander's
 * suggestions are those of the whole noun.
 */
import { describe, expect, it } from 'vitest';
import { verbToRun } from '../../src/cli/global-options.js';
import { buildProgram } from '../../src/cli/program.js';
import type { Factory } from '../../src/ops/factory.js';
import { fakeIO } from '../output/fake-io.js';
import { ACHIEVEMENTS } from '../../src/cli/commands/achievements/index.js';
import { PRODUCTS } from '../../src/cli/commands/products/index.js';
import { ownVerbs, verbsOf } from './registry.js';

const UID = '01e528d59829836fd23b09085b56edab';

/** The subcommands the program built under the argv's noun. */
async function built(argv: string[]): Promise<string[]> {
  const factory = { io: fakeIO().io } as unknown as Factory;
  const program = await buildProgram(argv, factory, { onGlobals: () => {} });
  const noun = program.commands.find((c) => c.name() === argv.find((a) => !a.startsWith('-') && a !== 'help'));
  return (noun?.commands ?? []).map((c) => c.name()).filter((name) => name !== 'help');
}

describe('the verb a command line runs', () => {
  it.each([
    [['achievements', 'inc', UID, 'X'], 'inc'],
    [['--profile', 'live', 'achievements', 'inc', UID], 'inc'],
    [['-vq', 'saves', 'set', UID, 'k', '-'], 'set'],
    [['achievements', 'inc', '--help'], undefined],
    [['achievements', '-h', 'inc'], undefined],
    [['help', 'achievements', 'inc'], undefined],
    [['achievements'], undefined],
    [['sandbox', 'exec', '--', 'udcli', '--help'], 'exec'],
  ])('%j: %s', (argv, verb) => {
    expect(verbToRun(argv)).toBe(verb);
  });

  it("builds a declared change alone, none for the noun's own verb, and all of them for help or a typo", async () => {
    const own = ownVerbs(ACHIEVEMENTS);
    expect(own).toEqual(expect.arrayContaining(['defs', 'list']));
    expect(await built(['achievements', 'inc', UID, 'LEVEL_10'])).toEqual([...own, 'inc']);
    expect(await built(['achievements', 'list', UID])).toEqual(own);
    expect(await built(['products', 'take', UID, 'sku'])).toEqual([...ownVerbs(PRODUCTS), 'take']);
    const all = await verbsOf(ACHIEVEMENTS);
    expect(all).toEqual(expect.arrayContaining(['inc', 'delete']));
    expect(await built(['achievements', '--help'])).toEqual(all);
    expect(await built(['achievements', 'inc', '--help'])).toEqual(all);
    expect(await built(['help', 'achievements', 'inc'])).toEqual(all);
    expect(await built(['achievements', 'incc', UID])).toEqual(all);
  });
});
