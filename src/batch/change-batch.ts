/**
 * `@FILE` for every declared change type (change.ts; docs/CLI.md "Batch mode"): validation, one
 * confirmation, the shared checks once (dry runs too), input streaming, username resolution, a
 * client pool sized to the concurrency, each user's state read first, a receipt and an audit line
 * per user, NDJSON on stdout, a progress line on a terminal, the journal and its resume decided
 * by the type's own judge, and the summary on stderr. The engine underneath is runner.ts.
 */
import { basename } from 'node:path';
import { auditKey, openUnknowns, type OpenLine } from '../audit/log.js';
import { openTrail, type Trail } from '../audit/trail.js';
import { auditResolution, traceContext } from '../audit/tracked.js';
import type { ApiClient } from '../client/types.js';
import { normalizeHex32 } from '../domain/ids.js';
import { BatchIncompleteError, InterruptedError, UsageError } from '../errors.js';
import type { Factory } from '../ops/factory.js';
import { confirmMutation, sandboxBanner, sandboxReceipt } from '../ops/safety.js';
import { createOutput } from '../output/output.js';
import { redactUrl, withoutUserinfo } from '../redact.js';
import { confirmOrRequireYes } from '../runtime/prompt.js';
import { recoverUser, subjectOf, tracedBatchUser, undoOnceApplied } from './change-trace.js';
import type { ChangeArgs, ChangeType } from './change-type.js';
import { parseBatchFlags, type BatchFlags, type Why } from './flags.js';
import { countBatchItems, readBatchInput, type BatchItem } from './input.js';
import { Journal, type JournalCommand } from './journal.js';
import { checkBatchFields, createBatchPrinter } from './printer.js';
import { createProgress } from './progress.js';
import { gateBatch, rehearsePlan } from './policy-gate.js';
import { formatSummary, runBatch, type BatchResult, type BatchSummary, type Recovery } from './runner.js';

