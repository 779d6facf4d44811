/**
 * Batch mode for the change commands (docs/CLI.md "Batch mode"): `@FILE` / `@-` in place of
 * `<uid>`. The change runner (change.ts) hands every declared change type to `runChangeBatch`
 * (change-batch.ts), built on the generic `runBatchCommand` here.
 */
import { basename } from 'node:path';
import type { ApiClient } from '../client/types.js';
import { confirmOrRequireYes } from '../runtime/prompt.js';
import type { Factory } from '../ops/factory.js';
import { confirmMutation } from '../ops/safety.js';
import { BatchIncompleteError, InterruptedError, UsageError } from '../errors.js';
import { normalizeHex32 } from '../domain/ids.js';
import { redactUrl, withoutUserinfo } from '../redact.js';
import { Journal, type JournalCommand } from './journal.js';
import { countBatchItems, readBatchInput, type BatchItem } from './input.js';
import { createProgress } from './progress.js';
import { checkBatchFields, createBatchPrinter } from './printer.js';
import { createOutput } from '../output/output.js';
import { formatSummary, runBatch, type BatchResult, type BatchSummary, type ItemContext, type Recovery } from './runner.js';

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
  /** For the confirmation banner, e.g. `reset FIRST_WIN`; " to 30 users (FILE) on PROFILE (URL)" is added. */
  description: string;
  /** `line`: the user as the list named it (a username, or a uid). */
  perUser: (client: ApiClient, uid: string, ctx: ItemContext, line: string) => Promise<R>;
  /**
   * Not idempotent: perUser reads the state before sending and hands it to ctx.started (it is
   * journaled), and `recover` decides an item an earlier run left unknown from that state.
   */
  recover?: (client: ApiClient, uid: string, before: unknown, line: string) => Promise<Recovery<R>>;
  /** --dry-run: what would be sent to this user (after the reads a real run would make of it). */
  describe: (uid: string, client: ApiClient) => Promise<string>;
  /** Safe to repeat after it may have reached the server (set, reset, delete). */
  idempotent: boolean;
  /** Also ask y/N on a terminal for a profile that is not production (delete). */
  askFirst?: string;
  /**
   * Runs once the client exists, before the first item, in a dry run too: the checks every user
   * shares (the quest, the sku), read once. `sample`: the first line's uid, or null when it is
   * no user (resolved through `resolve`, which keeps the answer for the run).
   */
  prepare?: (client: ApiClient, sample: () => Promise<string | null>) => Promise<void>;
  /** `--reason`/`--ticket` of the run: the journal's header keeps them. */
  why?: { reason?: string; ticket?: string };
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

/** A resolver that remembers the answer for one input (the first line, read once for the shared checks). */
function rememberingOne(resolve: (input: string) => Promise<string>): { resolve: (input: string) => Promise<string>; first: (input: string) => Promise<string | null> } {
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
  const { items, first, close } = await withUsers(readBatchInput(cmd.spec, factory.io.stdin), source);
  let client: ApiClient;
  let resolver: ReturnType<typeof rememberingOne>;
  let journalCommand: JournalCommand;
  try {
    const settings = await factory.settings();
    journalCommand = {
      operation: cmd.operationName,
      args: cmd.args,
      target: { server: withoutUserinfo(settings.baseUrl), game: settings.gameId ?? null, profile: settings.profile },
      ...(cmd.why?.reason !== undefined ? { reason: cmd.why.reason } : {}),
      ...(cmd.why?.ticket !== undefined ? { ticket: cmd.why.ticket } : {}),
    };
    // A journal of another command or target, or one that cannot say what was done, is refused
    // before anyone is asked anything or anything is sent: read through once, unlocked, unchanged.
    if (flags.journal) await (await Journal.open(flags.journal, journalCommand, { readOnly: true })).close();
    if (!flags.dryRun) {
      // `give … to 30 users`, `take … from 30 users`, `reset FIRST_WIN for 30 users`.
      const counted = await usersPhrase(cmd.spec, source);
      const users = `${/^give\b/.test(cmd.description) ? 'to' : /^take\b/.test(cmd.description) ? 'from' : 'for'} ${counted}`;
      if (settings.production) {
        await confirmMutation(factory, settings, `${cmd.description} ${users} on ${settings.profile} (${redactUrl(settings.baseUrl)})`);
      } else if (cmd.askFirst) {
        await confirmOrRequireYes(factory.io, `${cmd.askFirst} for ${counted}?`, { yes: factory.globals().yes, what: `${cmd.description} ${users}` });
      }
    }
    // Two connections a user in flight: the read before a change travels beside agi's unsigned
    // challenge request, and on one connection it would wait for it.
    client = await factory.client({ connections: flags.concurrency * 2 });
    resolver = rememberingOne(uidResolver(client));
    await cmd.prepare?.(client, async () => (first.error === undefined ? resolver.first(first.input) : null));
  } catch (error) {
    // Refused, or a check every user shares failed: the list is closed unread.
    await close();
    throw error;
  }
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
      resolve: resolver.resolve,
      operation: (uid, item, ctx) => cmd.perUser(client, uid, ctx, item.input),
      ...(cmd.recover ? { journalsBefore: true, recover: (uid: string, before: unknown, line: string) => cmd.recover!(client, uid, before, line) } : {}),
      describe: (uid) => cmd.describe(uid, client),
      idempotent: cmd.idempotent,
      dryRun: flags.dryRun,
      concurrency: flags.concurrency,
      ...(flags.ratePerSecond ? { ratePerSecond: flags.ratePerSecond } : {}),
      failFast: flags.failFast,
      retryUnknown: flags.retryUnknown,
      ...(flags.journal
        ? { journal: { path: flags.journal, command: journalCommand, notice: (m: string) => out.warn(m) } }
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
    throw new UsageError('--raw does not apply to a batch: it prints one result per user', { hint: 'drop --raw; -o ndjson prints each result as JSON' });
  }
}

/**
 * The items, after checking there is at least one: an empty list (or one of comments only)
 * is a usage error, so a broken step that produced it fails the CI job instead of passing.
 */
async function withUsers(items: AsyncIterable<BatchItem>, source: string): Promise<{ items: AsyncIterable<BatchItem>; first: BatchItem; close: () => Promise<void> }> {
  const it = items[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) {
    throw new UsageError(`no users in ${source}`, { hint: 'give one uid or username a line (blank lines and # comments are skipped)' });
  }
  const all = (async function* () {
    try {
      yield first.value;
      for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
    } finally {
      await it.return?.();
    }
  })();
  return {
    items: all,
    first: first.value,
    close: async () => {
      await it.return?.();
    },
  };
}
