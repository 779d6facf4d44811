/**
 * Batch mode for the mutation commands (cli.md "Batch mode"): `@FILE` / `@-` in place of
 * `<uid>`. The handlers of `achievements inc|set|reset|delete` and `products give|take` call
 * `runAchievementBatch` / `runProductBatch` when `isBatchArg(uid)`; both are built on the
 * generic `runBatchCommand`.
 */
import { basename } from 'node:path';
import type { ApiClient } from '../client/types.js';
import { AuditLog, auditLogPath } from '../audit/log.js';
import { traceContext, tracedAchievementChange, tracedProductChange } from '../audit/tracked.js';
import { parseInteger, parseProgress } from '../ops/args.js';
import { confirmOrRequireYes } from '../runtime/prompt.js';
import {
  deleteAchievement,
  readAchievement,
  incrementAchievement,
  resetAchievement,
  resolveAchievementTarget,
  setAchievementProgress,
} from '../ops/achievements.js';
import { checkGiveQty, giveProduct, readProduct, resolveProductTarget, takeProduct } from '../ops/products.js';
import type { Factory } from '../ops/factory.js';
import { confirmMutation } from '../ops/safety.js';
import { BatchIncompleteError, InterruptedError, UsageError } from '../errors.js';
import { normalizeHex32 } from '../domain/ids.js';
import type { AchievementDefinition } from '../domain/types.js';
import { countBatchItems, readBatchInput, type BatchItem } from './input.js';
import { createProgress } from './progress.js';
import { checkBatchFields, createBatchPrinter } from './printer.js';
import { createOutput } from '../output/output.js';
import { formatSummary, runBatch, type BatchResult, type BatchSummary, type ItemContext, type Recovery } from './runner.js';
import { achievementState, incrementOutcome, productOutcome, type AchievementState, type OutcomeJudgement, type ProductState } from '../domain/outcome.js';
import { amountText, unitsOfChange } from '../domain/packs.js';

export { isBatchArg } from './input.js';
export { parseRate } from './rate.js';
export { addBatchOptions, parseBatchFlags, rejectBatchFlags, type BatchFlags, type BatchSettings } from './flags.js';
import { parseBatchFlags, type BatchFlags } from './flags.js';

export interface BatchCommandSpec<R> {
  /** `@FILE` or `@-`. */
  spec: string;
  /** e.g. `achievements reset`: names the journal's command with `args`. */
  operationName: string;
  /** Everything that decides what is done to each user (developer_id, --by, --game...). */
  args: string[];
  options: BatchFlags;
  /** For the confirmation banner, e.g. `reset FIRST_WIN`; " for every user in FILE" is added. */
  description: string;
  perUser: (client: ApiClient, uid: string, ctx: ItemContext) => Promise<R>;
  /**
   * Not idempotent: perUser reads the state before sending and hands it to ctx.started (it is
   * journaled), and `recover` decides an item an earlier run left unknown from that state.
   */
  recover?: (client: ApiClient, uid: string, before: unknown) => Promise<Recovery<R>>;
  /** --dry-run: what would be sent to this user. */
  describe: (uid: string, client: ApiClient) => string;
  /** Safe to repeat after it may have reached the server (set, reset, delete). */
  idempotent: boolean;
  /** Also ask y/N on a terminal for a profile that is not production (delete). */
  askFirst?: string;
  /** Runs once the client exists, before the first item (e.g. fetch a definition). */
  prepare?: (client: ApiClient) => Promise<void>;
  /** Stops starting users (in-flight ones finish and are journaled). Default: the first Ctrl-C. */
  signal?: AbortSignal;
}

/** Username → uid with one GET (uids pass through, lower-cased). */
export function uidResolver(client: ApiClient): (input: string) => Promise<string> {
  return async (input) => {
    const uid = normalizeHex32(input);
    if (uid) return uid;
    const reply = await client.getUser(input, { byUsername: true });
    const found = normalizeHex32(String(reply.payload?.uid ?? ''));
    if (!found) throw new UsageError(`no uid for username ${JSON.stringify(input)}`);
    return found;
  };
}