/** The username a line named its user by: none when the line was a uid. */
function usernameOf(input: string): string | undefined {
  return normalizeHex32(input) ? undefined : input;
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

/** A resolver that remembers the answer for one input (the first line, read once for the shared checks). */
function rememberingOne(resolve: (input: string) => Promise<string>): {
  resolve: (input: string) => Promise<string>;
  first: (input: string) => Promise<string | null>;
} {
  let kept: { input: string; uid: Promise<string> } | null = null;
  return {
    resolve: (input) => (kept !== null && kept.input === input ? kept.uid : resolve(input)),
    first: (input) => {
      kept ??= { input, uid: resolve(input) };
      return kept.uid.catch(() => null);
    },
  };
}

/**
 * Runs `type` over every user of `spec` (`@FILE` or `@-`). Throws BatchIncompleteError (exit 6)
 * when any user failed or is unknown, InterruptedError when stopped.
 */
export async function runChangeBatch<I, P, S, T, A>(
  factory: Factory,
  type: ChangeType<ChangeArgs, object, I, P, S, T, A>,
  input: I,
  spec: string,
  opts: BatchFlags,
  why: Why = {},
  /** Stops starting users (in-flight ones finish and are journaled). Default: the first Ctrl-C. */
  stop?: AbortSignal,
): Promise<BatchSummary> {
  const flags = parseBatchFlags(opts);
  rejectRaw(factory);
  checkBatchFields(factory.globals().fields);
  const source = spec === '@-' ? 'standard input' : basename(spec.slice(1));
  // A missing file fails here, an empty one (or comments only) just after: before anything is sent.
  const { items, first, close } = await withUsers(readBatchInput(spec, factory.io.stdin), source);
  const settings = await factory.settings();
  const description = type.label(input);
  const subject = subjectOf(type, input);
  let log: Trail | null = null;
  try {
    let client: ApiClient;
    let resolver: ReturnType<typeof rememberingOne>;
    let prepared: P;
    const journalCommand: JournalCommand = {
      operation: type.command,
      args: type.argv(input, 'journal'),
      target: { server: withoutUserinfo(settings.baseUrl), game: settings.gameId ?? null, profile: settings.profile },
      ...(why.reason !== undefined ? { reason: why.reason } : {}),
      ...(why.ticket !== undefined ? { ticket: why.ticket } : {}),
    };
    try {
      // The team's operator, bounds and approvals: refused before anyone is asked anything.
      if ((await gateBatch(factory, settings, type, input, spec, flags, why)) === 'write-plan') {
        await close();
        const n = await rehearsePlan(factory, settings, type, input, spec, flags.plan!, why, uidResolver);
        return { total: n, ok: 0, resolved: 0, failed: 0, unknown: 0, skipped: 0, dryRun: n, elapsedMs: 0 };
      }
      // A journal of another command or target, or one that cannot say what was done, is refused
      // before anyone is asked anything or anything is sent: read through once, unlocked, unchanged.
      if (flags.journal) await (await Journal.open(flags.journal, journalCommand, { readOnly: true })).close();
      if (!flags.dryRun) await confirmBatch(factory, settings, spec, source, description, type.ask?.what(input));
      // Before anything is sent, even the reads: a trail that cannot be written stops the run here.
      if (!flags.dryRun) log = await openTrail(factory.io.env, settings, factory.io);
      // Two connections a user in flight: the read before a change travels beside agi's unsigned
      // challenge request, and on one connection it would wait for it.
      client = await factory.client({ connections: flags.concurrency * 2 });
      resolver = rememberingOne(uidResolver(client));
      // The checks every user shares, read once through the first line's user (null: no user).
      const sample = first.error === undefined ? await resolver.first(first.input) : null;
      prepared = await type.prepare(client, input, { sample, batch: true, dryRun: flags.dryRun });
    } catch (error) {
      // Refused, or a check every user shares failed: the list is closed unread.
      await close();
      throw error;
    }

    // The lines earlier runs left open (intents, unknowns), read once when the first one is settled.
    let open: Promise<Map<string, OpenLine>> | null = null;
    const settle = async (uid: string, line: string, recovery: Recovery<unknown>, before: unknown): Promise<void> => {
      if (recovery.outcome === 'unknown' || log === null) return;
      const l: Trail = log;
      open ??= openUnknowns(l);
      const key = auditKey({ server: withoutUserinfo(settings.baseUrl), profile: settings.profile, uid, subject })!;
      const opened = (await open).get(key);
      (await open).delete(key);
      const username = usernameOf(line);
      const now = recovery.outcome === 'applied' ? (recovery.result as { after?: unknown }).after : null;
      const ctx = traceContext(factory.io.env, settings, l, why);
      // The intent kept the state before as the change reads it: the undo follows from it and the state now.
      const stateBefore = opened?.intent !== undefined ? opened.intent.before : before;
      let undo: string | null = opened?.intent?.undo ?? null;
      if (recovery.outcome === 'applied' && opened?.intent !== undefined) {
        undo = await undoOnceApplied(type, ctx, { client, uid, input, prepared }, stateBefore, now as S).catch(
          () => undo,
        );
      }
      await auditResolution(ctx, {
        uid,
        argv: [...type.command.split(' '), uid, ...type.argv(input, 'journal')],
        subject,
        ...(username !== undefined ? { username } : {}),
        // A run killed in flight left no line to close: the resolution still says what was found.
        closes: opened?.id ?? '(none: the earlier run was interrupted before it wrote one)',
        outcome: recovery.outcome,
        detail: recovery.detail,
        before: stateBefore,
        after: now ?? null,
        undo,
      });
    };

    const out = await factory.output();
    const { io } = factory;
    const showProgress = io.stderrIsTTY && !factory.globals().quiet;
    const progress = createProgress({
      stream: io.stderr,
      isTTY: showProgress,
      total: showProgress ? await countBatchItems(spec) : null,
    });

    let signal = stop;
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
    const listOut =
      g.fields && g.output === undefined && !io.stdoutIsTTY
        ? await createOutput({ io, globals: { ...g, output: 'ndjson' } })
        : out;
    const printer = createBatchPrinter({
      out: listOut,
      stdout: io.stdout,
      explicit: g.output ?? (g.fields && !io.stdoutIsTTY ? 'ndjson' : undefined),
      fields: g.fields,
      stdoutIsTTY: io.stdoutIsTTY,
      progress,
    });
    const judge = type.judge;
    let summary: BatchSummary;
    try {
      summary = await runBatch<unknown>({
        items,
        // A file is read once more to check it against the journal before anything is sent.
        ...(spec === '@-' ? {} : { reread: () => readBatchInput(spec, io.stdin) }),
        resolve: resolver.resolve,
        operation: (uid, item, ctx) =>
          tracedBatchUser(
            factory,
            settings,
            log!,
            type,
            { client, uid, input, prepared },
            {
              onBefore: (before) => ctx.started(before),
              onResolved: (how, detail) => ctx.resolved(how, detail),
            },
            { ...(usernameOf(item.input) !== undefined ? { username: item.input } : {}), why },
          ),
        // Not idempotent: each user's state is read and journaled before sending, and an item an
        // earlier run left unknown is decided from it by the type's judge.
        ...(judge
          ? {
              journalsBefore: true,
              recover: async (uid: string, before: unknown, line: string) => {
                const recovery = await recoverUser(type, { client, uid, input, prepared }, before);
                await settle(uid, line, recovery, before);
                return recovery;
              },
            }
          : {}),
        // What the real run reads first: a user it would fail on fails here. From that state, the
        // before → after the single-user dry run shows.
        describe: async (uid) => {
          const before = await type.read(client, uid, input);
          if (type.expected) return type.expected(uid, input, before, prepared);
          return type.describe ? type.describe(uid, input) : `${description} of ${uid}`;
        },
        idempotent: type.idempotent,
        dryRun: flags.dryRun,
        concurrency: flags.concurrency,
        ...(flags.ratePerSecond ? { ratePerSecond: flags.ratePerSecond } : {}),
        failFast: flags.failFast,
        retryUnknown: flags.retryUnknown,
        ...(flags.journal
          ? { journal: { path: flags.journal, command: journalCommand, notice: (m: string) => out.warn(m) } }
          : {}),
        onResult: (r: BatchResult<unknown>) => printer.onResult(r),
        progress,
        signal,
      });
    } finally {
      stopListening();
    }
    await printer.finish();
    out.info(formatSummary(summary));
    sandboxReceipt(factory, settings);
    throwUnfinished(summary, flags.journal);
    return summary;
  } finally {
    await (log as Trail | null)?.close();
  }
}

/**
 * The one confirmation of a batch: the production banner, or y/N on a terminal for a change that
 * asks first (delete, erase). `give … to 30 users`, `take … from 30 users`, `reset FIRST_WIN for 30 users`.
 */
async function confirmBatch(
  factory: Factory,
  settings: Awaited<ReturnType<Factory['settings']>>,
  spec: string,
  source: string,
  description: string,
  askFirst: string | undefined,
): Promise<void> {
  const counted = await usersPhrase(spec, source);
  const users = `${/^give\b/.test(description) ? 'to' : /^take\b/.test(description) ? 'from' : 'for'} ${counted}`;
  sandboxBanner(factory, settings, `${description} ${users}`);
  if (settings.production) {
    await confirmMutation(
      factory,
      settings,
      `${description} ${users} on ${settings.profile} (${redactUrl(settings.baseUrl)})`,
    );
  } else if (askFirst) {
    await confirmOrRequireYes(factory.io, `${askFirst} for ${counted}?`, {
      yes: factory.globals().yes,
      what: `${description} ${users}`,
    });
  }
}

/** An interrupted run, or one with failed or unknown users, ends with the error that says how to finish it. */
function throwUnfinished(summary: BatchSummary, journal: string | undefined): void {
  if (summary.stopped === 'interrupted') {
    const err = new InterruptedError('batch interrupted: the users not started were left as they were');
    err.hint = journal
      ? `rerun the same command with --journal ${journal} to finish the rest`
      : 'rerun with --journal FILE next time to be able to finish an interrupted batch';
    throw err;
  }
  if (summary.failed + summary.unknown > 0) {
    const err = new BatchIncompleteError(summary.failed, summary.unknown);
    const hints: string[] = [];
    const missing = summary.notFound;
    if (missing) hints.push(notFoundHint(missing));
    // A rerun helps only the others: a server error, a timeout, a lost reply.
    const retryable = summary.failed - (missing?.count ?? 0);
    if (retryable > 0 || summary.unknown > 0) {
      const others = missing ? ' other' : '';
      hints.push(
        journal
          ? `rerun the same command with --journal ${journal} to retry the${others} failed users${summary.unknown ? ' (check the unknown ones first; --retry-unknown sends them again)' : ''}`
          : `rerun with --journal FILE to retry only the${others} users that did not succeed`,
      );
    }
    err.hint = hints.join('\n');
    throw err;
  }
}

/**
 * Users that do not exist: a rerun finds them missing again, and the journal refuses a list
 * whose line changed, so the corrected names go in a list of their own.
 */
function notFoundHint(missing: NonNullable<BatchSummary['notFound']>): string {
  const { count, first } = missing;
  const which =
    count === 1
      ? `user not found (404): line ${first.line}, ${JSON.stringify(first.input)}`
      : `${count} users not found (404), the first on line ${first.line}, ${JSON.stringify(first.input)}`;
  return `${which}; a rerun will not help: correct the ${count === 1 ? 'name or uid' : 'names or uids'} and run ${count === 1 ? 'that user' : 'those users'} on ${count === 1 ? 'its' : 'their'} own`;
}

/**
 * `30 users (users30.txt)`: the users a confirmation speaks of, counted as the run reads them
 * (blank lines and comments are no users); standard input cannot be counted before it is read.
 */
async function usersPhrase(spec: string, source: string): Promise<string> {
  const n = await countBatchItems(spec);
  if (n === null) return `every user in ${source}`;
  return `${n} ${n === 1 ? 'user' : 'users'} (${source})`;
}

/** A batch has no one envelope to print as received: --raw is refused before anything is sent. */
function rejectRaw(factory: Pick<Factory, 'globals'>): void {
  if (factory.globals().raw) {
    throw new UsageError('--raw does not apply to a batch: it prints one result per user', {
      hint: 'drop --raw; -o ndjson prints each result as JSON',
    });
  }
}

/**
 * The items, after checking there is at least one: an empty list (or one of comments only)
 * is a usage error, so a broken step that produced it fails the CI job instead of passing.
 */
async function withUsers(
  items: AsyncIterable<BatchItem>,
  source: string,
): Promise<{ items: AsyncIterable<BatchItem>; first: BatchItem; close: () => Promise<void> }> {
  const it = items[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) {
    throw new UsageError(`no users in ${source}`, {
      hint: 'give one uid or username a line (blank lines and # comments are skipped)',
    });
  }
  const close = async (): Promise<void> => {
    await it.return?.();
  };
  // The first item again, then the rest; returning it closes the list even before the first item
  // was taken (a generator returned before it started would skip its own clean-up).
  let firstTaken = false;
  const all: AsyncIterator<BatchItem> & AsyncIterable<BatchItem> = {
    next: async () => {
      if (firstTaken) return it.next();
      firstTaken = true;
      return first;
    },
    return: async () => {
      await close();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
  return { items: all, first: first.value, close };
}
