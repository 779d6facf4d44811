/** `udcli audit`: the changes recorded in the audit log. The handler is loaded only when run. */
import type { Command } from 'commander';
import type { Factory } from '../../../ops/factory.js';
import type { AuditOptions } from './audit.js';

export function register(program: Command, factory: Factory): void {
  program
    .command('audit')
    .description('Show the audit log of changes made with udcli')
    .addHelpText('after', '\nExamples:\n  $ udcli audit --since 7d\n  $ udcli audit --user demo_player\n  $ udcli audit --since 2h -o json')
    .option('--since <when>', 'only changes since a duration ago (30m, 2h, 7d) or a date (2024-05-01)')
    .option('--user <user>', 'only changes to this user: a uid or a username (one lookup)')
    .option('--profile <name>', 'only changes made under this profile')
    .action(async (opts: AuditOptions) => {
      const { auditRun } = await import('./audit.js');
      await auditRun(factory, opts);
    });
}
