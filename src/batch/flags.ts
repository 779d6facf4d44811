/**
 * The batch options, kept apart from the batch engine so a single-user command registers and
 * checks them without loading the runner, journal or audit code.
 */
import type { Command } from 'commander';
import { parseInteger } from '../ops/args.js';
import { UsageError } from '../errors.js';
import { parseRate } from './rate.js';
import { firstInvisible } from '../printable.js';

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
  plan?: string;
}

export interface BatchSettings {
  concurrency: number;
  ratePerSecond?: number;
  dryRun: boolean;
  journal?: string;
  failFast: boolean;
  retryUnknown: boolean;
  /** The plan this run writes (no file yet) or follows (src/batch/plan.ts). */
  plan?: string;
}

export const MAX_CONCURRENCY = 64;

/** Why a change is made: `--reason` and `--ticket`, for one user or a whole batch. */
export interface WhyFlags {
  reason?: string;
  ticket?: string;
}

export interface Why {
  reason?: string;
  ticket?: string;
}

/** A reason is a sentence, a ticket a reference (`SUP-1234`): bounded before they are kept anywhere. */
export const MAX_REASON = 500;
export const MAX_TICKET = 100;

/** Adds --reason and --ticket to a change command. */
export function addWhyOptions(cmd: Command): Command {
  return cmd
    .option(
      '--reason <text>',
      `why the change is made (up to ${MAX_REASON} characters): kept in the receipt, the audit log and the journal`,
    )
    .option(
      '--ticket <ref>',
      'the support ticket it answers, e.g. SUP-1234: kept with the reason; udcli audit --ticket finds it',
    );
}

/**
 * Checks --reason and --ticket (UsageError, nothing sent): one line each, no control characters,
 * bounded; `required` (the profile's require_reason) refuses a change without them.
 */
export function parseWhy(flags: WhyFlags, required: { profile: string } | null): Why {
  const out: Why = {};
  const one = (value: string | undefined, flag: string, max: number): string | undefined => {
    if (value === undefined) return undefined;
    // Only the blanks a shell leaves at the ends: trim() would also drop a BOM or a U+2028 there.
    const v = value.replace(/^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g, '');
    if (v === '') throw new UsageError(`invalid ${flag}: expected some text`);
    // Anything a terminal would get escaped (controls, line breaks, bidi overrides), or that shows
    // nothing (a zero-width space, a tag character), has no place in a line an auditor reads and
    // searches: refused rather than kept escaped.
    const hidden = firstInvisible(v);
    if (hidden !== undefined)
      throw new UsageError(
        `invalid ${flag}: ${hidden} is a control, formatting or invisible character; give one line of visible text`,
      );
    if ([...v].length > max) throw new UsageError(`invalid ${flag}: longer than ${max} characters`);
    return v;
  };
  const reason = one(flags.reason, '--reason', MAX_REASON);
  const ticket = one(flags.ticket, '--ticket', MAX_TICKET);
  if (ticket !== undefined && /\s/.test(ticket))
    throw new UsageError('invalid --ticket: a reference has no spaces (e.g. SUP-1234)');
  if (reason !== undefined) out.reason = reason;
  if (ticket !== undefined) out.ticket = ticket;
  if (required && (reason === undefined || ticket === undefined)) {
    const missing = [reason === undefined ? '--reason TEXT' : null, ticket === undefined ? '--ticket REF' : null]
      .filter(Boolean)
      .join(' and ');
    throw new UsageError(
      `profile ${required.profile} requires a reason for every change: give ${missing}; nothing was sent`,
      {
        hint: `e.g. --reason "refund for lost purchase" --ticket SUP-1234 (require_reason is set on profile ${required.profile})`,
      },
    );
  }
  return out;
}

/** Adds --concurrency, --rate, --dry-run, --journal, --fail-fast, --retry-unknown to a mutation command. */
export function addBatchOptions(cmd: Command): Command {
  return addWhyOptions(cmd)
    .option('--concurrency <n>', `with @FILE: users changed at once (default ${DEFAULT_CONCURRENCY})`)
    .option('--rate <n/s>', 'with @FILE: at most this many users a second, e.g. 20/s')
    .option(
      '--dry-run',
      'print the request that would be sent and the change expected (each user, with @FILE); send nothing that changes state',
    )
    .option('--journal <file>', 'with @FILE: record finished users here; a rerun skips them')
    .option('--fail-fast', 'with @FILE: start no more users after the first failure')
    .option('--retry-unknown', 'with @FILE and --journal: send again users whose outcome was unknown')
    .option(
      '--plan <file>',
      'with @FILE: no such file yet: write the plan (reads each user, sends nothing) for another operator to approve (udcli approve FILE); the file there: run it, once approved',
    );
}

const BATCH_FLAG_NAMES: ReadonlyArray<[keyof BatchFlags, string]> = [
  ['concurrency', '--concurrency'],
  ['rate', '--rate'],
  ['dryRun', '--dry-run'],
  ['journal', '--journal'],
  ['failFast', '--fail-fast'],
  ['retryUnknown', '--retry-unknown'],
  ['plan', '--plan'],
];

/** Validates the batch options (UsageError, nothing sent). */
export function parseBatchFlags(flags: BatchFlags): BatchSettings {
  const out: BatchSettings = {
    concurrency:
      flags.concurrency === undefined
        ? DEFAULT_CONCURRENCY
        : parseInteger(flags.concurrency, '--concurrency', { min: 1, max: MAX_CONCURRENCY }),
    dryRun: flags.dryRun === true,
    failFast: flags.failFast === true,
    retryUnknown: flags.retryUnknown === true,
  };
  if (flags.rate !== undefined) out.ratePerSecond = parseRate(flags.rate);
  if (flags.journal !== undefined) {
    if (flags.journal.trim() === '') throw new UsageError('invalid --journal: expected a file name');
    out.journal = flags.journal;
  }
  if (flags.plan !== undefined) {
    if (flags.plan.trim() === '') throw new UsageError('invalid --plan: expected a file name');
    if (out.dryRun)
      throw new UsageError('--plan and --dry-run: writing a plan is itself the rehearsal; drop --dry-run');
    out.plan = flags.plan;
  }
  if (out.retryUnknown && !out.journal)
    throw new UsageError('--retry-unknown needs --journal (the journal says which users were unknown)');
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