/**
 * Runs one mutation over every user of `@FILE`: validation, one production confirmation, input
 * streaming, username resolution, a client pool sized to the concurrency, NDJSON on stdout,
 * a progress line on a terminal, the journal, and the summary on stderr. Throws
 * BatchIncompleteError (exit 6) when any user failed or is unknown.
 */
export async function runBatchCommand<R>(factory: Factory, cmd: BatchCommandSpec<R>): Promise<BatchSummary> {
  const flags = parseBatchFlags(cmd.options);
  rejectRaw(factory);
  checkBatchFields(factory.globals().fields);
  const source = cmd.spec === '@-' ? 'standard input' : basename(cmd.spec.slice(1));
  // A missing file fails here, an empty one (or comments only) just after: before anything is sent.
  const items = await withUsers(readBatchInput(cmd.spec, factory.io.stdin), source);
  const settings = await factory.settings();
  if (!flags.dryRun) {
    const what = `${cmd.description} for every user in ${source}`;
    if (settings.production) await confirmMutation(factory, settings, what);
    else if (cmd.askFirst) {
      await confirmOrRequireYes(factory.io, `${cmd.askFirst} (every user in ${source})?`, { yes: factory.globals().yes, what: `${cmd.description} for every user in ${source}` });
    }
  }
  // Two connections a user in flight: the read before a change travels beside agi's unsigned
  // challenge request, and on one connection it would wait for it.
  const client = await factory.client({ connections: flags.concurrency * 2 });
  await cmd.prepare?.(client);
  const out = await factory.output();
  const { io } = factory;
  const showProgress = io.stderrIsTTY && !factory.globals().quiet;
  const progress = createProgress({
    stream: io.stderr,
    isTTY: showProgress,
    total: showProgress ? await countBatchItems(cmd.spec) : null,
  });

  let signal = cmd.signal;
  // The first Ctrl-C stops starting users and lets those in flight finish and be journaled;
  // with our listener gone, a second one ends the process at once.
  let stopListening = (): void => {};
  if (!signal) {
    const ac = new AbortController();
    signal = ac.signal;
    stopListening = io.onSignals(['SIGINT'], () => {
      io.stderr.write('\nudcli: stopping after the users in flight (Ctrl-C again to quit at once)\n');
      ac.abort();
      stopListening();
    });
  }

  const g = factory.globals();
  // Piped, --fields alone keeps the lines (NDJSON), not the JSON array one item would get.
  const listOut = g.fields && g.output === undefined && !io.stdoutIsTTY ? await createOutput({ io, globals: { ...g, output: 'ndjson' } }) : out;
  const printer = createBatchPrinter({
    out: listOut,
    stdout: io.stdout,
    explicit: g.output ?? (g.fields && !io.stdoutIsTTY ? 'ndjson' : undefined),
    fields: g.fields,
    stdoutIsTTY: io.stdoutIsTTY,
    progress,
  });
  let summary: BatchSummary;
  try {
    summary = await runBatch<R>({
      items,
      // A file is read once more to check it against the journal before anything is sent.
      ...(cmd.spec === '@-' ? {} : { reread: () => readBatchInput(cmd.spec, io.stdin) }),
      resolve: uidResolver(client),
      operation: (uid, _item, ctx) => cmd.perUser(client, uid, ctx),
      ...(cmd.recover ? { journalsBefore: true, recover: (uid: string, before: unknown) => cmd.recover!(client, uid, before) } : {}),
      describe: (uid) => cmd.describe(uid, client),
      idempotent: cmd.idempotent,
      dryRun: flags.dryRun,
      concurrency: flags.concurrency,
      ...(flags.ratePerSecond ? { ratePerSecond: flags.ratePerSecond } : {}),
      failFast: flags.failFast,
      retryUnknown: flags.retryUnknown,
      ...(flags.journal
        ? { journal: { path: flags.journal, command: { operation: cmd.operationName, args: cmd.args }, notice: (m: string) => out.warn(m) } }
        : {}),
      onResult: (r: BatchResult<R>) => printer.onResult(r as BatchResult<unknown>),
      progress,
      signal,
    });
  } finally {
    stopListening();
  }
  await printer.finish();
  out.info(formatSummary(summary));
  if (summary.stopped === 'interrupted') {
    const err = new InterruptedError('batch interrupted: the users not started were left as they were');
    err.hint = flags.journal
      ? `rerun the same command with --journal ${flags.journal} to finish the rest`
      : 'rerun with --journal FILE next time to be able to finish an interrupted batch';
    throw err;
  }
  if (summary.failed + summary.unknown > 0) {
    const err = new BatchIncompleteError(summary.failed, summary.unknown);
    err.hint = flags.journal
      ? `rerun the same command with --journal ${flags.journal} to retry the failed users${summary.unknown ? ' (check the unknown ones first; --retry-unknown sends them again)' : ''}`
      : 'rerun with --journal FILE to retry only what did not succeed';
    throw err;
  }
  return summary;
}

