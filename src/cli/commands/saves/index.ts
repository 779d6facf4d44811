/** `udcli saves list|get|set|erase`: a player's game saves (SERVICE.md: Game saves). */
import type { Command } from 'commander';
import { addWhyOptions } from '../../../batch/flags.js';
import type { Factory } from '../../../ops/factory.js';

export interface ChangeOptions {
  authToken?: string;
}

const UID = '01e528d59829836fd23b09085b56edab';

const TOKEN_HELP = `
The player's auth token: --auth-token T or UDCLI_AUTH_TOKEN. Against the sandbox (the built-in
sandbox profile, or a profile whose site answers the sandbox login) udcli gets one itself: it
logs in to the site as the player and asks the token generator for the profile's game (-v shows
it, redacted). Elsewhere, without a token, it stops with exit 2 before anything is sent.`;

function tokenOption(cmd: Command): Command {
  return cmd.option('--auth-token <token>', "the player's auth token for the game (else UDCLI_AUTH_TOKEN; got from the sandbox there)");
}

export function register(program: Command, factory: Factory): void {
  const saves = program
    .command('saves')
    .description("A player's game saves in the profile's game: list, read, save, erase")
    .addHelpText('after', `\nExample:\n  $ udcli saves list ${UID}`);

  saves
    .command('list')
    .description('Every save of the user in the game (KEY, SIZE and the start of each VALUE; JSON: {key: value})')
    .argument('<user>', 'a uid (32 hex digits) or a username')
    .addHelpText('after', `\nExamples:\n  $ udcli saves list ${UID}\n  $ udcli saves list demo_player --json`)
    .action(async (uid: string) => {
      const { run } = await import('./list.js');
      await run(factory, { uid });
    });

  saves
    .command('get')
    .description('The saved value: pretty-printed when it is JSON, as saved otherwise; exit 4 when nothing is saved')
    .argument('<user>', 'a uid (32 hex digits) or a username')
    .argument('<key>', 'the save: 1 to 64 of A-Z a-z 0-9 _ . -')
    .addHelpText('after', `\n-o json prints the value as JSON (a JSON string when it is not JSON).\n\nExamples:\n  $ udcli saves get ${UID} slot1\n  $ udcli saves get ${UID} slot1 > slot1.json`)
    .action(async (uid: string, key: string) => {
      const { run } = await import('./get.js');
      await run(factory, { uid, key });
    });

  addWhyOptions(tokenOption(
    saves
      .command('set')
      .description('Save a value under a key (creates or replaces; signed POST, the value in the form body)')
      .argument('<user>', 'a uid (32 hex digits) or a username')
      .argument('<key>', 'the save: 1 to 64 of A-Z a-z 0-9 _ . -')
      .argument('<value>', 'the value itself, @FILE to read a file, or - to read standard input (at most 256 KiB)'),
  ))
    .addHelpText(
      'after',
      `
Prints what changed and the command that undoes it, and appends a line to the audit log. The
undo restores the earlier value (or erases the key when there was none); an earlier value too
long for a command line (over 200 characters, several lines, or starting with @ or -) is
written to a file (mode 0600) under the config directory's saves-undo/, and the undo names it
as @FILE.
${TOKEN_HELP}

Examples:
  $ udcli saves set ${UID} slot1 '{"level":3}'
  $ udcli saves set ${UID} slot1 @slot1.json
  $ jq -c . slot1.json | udcli saves set ${UID} slot1 -`,
    )
    .action(async (uid: string, key: string, value: string, opts: ChangeOptions) => {
      const { run } = await import('./set.js');
      await run(factory, { uid, key, value }, opts);
    });

  addWhyOptions(tokenOption(
    saves
      .command('erase')
      .description('Erase a save (signed; asks first on a terminal, needs --yes where it cannot ask)')
      .argument('<user>', 'a uid (32 hex digits) or a username')
      .argument('<key>', 'the save'),
  ))
    .addHelpText('after', `\nThe undo saves the erased value again.\n${TOKEN_HELP}\n\nExample:\n  $ udcli saves erase ${UID} slot1 --yes`)
    .action(async (uid: string, key: string, opts: ChangeOptions) => {
      const { run } = await import('./erase.js');
      await run(factory, { uid, key }, opts);
    });
}
