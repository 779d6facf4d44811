/**
 * `udcli sandbox ...`: the local sandbox service. Each verb loads its handler (and with it
 * fastify/SQLite) only when it runs.
 */
import type { Command } from 'commander';
import type { RawSeedOptions, RawStartOptions } from './options.js';
import type { Factory } from '../../factory.js';

export function register(program: Command, factory: Factory): void {
  const sandbox = program
    .command('sandbox')
    .description('Run the local sandbox of the User Data REST Service (SQLite, demo data)');

  sandbox
    .command('start')
    .description('Start the sandbox (foreground until Ctrl-C, or --detach)')
    .option('--port <port>', 'port to listen on, 0 = any free port (default: 8787)')
    .option('--host <host>', 'address to bind (default: 127.0.0.1)')
    .option('--db <file>', 'database file, or :memory: (default: sandbox.db in the data dir)')
    .option('--seed <mode>', 'demo: seed the demo data into an empty database; none: leave it empty (default: demo)')
    .option('--token-ttl <seconds>', 'lifetime of tokens from the token generator (default: 900)')
    .option('--rate-limit <n/s>', 'answer 429 beyond N requests per second per api_key, e.g. 10/s')
    .option('--detach', 'run in the background; output goes to sandbox.log in the data dir')
    .action(async (opts: RawStartOptions) => {
      const { startCommand } = await import('./start.js');
      await startCommand(factory, opts);
    });

  sandbox
    .command('stop')
    .description('Stop the running sandbox')
    .action(async () => {
      const { stopCommand } = await import('./stop.js');
      await stopCommand(factory);
    });

  sandbox
    .command('status')
    .description('Show whether the sandbox runs, and where (exit 1 when it does not)')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const { statusCommand } = await import('./status.js');
      await statusCommand(factory, opts);
    });

  sandbox
    .command('reset')
    .description('Delete and recreate the sandbox database (demo data)')
    .option('--db <file>', 'database file (default: sandbox.db in the data dir)')
    .option('--seed <mode>', 'demo or none (default: demo)')
    .action(async (opts: { db?: string; seed?: string }) => {
      const { resetCommand } = await import('./reset.js');
      await resetCommand(factory, opts);
    });

  sandbox
    .command('info')
    .description('Show URLs, demo credentials, users, achievements and products')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const { infoCommand } = await import('./info.js');
      await infoCommand(factory, opts);
    });

  sandbox
    .command('seed')
    .description('Add generated data: users, a hub user with friends, achievements, products')
    .option('--users <n>', 'users to generate (default: 1000)')
    .option('--friends <n>', 'friends of the generated hub user, at most --users (default: 500)')
    .option('--achievements <n>', 'achievements on game 1001 (default: 10)')
    .option('--products <n>', 'products on game 1001 (default: 5)')
    .option('--seed <s>', 'same seed, same data (default: 1)')
    .option('--db <file>', 'database file (default: sandbox.db in the data dir)')
    .option('--json', 'print the summary as JSON')
    .action(async (opts: RawSeedOptions) => {
      const { seedCommand } = await import('./seed.js');
      await seedCommand(factory, opts);
    });
}
