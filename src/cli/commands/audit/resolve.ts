/**
 * `udcli audit resolve [--run ID | --ticket REF | --all]`: settles the changes the trail left open
 * (an intent no outcome closed: the process died around sending it; an unknown: its reply was
 * lost) from the trail alone, no journal needed. Each is rebuilt from its intent, its player read
 * on the target (reads only), and decided by the change type's own judge from the state the intent
 * kept: applied, or not applied. A `resolved` line closes it, with the undo of an applied change.
 */
import { auditKey, entryFilter, OpenChanges, type AuditEntry } from '../../../audit/log.js';
import { openTrail, type Trail } from '../../../audit/trail.js';
import { auditResolution, traceContext } from '../../../audit/tracked.js';
import { recoverUser, undoOnceApplied } from '../../../batch/change-trace.js';
import type { ChangeArgs, ChangeType } from '../../../batch/change-type.js';
import type { Recovery } from '../../../batch/runner.js';
import type { ApiClient } from '../../../client/types.js';
import type { Settings } from '../../../config/types.js';
import { normalizeHex32 } from '../../../domain/ids.js';
import { BatchIncompleteError, UsageError } from '../../../errors.js';
import type { Factory } from '../../../ops/factory.js';
import type { Column } from '../../../output/types.js';
import { withoutUserinfo } from '../../../redact.js';
import { loadChanges, type ChangeDeclaration, type DeclaredChange } from '../../change-registry.js';
import { Command } from '../../commander.js';
import { filterValue } from './audit.js';

export interface ResolveOptions {
  run?: string;
  ticket?: string;
  all?: boolean;
}

/** What became of one open line. */
export interface Settlement {
  /** The open line's id (an intent's, or an unknown's). */
  id: string;
  run: string;
  uid: string;
  username?: string;
  subject: string;
  outcome: 'applied' | 'not-applied' | 'undecided';
  /** What the decision was made from, or why none could be made. */
  detail: string;
  /** The `resolved` line written (none when undecided). */
  resolved?: string;
  undo: string | null;
}

const COLUMNS: ReadonlyArray<Column<Settlement>> = [
  { key: 'id', header: 'ID', cell: (s) => s.id },
  { key: 'user', header: 'USER', cell: (s) => (s.username !== undefined ? `${s.username} (${s.uid})` : s.uid) },
  { key: 'subject', header: 'CHANGE', cell: (s) => s.subject },
  { key: 'outcome', header: 'OUTCOME', cell: (s) => s.outcome },
  { key: 'detail', header: 'DETAIL', cell: (s) => s.detail },
  { key: 'undo', header: 'UNDO', cell: (s) => s.undo ?? '' },
];

type AnyChange = ChangeType<ChangeArgs, object, unknown, unknown, unknown, unknown, unknown>;

/** An open line, with its intent and the state the next change of the same user and subject read first. */
interface Open {
  line: AuditEntry;
  intent: AuditEntry | undefined;
  /** Present when a later change of the same kind to the same user read the state before it. */
  next?: { state: unknown; run: string };
}

export async function resolveRun(factory: Factory, opts: ResolveOptions): Promise<void> {
  const run = filterValue(opts.run, '--run');
  const ticket = filterValue(opts.ticket, '--ticket');
  if (opts.all && (run !== undefined || ticket !== undefined))
    throw new UsageError('--all settles every open change: give it alone, or --run/--ticket without it');
  if (!opts.all && run === undefined && ticket === undefined) {
    throw new UsageError('audit resolve needs --run ID, --ticket REF or --all: which open changes to settle', {
      hint: 'udcli audit --unresolved lists them',
    });
  }
  const settings = await factory.settings();
  const out = await factory.output();
  const trail = await openTrail(factory.io.env, settings);
  try {
    const chosen = (await openLines(trail, out.warn.bind(out))).filter((o) =>
      entryFilter({ ...(run !== undefined ? { run } : {}), ...(ticket !== undefined ? { ticket } : {}) })(o.line),
    );
    const settled: Settlement[] = [];
    let client: ApiClient | null = null;
    for (const open of chosen) {
      const s = await settle(factory, settings, trail, open, async () => (client ??= await factory.client()));
      settled.push(s);
    }
    await out.list(settled, COLUMNS);
    const count = (o: Settlement['outcome']) => settled.filter((s) => s.outcome === o).length;
    const undecided = count('undecided');
    out.info(
      `audit resolve: ${settled.length} open ${settled.length === 1 ? 'change' : 'changes'}: ${count('applied')} applied, ${count('not-applied')} not applied, ${undecided} undecided`,
    );
    if (undecided > 0) {
      const err = new BatchIncompleteError(0, undecided);
      err.message = `${undecided} of ${settled.length} open ${settled.length === 1 ? 'change' : 'changes'} could not be decided: they stay open`;
      err.hint = 'each row says why; a change made on another server needs a profile for that server';
      throw err;
    }
  } finally {
    await trail.close();
  }
}

/**
 * The open lines, oldest first, each with its intent and, when a later change of the same user and
 * subject followed, the state that change read before it: a change left open by a process that
 * died is decided from the state right after it, not from a state later changes moved on.
 */
async function openLines(trail: Trail, warn: (m: string) => void): Promise<Open[]> {
  const open = new OpenChanges();
  const next = new Map<string, { state: unknown; run: string }>();
  const waiting = new Map<string, string[]>();
  let corrupt = 0;
  for await (const e of trail.read({ onCorrupt: () => corrupt++ })) {
    open.add(e);
    const key = auditKey(e);
    if (key === null || e.id === undefined) continue;
    if (e.kind === 'intent') {
      for (const id of waiting.get(key) ?? []) if (!next.has(id)) next.set(id, { state: e.before, run: e.run ?? '' });
      waiting.set(key, [e.id]);
    } else if (e.kind === 'unknown') {
      waiting.set(key, [...(waiting.get(key) ?? []), e.id]);
    }
  }
  if (corrupt > 0) warn(`the trail ${trail.where} has ${corrupt} lines that are not entries: skipped`);
  return open.list().map((line) => {
    const found = line.id !== undefined ? next.get(line.id) : undefined;
    return { line, intent: open.intentOf(line), ...(found ? { next: found } : {}) };
  });
}

