/**
 * The batch options, kept apart from the batch engine so a single-user command registers and
 * checks them without loading the runner, journal or audit code.
 */
import type { Command } from 'commander';
import { parseInteger } from '../ops/args.js';
import { UsageError } from '../errors.js';
import { parseRate } from './rate.js';

export { isBatchArg } from './input.js';

export const DEFAULT_CONCURRENCY = 8;

/** The batch options as commander hands them over. */
export interface BatchFlags {
  concurrency?: string;
  rate?: string;
  dryRun?: boolean;
  journal?: string;
  failFast?: boolean;
  retryUnknown?: boolean;
}

export interface BatchSettings {
  concurrency: number;
  ratePerSecond?: number;
  dryRun: boolean;
  journal?: string;
  failFast: boolean;
  retryUnknown: boolean;
}

export const MAX_CONCURRENCY = 64;

/** Adds --concurrency, --rate, --dry-run, --journal, --fail-fast, --retry-unknown to a mutation command. */
export function addBatchOptions(cmd: Command): Command {
  return cmd
    .option('--concurrency <n>', `with @FILE: users changed at once (default ${DEFAULT_CONCURRENCY})`)
    .option('--rate <n/s>', 'with @FILE: at most this many users a second, e.g. 20/s')
    .option('--dry-run', 'print the request that would be sent and the change expected (each user, with @FILE); send nothing that changes state')
    .option('--journal <file>', 'with @FILE: record finished users here; a rerun skips them')
    .option('--fail-fast', 'with @FILE: start no more users after the first failure')
    .option('--retry-unknown', 'with @FILE and --journal: send again users whose outcome was unknown');
}

const BATCH_FLAG_NAMES: ReadonlyArray<[keyof BatchFlags, string]> = [
  ['concurrency', '--concurrency'],
  ['rate', '--rate'],
  ['dryRun', '--dry-run'],
  ['journal', '--journal'],
  ['failFast', '--fail-fast'],
  ['retryUnknown', '--retry-unknown'],
];

/** Validates the batch options (UsageError, nothing sent). */
export function parseBatchFlags(flags: BatchFlags): BatchSettings {
  const out: BatchSettings = {
    concurrency: flags.concurrency === undefined ? DEFAULT_CONCURRENCY : parseInteger(flags.concurrency, '--concurrency', { min: 1, max: MAX_CONCURRENCY }),
    dryRun: flags.dryRun === true,
    failFast: flags.failFast === true,
    retryUnknown: flags.retryUnknown === true,
  };
  if (flags.rate !== undefined) out.ratePerSecond = parseRate(flags.rate);
  if (flags.journal !== undefined) {
    if (flags.journal.trim() === '') throw new UsageError('invalid --journal: expected a file name');
    out.journal = flags.journal;
  }
  if (out.retryUnknown && !out.journal) throw new UsageError('--retry-unknown needs --journal (the journal says which users were unknown)');
  return out;
}

/** For the single-user path: batch options without @FILE are a usage error rather than silently ignored. */
export function rejectBatchFlags(flags: BatchFlags): void {
  for (const [key, flag] of BATCH_FLAG_NAMES) {
    if (flags[key] !== undefined && flags[key] !== false) {
      throw new UsageError(`${flag} applies only to a batch: give @FILE (or @-) in place of the uid`);
    }
  }
}

