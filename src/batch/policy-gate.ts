/**
 * The checks a team profile puts before a change (issue 52, points 4 and 5), made before the
 * confirmation and before anything is sent: the operator, the policy's bounds, and over
 * `approval_over` a plan another operator approved (src/batch/plan.ts). Writing that plan is a
 * rehearsal: each player is read, nothing is sent.
 */
import { existsSync } from 'node:fs';
import { operatorName } from '../audit/log.js';
import { shellCommand } from '../audit/shell.js';
import { openTrail } from '../audit/trail.js';
import type { ApiClient } from '../client/types.js';
import type { Settings } from '../config/types.js';
import { UsageError } from '../errors.js';
import type { Factory } from '../ops/factory.js';
import { resolveOperator } from '../ops/operator.js';
import { checkPolicy } from '../ops/policy.js';
import { printable } from '../printable.js';
import { redactUrl, withoutUserinfo } from '../redact.js';
import type { ChangeArgs, ChangeType } from './change-type.js';
import type { BatchSettings, Why } from './flags.js';
import { countBatchItems, readBatchInput } from './input.js';
import {
  checkRunMatchesPlan,
  readPlan,
  requireApproval,
  sealPlan,
  shortHash,
  writePlan,
  type PlanPlayer,
  type PlanTarget,
} from './plan.js';

/** What the gate reads of a change type: its command and words. */
type Named<I> = Pick<ChangeType<ChangeArgs, object, I, unknown, unknown, unknown, unknown>, 'command' | 'argv'>;

function targetOf(settings: Settings): PlanTarget {
  return { server: withoutUserinfo(settings.baseUrl), profile: settings.profile, game: settings.gameId ?? null };
}

/** The operator and policy of one user's change: throws UsageError (exit 2), nothing sent. */
export function gateChange<I>(
  factory: Pick<Factory, 'io'>,
  settings: Settings,
  type: Named<I>,
  input: I,
  why: Why,
): void {
  resolveOperator(() => operatorName(factory.io.env), settings);
  checkPolicy(settings.policy, {
    profile: settings.profile,
    command: type.command,
    args: type.argv(input, 'journal'),
    players: 1,
    ...(why.ticket !== undefined ? { ticket: why.ticket } : {}),
  });
  const line = settings.policy.approvalOver;
  if (line !== undefined && line < 1) {
    throw new UsageError(
      `policy of profile ${settings.profile}: every change needs an approved plan (approval_over ${line}); nothing was sent`,
      { hint: 'run it as a list of one: put the user in a file and give @FILE --plan PLANFILE' },
    );
  }
}

/**
 * A raw `udcli api` change: the operator and the ticket are checked as for any change; the bounds
 * on products, quantities and approvals cannot be read from a raw request, so a profile that has
 * one refuses it rather than let it pass around them.
 */
export function gateRawChange(factory: Pick<Factory, 'io'>, settings: Settings, why: Why): void {
  resolveOperator(() => operatorName(factory.io.env), settings);
  checkPolicy(settings.policy, {
    profile: settings.profile,
    command: 'api',
    args: [],
    players: 1,
    ...(why.ticket !== undefined ? { ticket: why.ticket } : {}),
  });
  const { productsAllowed, maxQuantity, approvalOver } = settings.policy;
  const bounds = [
    productsAllowed !== undefined ? 'products_allowed' : '',
    maxQuantity !== undefined ? 'max_quantity' : '',
    approvalOver !== undefined ? 'approval_over' : '',
  ].filter(Boolean);
  if (bounds.length > 0) {
    throw new UsageError(
      `policy of profile ${settings.profile}: a raw api change cannot be checked against ${bounds.join(', ')}; nothing was sent`,
      { hint: 'make the change with its own command (products give, products take, …)' },
    );
  }
}

/**
 * A batch's operator, policy and plan: `write-plan` when --plan names a file not there yet
 * (the caller rehearses), `run` when the run may go ahead. Throws UsageError (exit 2) otherwise.
 */