/** The declared change of `command` (`products give`), or null when this udcli has none. */
async function declarationOf(
  command: string,
): Promise<DeclaredChange<ChangeArgs, object, unknown, unknown, unknown, unknown, unknown> | null> {
  const [noun, verb] = command.split(' ');
  if (noun === undefined || verb === undefined) return null;
  const found = (await loadChanges(noun, verb)).find((d) => d.command === command);
  return found && 'type' in found
    ? (found as DeclaredChange<ChangeArgs, object, unknown, unknown, unknown, unknown, unknown>)
    : null;
}

/** The change's words, parsed as its command line parses them: the arguments and options its type takes. */
function parseSpec(d: ChangeDeclaration, uid: string, words: readonly string[]): { args: ChangeArgs; opts: object } {
  const cmd = new Command(d.command)
    .exitOverride()
    .configureOutput({ writeOut: () => {}, writeErr: () => {} })
    .allowExcessArguments(false)
    .argument('<user>');
  for (const a of d.arguments) cmd.argument(`<${a.name}>`);
  for (const o of d.options ?? []) {
    if (o.default === undefined) cmd.option(o.flags, o.description);
    else cmd.option(o.flags, o.description, o.default);
  }
  cmd.action(() => {});
  cmd.parse([uid, ...words], { from: 'user' });
  const args: Record<string, string> = { uid };
  d.arguments.forEach((a, i) => (args[a.key] = cmd.processedArgs[i + 1] as string));
  return { args: args as unknown as ChangeArgs, opts: cmd.opts() };
}

async function settle(
  factory: Factory,
  settings: Settings,
  trail: Trail,
  open: Open,
  client: () => Promise<ApiClient>,
): Promise<Settlement> {
  const { line, intent } = open;
  const base = {
    id: line.id ?? '',
    run: line.run ?? '',
    uid: line.uid,
    ...(line.username !== undefined ? { username: line.username } : {}),
    subject: line.subject ?? line.command,
    undo: null,
  };
  const undecided = (detail: string): Settlement => ({ ...base, outcome: 'undecided', detail });
  if (line.id === undefined) return undecided('the line has no id to close');
  if (intent?.spec === undefined)
    return undecided('written by an older udcli: no intent says how to rebuild the change');
  const server = withoutUserinfo(settings.baseUrl);
  if (intent.server !== server) {
    return undecided(
      `made on ${intent.server ?? 'a server the line does not name'} (profile ${intent.profile}), not on ${server} (profile ${settings.profile}): resolve it under a profile for that server`,
    );
  }
  const uid = normalizeHex32(intent.uid);
  if (!uid) return undecided('the intent names no uid');
  const declared = await declarationOf(intent.spec.command);
  if (!declared) return undecided(`this udcli has no change ${intent.spec.command}`);
  const type = (await declared.type()) as AnyChange;
  if (!type.judge) {
    return undecided(
      `${intent.spec.command} is safe to repeat and is not decided from the state: run it again to settle it`,
    );
  }
  try {
    const { args, opts } = parseSpec(declared, uid, intent.spec.args);
    const input = await type.parse(factory, args, opts, uid);
    const c = await client();
    const prepared = await type.prepare(c, input, { sample: uid, batch: false, dryRun: true });
    const kept = 'kept' in intent ? intent.kept : type.kept(intent.before);
    let recovery: Recovery<unknown>;
    if (open.next !== undefined) {
      // Decided from the state the next change read before it: later changes moved the state now.
      const judged = type.judge(kept, open.next.state, input, prepared);
      const detail = `${judged.detail}, as read before the next change (run ${open.next.run})`;
      recovery =
        judged.outcome === 'applied'
          ? { outcome: 'applied', detail, result: { before: kept, after: open.next.state } }
          : { outcome: judged.outcome, detail };
    } else {
      recovery = await recoverUser(type, { client: c, uid, input, prepared }, kept);
    }
    if (recovery.outcome === 'unknown') return undecided(recovery.detail);
    const why = {
      ...(intent.reason !== undefined ? { reason: intent.reason } : {}),
      ...(intent.ticket !== undefined ? { ticket: intent.ticket } : {}),
    };
    const ctx = traceContext(factory.io.env, settings, trail, why);
    const now = recovery.outcome === 'applied' ? (recovery.result as { after: unknown }).after : null;
    const undo =
      recovery.outcome === 'applied'
        ? await undoOnceApplied(type, ctx, { client: c, uid, input, prepared }, intent.before, now).catch(
            () => intent.undo ?? null,
          )
        : null;
    const resolved = await auditResolution(ctx, {
      uid,
      argv: [...intent.spec.command.split(' '), uid, ...intent.spec.args],
      subject: intent.subject ?? base.subject,
      ...(intent.username !== undefined ? { username: intent.username } : {}),
      closes: line.id,
      outcome: recovery.outcome,
      detail: recovery.detail,
      before: intent.before,
      after: now,
      undo,
      then: 'nothing to undo; run the change again if it is still wanted',
    });
    return { ...base, uid, outcome: recovery.outcome, detail: recovery.detail, resolved, undo };
  } catch (error) {
    return undecided(`could not read the player: ${error instanceof Error ? error.message : String(error)}`);
  }
}
