/**
 * `--dry-run` for one user (cli.md "Batch mode"): the request the change would send, built and
 * signed as it would be (secrets redacted, agi's session and key as placeholders), and the change
 * expected from the state read now. Only reads are sent.
 */
import { createEndpoints } from '../client/endpoints.js';
import type { AchievementTarget, ApiClient, PreparedRequest, ProductTarget, RequestSpec } from '../client/types.js';
import { unitsHeld } from '../domain/holdings.js';
import { amountText, unitsOfChange } from '../domain/packs.js';
import { isState } from '../domain/quests.js';
import type { Factory } from './factory.js';
import { readAchievement } from './achievements.js';
import { readProduct } from './products.js';
import { jsonText } from '../printable.js';

/** Stops a change at its request: thrown by the dry endpoints instead of sending. */
class Captured {
  constructor(readonly spec: RequestSpec) {}
}

/** The request `change` would send, prepared by the real client (nothing is sent). */
export async function requestOf(client: ApiClient, change: (dry: ApiClient) => Promise<unknown>): Promise<PreparedRequest> {
  const stop = async (spec: RequestSpec): Promise<never> => {
    throw new Captured(spec);
  };
  const dry = { ...createEndpoints({ request: stop, call: stop }), prepare: client.prepare, request: stop, close: async () => undefined } as ApiClient;
  try {
    await change(dry);
  } catch (caught) {
    if (caught instanceof Captured) return client.prepare(caught.spec);
    throw caught;
  }
  throw new Error('dry run: the change made no request');
}

function short(uid: string): string {
  return `${uid.slice(0, 4)}…`;
}

/** Prints the dry run: a table format as three lines, other formats as one JSON object. */
async function print(factory: Pick<Factory, 'output'>, request: PreparedRequest, expected: string): Promise<void> {
  const out = await factory.output();
  const signed = request.placeholderChallenge ? ' (signed with the session and key the server hands out)' : request.canonical ? ' (signed)' : '';
  if (out.format === 'table') {
    out.text('Dry run: nothing that changes state was sent.');
    out.text(`Request:  ${request.method} ${request.redactedUrl}${signed}`);
    out.text(`Expected: ${expected}`);
    return;
  }
  out.text(jsonText({ dry_run: true, request: { method: request.method, url: request.redactedUrl }, expected }));
}

export async function dryRunProduct(
  factory: Pick<Factory, 'output'>,
  client: ApiClient,
  uid: string,
  target: ProductTarget,
  action: 'give' | 'take',
  qty: number,
  change: (dry: ApiClient) => Promise<unknown>,
): Promise<void> {
  const request = await requestOf(client, change);
  const held = unitsHeld(await readProduct(client, uid, target));
  const units = unitsOfChange(target.sku, qty, action);
  const amount = amountText(target.sku, qty, action);
  let expected: string;
  if (held === null) expected = `${target.sku} of ${short(uid)}: ${action} ${amount} (quantity held unknown)`;
  else if (action === 'take' && held < units) expected = `refused (409): ${short(uid)} holds ${held} of ${target.sku}, fewer than ${units}; nothing would change`;
  else expected = `${target.sku} of ${short(uid)}: ${held} → ${action === 'give' ? held + units : held - units} (${action} ${amount})`;
  await print(factory, request, expected);
}

export type AchievementDryChange = { action: 'inc'; by: number } | { action: 'set'; progress: number } | { action: 'reset' } | { action: 'delete' };

export async function dryRunAchievement(
  factory: Pick<Factory, 'output'>,
  client: ApiClient,
  uid: string,
  target: AchievementTarget,
  change: AchievementDryChange,
  send: (dry: ApiClient) => Promise<unknown>,
): Promise<void> {
  const request = await requestOf(client, send);
  const before = await readAchievement(client, uid, target);
  const defs = await client.listAchievementDefinitions(target.pid, { type: target.type, developerId: target.developerId });
  const def = (defs.payload ?? []).find((d) => d.developer_id === target.developerId);
  const start = Number(def?.start_value ?? 0);
  const goal = Number(def?.target_value ?? before?.target_value ?? NaN);
  const now = before ? Number(before.current_value) : start;
  const shown = (v: number) => (Number.isFinite(goal) ? `${v}/${goal}` : String(v));
  const was = before ? `${shown(now)} ${before.state}` : '(none)';
  let next: string;
  if (change.action === 'delete') next = '(deleted)';
  else if (isState(before?.state, 'Revoked')) {
    await print(factory, request, `refused (409): ${target.developerId} of ${short(uid)} is Revoked and takes no progress; nothing would change`);
    return;
  }
  else {
    const value =
      change.action === 'inc' ? now + change.by : change.action === 'set' ? start + Math.round(change.progress * (goal - start)) : start;
    const capped = Number.isFinite(goal) ? Math.min(goal, value) : value;
    // Completed is kept through set and inc; only a reset brings it down.
    const kept = before?.state === 'Completed' && change.action !== 'reset';
    next = kept ? `${shown(Math.max(now, capped))} Completed` : `${shown(capped)} ${Number.isFinite(goal) && capped >= goal ? 'Completed' : 'In Progress'}`;
  }
  await print(factory, request, `${target.developerId} of ${short(uid)}: ${was} → ${next}`);
}
