/**
 * Plans and approvals (issue 52, point 5): a run over a profile's `approval_over` goes ahead only
 * from a plan another operator approved. `--plan FILE` first writes the plan (a rehearsal that
 * reads each player and sends nothing: the players, before → after, the target, the change, a
 * hash of it all); `udcli approve FILE` appends an `approval` line with that hash to the trail;
 * the run with the same `--plan FILE` then checks the file against its hash, its players and
 * change against the command's, and the trail for an approval by someone else.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { Trail } from '../audit/trail.js';
import { UsageError } from '../errors.js';
import { sameOperator } from '../ops/operator.js';
import { printable } from '../printable.js';
import { writeWholeSync } from '../write-whole.js';

export const PLAN_FORMAT = 1;

/** Where the run goes: as a journal names its target. */
export interface PlanTarget {
  server: string;
  profile: string;
  game: string | null;
}

export interface PlanPlayer {
  /** The list's line (uid or username). */
  user: string;
  uid: string;
  /** The state read when the plan was written, as the journal keeps it. */
  before: unknown;
  /** What the change is expected to do from it: `sword-of-dawn: 0 → 1`. */
  after: string;
}

export interface Plan {
  udcli_plan: typeof PLAN_FORMAT;
  created: string;
  /** Who wrote it: the one operator who may not approve it. */
  operator: string;
  target: PlanTarget;
  change: { command: string; args: string[]; label: string };
  reason?: string;
  ticket?: string;
  players: PlanPlayer[];
  /** `sha256:<hex>` of everything above, keys sorted. */
  hash: string;
}

/** JSON with every object's keys sorted: the same plan hashes the same wherever it was written. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function planHash(plan: Omit<Plan, 'hash'>): string {
  const { hash: _ignored, ...rest } = plan as Plan;
  return `sha256:${createHash('sha256').update(stableJson(rest)).digest('hex')}`;
}

export function sealPlan(plan: Omit<Plan, 'hash'>): Plan {
  return { ...plan, hash: planHash(plan) };
}

export function writePlan(path: string, plan: Plan): void {
  try {
    writeWholeSync(path, `${JSON.stringify(plan, undefined, 2)}\n`, 0o600);
  } catch (error) {
    throw new UsageError(`cannot write the plan ${path}: ${(error as Error).message}; nothing was sent`);
  }
}

/** A plan of 100,000 players is a few tens of MB: anything larger is no plan udcli wrote. */
export const MAX_PLAN_BYTES = 64 * 1024 * 1024;

function notAPlan(path: string, why: string): UsageError {
  return new UsageError(`${printable(path)} is not a udcli plan: ${why}; nothing was sent`);
}

/** Reads a plan and checks it against its own hash: a plan edited after it was written is refused. */
export function readPlan(path: string): Plan {
  let text: string;
  try {
    if (statSync(path).size > MAX_PLAN_BYTES) throw notAPlan(path, 'larger than any plan');
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read the plan ${printable(path)}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw notAPlan(path, 'not JSON');
  }
  const p = raw as Partial<Plan> | null;
  if (
    !p ||
    typeof p !== 'object' ||
    p.udcli_plan !== PLAN_FORMAT ||
    typeof p.hash !== 'string' ||
    typeof p.operator !== 'string' ||
    !Array.isArray(p.players) ||
    !p.target ||
    !p.change ||
    !Array.isArray(p.change.args)
  ) {
    throw notAPlan(path, `no udcli_plan ${PLAN_FORMAT} header with its players, target, change and hash`);
  }
  const plan = p as Plan;
  if (planHash(plan) !== plan.hash) {
    throw new UsageError(
      `plan ${printable(path)} was changed after it was written (its hash does not match); nothing was sent`,
      { hint: 'write the plan again with --plan NEWFILE and have it approved' },
    );
  }
  return plan;
}

/** `sha256:3f9a2c…`: a hash as messages name it. */
export function shortHash(hash: string): string {
  return `${hash.slice(0, 19)}…`;
}

/**
 * The run must be the plan's: same target, same change, same players (as a set, each once).
 * Throws UsageError naming the first difference.
 */
export function checkRunMatchesPlan(
  plan: Plan,
  path: string,
  run: { target: PlanTarget; change: { command: string; args: string[] }; users: readonly string[] },
): void {
  const differ = (what: string, planned: string, now: string): never => {
    throw new UsageError(
      `this run is not the plan ${printable(path)}: ${what} ${printable(now)}, the plan ${printable(planned)}; nothing was sent`,
      { hint: 'write a new plan for this run with --plan NEWFILE and have it approved' },
    );
  };
  const t = (x: PlanTarget) => `${x.profile} (${x.server}, game ${x.game ?? '-'})`;
  if (stableJson(plan.target) !== stableJson(run.target)) differ('target', t(plan.target), t(run.target));
  const c = (x: { command: string; args: string[] }) => [x.command, ...x.args].join(' ');
  if (c(plan.change) !== c(run.change)) differ('change', c(plan.change), c(run.change));
  const planned = new Set(plan.players.map((p) => p.user.toLowerCase()));
  const now = new Set(run.users.map((u) => u.toLowerCase()));
  const extra = [...now].filter((u) => !planned.has(u));
  const missing = [...planned].filter((u) => !now.has(u));
  if (extra.length > 0 || missing.length > 0 || now.size !== run.users.length) {
    const parts = [
      extra.length
        ? `${extra.length} not in the plan (${extra.slice(0, 3).join(', ')}${extra.length > 3 ? ', …' : ''})`
        : '',
      missing.length ? `${missing.length} of the plan missing` : '',
      now.size !== run.users.length ? 'a player listed twice' : '',
    ].filter(Boolean);
    throw new UsageError(
      `the players of this run are not the plan ${printable(path)}'s: ${printable(parts.join(', '))}; nothing was sent`,
      { hint: 'write a new plan for this list with --plan NEWFILE and have it approved' },
    );
  }
}

/**
 * Throws UsageError unless the trail holds an approval of `hash` by an operator other than
 * `operator` (who runs it) and other than the plan's author.
 */
export async function requireApproval(
  trail: Pick<Trail, 'read' | 'where'>,
  plan: Plan,
  path: string,
  operator: string,
): Promise<string> {
  const approvers: string[] = [];
  for await (const e of trail.read()) {
    if (e.kind === 'approval' && e.plan === plan.hash) approvers.push(e.operator);
  }
  const other = approvers.find((a) => !sameOperator(a, operator) && !sameOperator(a, plan.operator));
  if (other !== undefined) return other;
  const why =
    approvers.length > 0
      ? `plan ${printable(path)} is approved only by ${printable(approvers[0]!)}, who cannot approve a run of their own`
      : `plan ${printable(path)} (${shortHash(plan.hash)}) has no approval in the trail`;
  throw new UsageError(`${why}; nothing was sent`, {
    hint: `another operator approves it with: udcli approve ${path}`,
  });
}
