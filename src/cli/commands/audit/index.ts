/** `udcli audit`: the changes recorded in the audit log. The handler is loaded only when run. */
import type { Command } from 'commander';
import type { Factory } from '../../../ops/factory.js';
import type { AuditOptions } from './audit.js';
import type { AuditUndoOptions } from './undo.js';
import type { ResolveOptions } from './resolve.js';
import { addVerb, type Verb } from '../../verb.js';

/** `udcli audit undo`: the inverse batch of a run or a ticket, written to files; nothing sent. */
export const AUDIT_UNDO: Verb = {
  name: 'undo',
  description:
    'Write the inverse batch of a run or a ticket (a file of users for each undo command) and print the commands that run it, each after its dry run; sends nothing',
  after: `
Each applied change of the run or ticket (a change line, or one resolved as applied) is undone by
its undo; a user changed more than once is undone newest first (a later step). The files (mode
0600) go to --out (default: the current directory) and are never written over. Changes without
an undo, and those whose outcome is still unknown, are listed, not batched.

Examples:
  $ udcli audit undo --ticket SUP-1234
  $ udcli audit undo --run 20261127T1008-3f9a2c --out ~/undo`,
  options: [
    ['--run <id>', "undo one run's changes (every line of a batch shares its run id)"],
    ['--ticket <ref>', 'undo the changes made with this --ticket'],
    ['--out <dir>', 'where the files go (default: the current directory); an existing file is never overwritten'],
  ],
  run: async (factory, opts: AuditUndoOptions) => (await import('./undo.js')).auditUndo(factory, opts),
};

export const AUDIT: Verb = {
  name: 'audit',
  description:
    'Show the audit log of changes made with udcli: the latest state of each user and change (--history: every line)',
  after: `
By default one line a user and change: its latest state (changed, unknown, or resolved by a
later read). --unresolved lists the open changes (an intent never closed, or an unknown);
--history every line. "udcli audit resolve" settles open changes.
A line that is not an entry is skipped with a warning naming it (exit 2 at the end).
With a profile that names a team trail (audit_url), the lines of every agent, read from its database.

Examples:
  $ udcli audit --since 7d
  $ udcli audit --unresolved
  $ udcli audit --ticket SUP-1234 --history
  $ udcli audit --run 20261127T1008-3f9a2c -o json
  $ udcli audit --profile prod --operator ana@studio.test --since 1d`,
  options: [
    ['--since <when>', 'only changes since a duration ago (30m, 2h, 7d) or a date (2024-05-01)'],
    ['--user <user>', 'only changes to this user: a uid or a username (one lookup)'],
    ['--profile <name>', 'only changes made under this profile'],
    ['--history', 'every line, oldest first (not only the latest state of each user and change)'],
    [
      '--unresolved',
      'only open changes: written ahead and never closed (the process died around sending), or unknown (udcli audit resolve settles them)',
    ],
    ['--run <id>', "only one run's lines (every line of a batch shares its run id)"],
    ['--ticket <ref>', 'only changes made with this --ticket'],
    ['--operator <who>', 'only changes made by this operator: the whole name, its name part or its address'],
  ],
  run: async (factory, opts: AuditOptions) => (await import('./audit.js')).auditRun(factory, opts),
  verbs: [
    {
      name: 'resolve',
      description:
        'Settle the open changes (sent or not when udcli died, or their reply lost): read each player, decide applied or not, close it',
      after: `
Each open change is rebuilt from its intent line, its player read on this profile's server (reads
only), and decided by the change's own judgement from the state kept before it: a resolved line
closes it, with the undo of a change found applied. No journal needed: the trail is enough.
What cannot be decided stays open and is listed (exit 6).

Examples:
  $ udcli audit resolve --all
  $ udcli --profile prod audit resolve --ticket SUP-1234
  $ udcli audit resolve --run 20261127T1008-3f9a2c -o json`,
      options: [
        ['--run <id>', "only one run's open changes"],
        ['--ticket <ref>', 'only open changes made with this --ticket'],
        ['--all', 'every open change'],
      ],
    },
  ],
};

export function register(program: Command, factory: Factory): void {
  const audit = addVerb(program, factory, AUDIT);
  // `audit` has --run and --ticket of its own: commander hands them to it even when they follow
  // a subcommand's name, so a subcommand reads them from there too.
  for (const verb of [AUDIT_UNDO]) {
    const sub = addVerb(audit, factory, verb);
    const run = verb.run as (factory: Factory, opts: object) => Promise<void>;
    sub.action((_opts: object, cmd: Command) => run(factory, cmd.optsWithGlobals()));
  }
  audit.commands
    .find((c) => c.name() === 'resolve')!
    .action(async (_opts: unknown, cmd: Command) =>
      (await import('./resolve.js')).resolveRun(factory, cmd.optsWithGlobals() as ResolveOptions),
    );
}
