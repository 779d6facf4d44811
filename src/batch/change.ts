/**
 * The change runner: every change type is declared once, as a ChangeType loaded by its
 * declaration (src/cli/changes/<noun>-<verb>.ts, src/cli/change-registry.ts); runChange gives
 * each one the single-user command, `@FILE` batches with the journal, `--dry-run`, the
 * confirmation, the checks made before anything is sent, the audit trace and the receipt.
 */
import type { ApiClient } from '../client/types.js';
import type { Settings } from '../config/types.js';
import { tracedSingle } from '../audit/tracked.js';
import { openTrail } from '../audit/trail.js';
import { parseUserArg, rejectSwapped, userLabel } from '../ops/args.js';
import { printDryRun, requestOf } from '../ops/dry-run.js';
import type { Factory } from '../ops/factory.js';
import { confirmMutation, sandboxBanner, sandboxReceipt } from '../ops/safety.js';
import { gateChange } from './policy-gate.js';
import { redactUrl } from '../redact.js';
import { resolveUid } from '../ops/users.js';
import { canAsk, confirmOrRequireYes } from '../runtime/prompt.js';
import { isBatchArg, parseWhy, rejectBatchFlags, type BatchFlags, type Why, type WhyFlags } from './flags.js';
import type { BatchSummary } from './runner.js';
import { traceSpec } from './change-trace.js';
import type { ChangeArgs, ChangeAsk, ChangeRead, ChangeType } from './change-type.js';

/**
 * The action handler of every change command: `@FILE`/`@-` in place of `<user>` runs a batch,
 * anything else one user (`--dry-run` works for both). Returns the batch's summary.
 */
export async function runChange<Args extends ChangeArgs, Opts extends object, I, P, S, T, A>(
  factory: Factory,
  type: ChangeType<Args, Opts, I, P, S, T, A>,
  args: Args,
  opts: Opts & BatchFlags & WhyFlags,
): Promise<BatchSummary | undefined> {
  // First: a swap explains what would fail next (the batch options, the user's form).
  if (!isBatchArg(args.uid)) rejectSwapped(args.uid, type.key.of(args), type.key.name, type.command, true);
  if (isBatchArg(args.uid)) {
    const input = await type.parse(factory, args, opts, args.uid);
    const why = await whyOf(factory, opts, opts.dryRun === true);
    const { runChangeBatch } = await import('./change-batch.js');
    return runChangeBatch(factory, type, input, args.uid, opts, why);
  }
  // --dry-run works for one user too; the other batch options need @FILE.
  rejectBatchFlags({ ...opts, dryRun: undefined });
  const user = parseUserArg(args.uid, 'uid', type.command);
  const input = await type.parse(factory, args, opts, userLabel(user));
  const print = type.printer(factory);
  const settings = await factory.settings();
  const why = await whyOf(factory, opts, opts.dryRun === true);
  if (opts.dryRun) {
    const client = await factory.client();
    const uid = await resolveUid(client, user);
    const prepared = await type.prepare(client, input, { sample: uid, batch: false, dryRun: true });
    await dryRun(factory, type, client, uid, input, prepared);
    return undefined;
  }
  const who = `user ${userLabel(user)}`;
  const what = type.confirm(input, who);
  // The team's operator and bounds, before anyone is asked anything or anything is sent.
  gateChange(factory, settings, type, input, why);
  sandboxBanner(factory, settings, what);
  const { yes } = factory.globals();
  // Where udcli cannot ask, it needs --yes before it sends anything, even the read below.
  if (type.ask && !yes && !canAsk(factory.io)) await confirmOrRequireYes(factory.io, '', { yes, what });
  if (!type.ask) await confirmMutation(factory, settings, `${what}${onTarget(settings)}`);
  // Before anything is sent, even the reads: a trail that cannot be written stops the change here.
  const trail = await openTrail(factory.io.env, settings, factory.io);
  try {
    const client = await factory.client();
    const uid = await resolveUid(client, user);
    if (type.ask) await askFirst(factory, settings, type, client, uid, input, what);
    const auth = (type.authorize ? await type.authorize(factory, settings, client, uid, input) : undefined) as A;
    const out = await factory.output();
    let traced = out.spin(type.spin(input), async () => {
      const prepared = await type.prepare(client, input, { sample: uid, batch: false, dryRun: false });
      return tracedSingle(
        factory,
        settings,
        client,
        (ctx) =>
          traceSpec(type, ctx, { client, uid, input, prepared }, auth, 'username' in user ? user.username : undefined),
        why,
        trail,
      );
    });
    if (type.suggest) traced = traced.catch(type.suggest(client, uid, input));
    const { reply } = await traced;
    await print(reply, input, uid);
    sandboxReceipt(factory, settings);
  } finally {
    await trail.close();
  }
  return undefined;
}

/**
 * `--reason`/`--ticket`, checked before anything is sent; a profile with require_reason refuses
 * a change without them (a dry run changes nothing and needs none).
 */
async function whyOf(factory: Factory, opts: WhyFlags, dryRun: boolean): Promise<Why> {
  const settings = await factory.settings();
  return parseWhy(opts, settings.requireReason && !dryRun ? { profile: settings.profile } : null);
}

/** ` on prod (https://api.example.com)`: where a production change goes, the URL without userinfo. */
function onTarget(settings: Pick<Settings, 'profile' | 'baseUrl'>): string {
  return ` on ${settings.profile} (${redactUrl(settings.baseUrl)})`;
}

/** Only a state that exists is worth asking about: the production check is the stronger ask. */
async function askFirst<I, S>(
  factory: Factory,
  settings: Settings,
  type: { ask?: ChangeAsk<I, S> } & Pick<ChangeRead<I, unknown, S>, 'read'>,
  client: ApiClient,
  uid: string,
  input: I,
  what: string,
): Promise<void> {
  const ask = type.ask!;
  const { yes } = factory.globals();
  const loss = yes ? null : ask.loss(await type.read(client, uid, input));
  if (!yes && loss === null && ask.absent) throw ask.absent(uid, input);
  if (settings.production)
    await confirmMutation(factory, settings, `${what}${loss !== null ? ` (${loss})` : ''}${onTarget(settings)}`);
  else if (loss !== null)
    await confirmOrRequireYes(factory.io, `${ask.what(input)} of user ${uid} (${loss})?`, { yes, what });
}

/** One user's dry run: the request the change would send, and what it is expected to do from the state read now. */
async function dryRun<I, P, S, T, A>(
  factory: Factory,
  type: ChangeType<ChangeArgs, object, I, P, S, T, A>,
  client: ApiClient,
  uid: string,
  input: I,
  prepared: P,
): Promise<void> {
  const request = await requestOf(client, (dry) => type.perform(dry, uid, input, undefined as A));
  const before = await type.read(client, uid, input);
  await printDryRun(
    factory,
    request,
    type.expected ? type.expected(uid, input, before, prepared) : (type.describe?.(uid, input) ?? type.command),
  );
}