export async function gateBatch<I>(
  factory: Pick<Factory, 'io'>,
  settings: Settings,
  type: Named<I>,
  input: I,
  spec: string,
  flags: Pick<BatchSettings, 'plan' | 'dryRun'>,
  why: Why,
): Promise<'run' | 'write-plan'> {
  if (flags.dryRun) return 'run';
  const operator = resolveOperator(() => operatorName(factory.io.env), settings);
  const players = await countBatchItems(spec);
  const change = { command: type.command, args: type.argv(input, 'journal') };
  checkPolicy(settings.policy, {
    profile: settings.profile,
    ...change,
    players,
    ...(why.ticket !== undefined ? { ticket: why.ticket } : {}),
  });
  const line = settings.policy.approvalOver;
  const over = line !== undefined && (players === null || players > line);
  if (flags.plan === undefined) {
    if (!over) return 'run';
    throw new UsageError(
      `policy of profile ${settings.profile}: ${players === null ? 'a list read from standard input' : `${players} players`} is over approval_over ${line}: the run needs a plan approved by another operator; nothing was sent`,
      {
        hint: 'add --plan FILE to write the plan (sends nothing); another operator runs udcli approve FILE; then run this again with --plan FILE',
      },
    );
  }
  if (spec === '@-') throw new UsageError('--plan needs a list file (@FILE), not standard input; nothing was sent');
  if (!existsSync(flags.plan)) return 'write-plan';
  const plan = readPlan(flags.plan);
  const users: string[] = [];
  for await (const item of readBatchInput(spec, factory.io.stdin)) users.push(item.input);
  checkRunMatchesPlan(plan, flags.plan, { target: targetOf(settings), change, users });
  const trail = await openTrail(factory.io.env, settings);
  try {
    await requireApproval(trail, plan, flags.plan, operator);
  } finally {
    await trail.close();
  }
  return 'run';
}

/**
 * Writes the plan of a batch: each player read as the run would read it (nothing sent), with what
 * the change is expected to do, the target, the change, who wrote it, and the hash of it all.
 */
export async function rehearsePlan<I, P, S, T, A>(
  factory: Factory,
  settings: Settings,
  type: ChangeType<ChangeArgs, object, I, P, S, T, A>,
  input: I,
  spec: string,
  path: string,
  why: Why,
  resolver: (client: ApiClient) => (user: string) => Promise<string>,
): Promise<number> {
  const operator = resolveOperator(() => operatorName(factory.io.env), settings);
  const client = await factory.client();
  const resolve = resolver(client);
  const players: PlanPlayer[] = [];
  let prepared: P | undefined;
  let first = true;
  for await (const item of readBatchInput(spec, factory.io.stdin)) {
    if (item.error !== undefined)
      throw new UsageError(`line ${item.line} of the list: ${item.error}; no plan was written`);
    const uid = await resolve(item.input);
    if (first) prepared = await type.prepare(client, input, { sample: uid, batch: true, dryRun: true });
    first = false;
    const before = await type.read(client, uid, input);
    const after = type.expected
      ? type.expected(uid, input, before, prepared as P)
      : (type.describe?.(uid, input) ?? `${type.label(input)} of ${uid}`);
    players.push({ user: item.input, uid, before: type.kept(before), after });
  }
  const plan = sealPlan({
    udcli_plan: 1,
    created: new Date().toISOString(),
    operator,
    target: targetOf(settings),
    change: { command: type.command, args: type.argv(input, 'journal'), label: type.label(input) },
    ...(why.reason !== undefined ? { reason: why.reason } : {}),
    ...(why.ticket !== undefined ? { ticket: why.ticket } : {}),
    players,
  });
  writePlan(path, plan);
  const out = await factory.output();
  out.info(
    `Plan ${printable(path)} written: ${printable(plan.change.label)} for ${players.length} players on ${settings.profile} (${redactUrl(settings.baseUrl)}), ${shortHash(plan.hash)}; nothing was sent.`,
  );
  out.info(
    `Next: another operator approves it with: ${printable(shellCommand(['--profile', settings.profile, 'approve', path]))}; then run this same command again with --plan ${printable(path)}`,
  );
  return players.length;
}