/** A batch has no one envelope to print as received: --raw is refused before anything is sent. */
function rejectRaw(factory: Pick<Factory, 'globals'>): void {
  if (factory.globals().raw) {
    throw new UsageError('--raw does not apply to a batch: it prints one result per user', { hint: 'drop --raw; -o ndjson prints each result as JSON' });
  }
}

/**
 * The items, after checking there is at least one: an empty list (or one of comments only)
 * is a usage error, so a broken step that produced it fails the CI job instead of passing.
 */
async function withUsers(items: AsyncIterable<BatchItem>, source: string): Promise<AsyncIterable<BatchItem>> {
  const it = items[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) {
    throw new UsageError(`no users in ${source}`, { hint: 'give one uid or username a line (blank lines and # comments are skipped)' });
  }
  return (async function* () {
    try {
      yield first.value;
      for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
    } finally {
      await it.return?.();
    }
  })();
}

/** A judgement of the state read back, as the runner takes it; `result` is the item's result when applied. */
function asRecovery(judged: OutcomeJudgement, result: unknown): Recovery<unknown> {
  return judged.outcome === 'applied' ? { outcome: 'applied', detail: judged.detail, result } : { outcome: judged.outcome, detail: judged.detail };
}

export interface AchievementBatchArgs {
  spec: string;
  action: 'inc' | 'set' | 'reset' | 'delete';
  developerId: string;
  /** `set`: as typed (0.75 or 75%). */
  progress?: string;
}

/**
 * `udcli achievements inc|set|reset|delete @FILE <developer_id> ...`. Each user's state is
 * read first, and a receipt and an audit line written per user.
 */
export async function runAchievementBatch(
  factory: Factory,
  args: AchievementBatchArgs,
  opts: BatchFlags & { game?: string; type?: string; by?: string },
): Promise<BatchSummary> {
  const settings = await factory.settings();
  const target = resolveAchievementTarget(settings, opts, args.developerId);
  const by = args.action === 'inc' ? parseInteger(opts.by ?? '1', '--by', { min: 1 }) : 0;
  const progressText = args.progress?.trim() ?? '';
  const progress = args.action === 'set' ? parseProgress(progressText) : 0;
  const scope = ['--game', target.pid, '--type', target.type];
  const journalArgs = [target.developerId, ...(args.action === 'set' ? [String(progress)] : []), ...(args.action === 'inc' ? ['--by', String(by)] : []), ...scope];
  const dryRun = opts.dryRun === true;

  let log: AuditLog | null = null;
  let definition: Pick<AchievementDefinition, 'start_value' | 'target_value'> | null = null;
  const label = { inc: `increment ${target.developerId} by ${by}`, set: `set ${target.developerId} to ${progressText}`, reset: `reset ${target.developerId}`, delete: `delete ${target.developerId}` }[args.action];

  const change = async (client: ApiClient, uid: string) => {
    switch (args.action) {
      case 'inc':
        return incrementAchievement(client, uid, target, by);
      case 'set':
        return setAchievementProgress(client, uid, target, progress);
      case 'reset':
        return resetAchievement(client, uid, target);
      case 'delete':
        return deleteAchievement(client, uid, target);
    }
  };
  const spec: BatchCommandSpec<unknown> = {
    spec: args.spec,
    operationName: `achievements ${args.action}`,
    args: journalArgs,
    options: opts,
    description: label,
    idempotent: args.action !== 'inc',
    ...(args.action === 'delete' ? { askFirst: `Delete achievement ${target.developerId}` } : {}),
    describe: (uid) => `${label} of ${uid} (${target.type} ${target.pid})`,
    prepare: async (client) => {
      if (dryRun) return;
      const defs = await client.listAchievementDefinitions(target.pid, { type: target.type, developerId: target.developerId });
      definition = (defs.payload ?? []).find((d) => d.developer_id === target.developerId) ?? null;
      log = AuditLog.open(auditLogPath(factory.io.env));
    },
    perUser: async (client, uid, ctx) => {
      if (!log) return (await change(client, uid)).payload;
      const t = await tracedAchievementChange(
        traceContext(factory.io.env, settings, log),
        client,
        uid,
        target,
        args.action === 'set'
          ? { action: 'set', progress, progressText }
          : args.action === 'inc'
            ? { action: 'inc', by }
            : { action: args.action },
        (c) => change(c, uid),
        definition,
        { onBefore: (before) => ctx.started(before), onResolved: (how, detail) => ctx.resolved(how, detail) },
      );
      return { before: t.before, after: t.after, ...t.receipt };
    },
    ...(args.action === 'inc'
      ? {
          recover: async (client: ApiClient, uid: string, before: unknown): Promise<Recovery<unknown>> => {
            const now = await readAchievement(client, uid, target);
            return asRecovery(incrementOutcome(before as AchievementState | null, achievementState(now), by, definition), { before, after: now });
          },
        }
      : {}),
  };
  try {
    return await runBatchCommand(factory, spec);
  } finally {
    (log as AuditLog | null)?.close();
  }
}

