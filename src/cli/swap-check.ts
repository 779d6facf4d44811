/**
 * The swapped-arguments check of `<user> <key>` commands, run by commander before the action:
 * before the batch options are checked (`reset LEVEL_10 @testers.txt --journal run.jsonl` is a
 * swap, not "--journal applies only to a batch") and before anything is read or sent.
 */
import type { Command } from 'commander';
import { rejectSwapped } from '../ops/args.js';

/** Adds the check to `cmd` (a subcommand such as `achievements reset`); `keyName` names its second argument. */
export function checkSwapped(cmd: Command, keyName: string): Command {
  return cmd.hook('preAction', (_hooked, action) => {
    const [user, key] = action.processedArgs as unknown[];
    if (typeof user !== 'string' || typeof key !== 'string' || user.startsWith('@')) return;
    const command = [action.parent?.name(), action.name()].filter((n) => n !== undefined && n !== 'udcli').join(' ');
    rejectSwapped(user, key, keyName, command);
  });
}