export interface ProductBatchArgs {
  spec: string;
  action: 'give' | 'take';
  sku: string;
}

/** `udcli products give|take @FILE <sku> [--qty N] [--post]`: a receipt and an audit line per user. */
export async function runProductBatch(
  factory: Factory,
  args: ProductBatchArgs,
  opts: BatchFlags & { game?: string; type?: string; qty?: string; post?: boolean },
): Promise<BatchSummary> {
  const settings = await factory.settings();
  const target = resolveProductTarget(settings, opts, args.sku);
  const qty = parseInteger(opts.qty ?? '1', '--qty', { min: 1 });
  const post = args.action === 'give' && opts.post === true;
  const dryRun = opts.dryRun === true;
  if (args.action === 'give') checkGiveQty(target, qty);
  const amount = amountText(target.sku, qty, args.action);
  const label = `${args.action} ${amount.includes('×') ? amount : `${amount} of ${target.sku}`}${post ? ' (POST grant)' : ''}`;
  let log: AuditLog | null = null;

  const change = (client: ApiClient, uid: string) =>
    args.action === 'give' ? giveProduct(client, uid, target, qty, post ? 'post' : 'put') : takeProduct(client, uid, target, qty);

  const spec: BatchCommandSpec<unknown> = {
    spec: args.spec,
    operationName: `products ${args.action}`,
    args: [target.sku, '--qty', String(qty), ...(post ? ['--post'] : []), '--game', target.parentId, '--type', String(target.type)],
    options: opts,
    description: label,
    idempotent: false,
    describe: (uid) => `${label} ${args.action === 'give' ? 'to' : 'from'} ${uid} (game ${target.parentId})`,
    prepare: async () => {
      if (!dryRun) log = AuditLog.open(auditLogPath(factory.io.env));
    },
    perUser: async (client, uid, ctx) => {
      if (!log) return (await change(client, uid)).payload;
      const t = await tracedProductChange(traceContext(factory.io.env, settings, log), client, uid, target, { action: args.action, qty, post }, (c) => change(c, uid), {
        onBefore: (before) => ctx.started(before),
        onResolved: (how, detail) => ctx.resolved(how, detail),
      });
      return { before: t.before, after: t.after, ...t.receipt };
    },
    recover: async (client, uid, before) => {
      const now = await readProduct(client, uid, target);
      return asRecovery(productOutcome(before as ProductState, now, args.action, unitsOfChange(target.sku, qty, args.action)), { before, after: now });
    },
  };
  try {
    return await runBatchCommand(factory, spec);
  } finally {
    (log as AuditLog | null)?.close();
  }
}

