/**
 * Issue 52, point 7: an undo works as printed. Under a production profile with require_reason the
 * receipt's Undo line, pasted into a shell (sh parses it, quoting and all), runs and restores the
 * state: it carries `--reason 'undo: <reason>'` and the ticket of the change. A real sandbox
 * stands in for production.
 */
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import {
  addProductionProfile,
  auditLog,
  json,
  lastRequestId,
  loggedSince,
  runPrinted,
  type CliResult,
  type TestEnv,
} from './harness.js';

const UID = DEMO.user.uid;
let env: TestEnv;

beforeAll(async ({ sandbox }) => {
  env = sandbox;
  await addProductionProfile(env, 'strict-prod', ['--require-reason']);
});

function auditLines(): Array<Record<string, unknown>> {
  return auditLog(env.configDir);
}

async function held(uid: string, sku: string): Promise<number> {
  const r = await env.read(['products', 'list', uid, '--sku', sku, '--json']);
  expect(r.code, r.stderr).toBe(0);
  // A base is listed as its smallest pack, with the base's units.
  const data = json<Array<{ purchase: { data: unknown } }>>(r)[0]?.purchase.data;
  if (data && typeof data === 'object' && 'quantity' in data) return Number(data.quantity);
  return typeof data === 'number' ? data : 0;
}

async function progress(uid: string, developerId: string): Promise<string> {
  const r = await env.read(['achievements', 'list', uid, '--developer-id', developerId, '--json']);
  expect(r.code, r.stderr).toBe(0);
  const a = json<Array<{ developer_id: string; current_value: unknown; state: string }>>(r).find(
    (e) => e.developer_id === developerId,
  );
  return `${String(a?.current_value)} ${a?.state}`;
}

/** The receipt's `Undo:` line, as printed. */
function printedUndo(r: CliResult): string {
  const line = r.stderr.split('\n').find((l) => l.startsWith('Undo:'));
  expect(line, r.stderr).toBeDefined();
  return line!.replace(/^Undo:\s+/, '');
}

/** A change on the strict production profile (reason required), confirmed with --yes. */
const onStrictProd = (args: string[]): Promise<CliResult> => env.run(['--profile', 'strict-prod', '--yes', ...args]);

const WHY = ['--reason', "refund: the player's lost purchase", '--ticket', 'SUP-5201'];

describe('the printed undo pastes under require_reason', () => {
  it('products give with --reason/--ticket: its Undo line runs on the strict production profile and restores the holding', async () => {
    const before = await held(UID, 'gems');
    const r = await onStrictProd(['products', 'give', UID, 'gems:500', '--qty', '2', ...WHY]);
    expect(r.code, r.stderr).toBe(0);
    expect(await held(UID, 'gems')).toBe(before + 1000);
    const undo = printedUndo(r);
    expect(undo).toBe(
      `udcli products take ${UID} gems --qty 1000 --profile strict-prod --base-url ${env.sandbox.url} --reason 'undo: refund: the player'\\''s lost purchase' --ticket SUP-5201`,
    );
    // The audit line's undo is the same line.
    expect(auditLines().at(-1)).toMatchObject({ undo, ticket: 'SUP-5201' });

    const undone = await runPrinted(`${undo} --yes`, env.env);
    expect(undone.code, undone.stderr).toBe(0);
    expect(await held(UID, 'gems')).toBe(before);
    // The undo is itself a change with its own reason and ticket, found by the same ticket.
    expect(auditLines().at(-1)).toMatchObject({
      reason: "undo: refund: the player's lost purchase",
      ticket: 'SUP-5201',
    });
  });

  it('achievements set with --reason/--ticket: its Undo line runs on the strict production profile and restores the progress', async () => {
    const before = await progress(UID, 'LEVEL_10');
    const r = await onStrictProd(['achievements', 'set', UID, 'LEVEL_10', '90%', ...WHY]);
    expect(r.code, r.stderr).toBe(0);
    expect(await progress(UID, 'LEVEL_10')).not.toBe(before);
    const undo = printedUndo(r);
    expect(undo).toContain("--reason 'undo: refund: the player'\\''s lost purchase' --ticket SUP-5201");
    expect(auditLines().at(-1)).toMatchObject({ undo });
    const undone = await runPrinted(`${undo} --yes`, env.env);
    expect(undone.code, undone.stderr).toBe(0);
    expect(await progress(UID, 'LEVEL_10')).toBe(before);
  });

  it('a reason of the longest length: the undo reason is cut to what --reason takes, and the undo still runs', async () => {
    const before = await held(UID, 'xp-boost');
    const reason = `${'x'.repeat(495)} end!`;
    const r = await onStrictProd(['products', 'give', UID, 'xp-boost', '--reason', reason, '--ticket', 'SUP-5202']);
    expect(r.code, r.stderr).toBe(0);
    const undo = printedUndo(r);
    expect(undo).toContain(`--reason 'undo: ${'x'.repeat(493)}…' --ticket SUP-5202`);
    const undone = await runPrinted(`${undo} --yes`, env.env);
    expect(undone.code, undone.stderr).toBe(0);
    expect(await held(UID, 'xp-boost')).toBe(before);
  });

  it('without --reason/--ticket the undo carries neither, as before', async () => {
    const r = await env.run(['products', 'give', UID, 'xp-boost']);
    expect(r.code, r.stderr).toBe(0);
    expect(printedUndo(r)).toBe(
      `udcli products take ${UID} xp-boost --qty 1 --profile sandbox --base-url ${env.sandbox.url}`,
    );
  });
});

describe('products take SKU:PACK --qty N takes N packs, as give gives them', () => {
  it('take gems:500 --qty 1 takes 500 units; its receipt says so and its undo gives them back', async () => {
    const grant = await env.run(['products', 'give', UID, 'gems', '--qty', '1000']);
    expect(grant.code, grant.stderr).toBe(0);
    const before = await held(UID, 'gems');
    const r = await env.run(['products', 'take', UID, 'gems:500', '--qty', '1']);
    expect(r.code, r.stderr).toBe(0);
    expect(await held(UID, 'gems')).toBe(before - 500);
    expect(r.stderr).toContain(
      `Changed: gems:500 of 01e5…: ${before} → ${before - 500} (take 1 × gems:500 = 500 units)`,
    );
    const undone = await runPrinted(printedUndo(r), env.env);
    expect(undone.code, undone.stderr).toBe(0);
    expect(await held(UID, 'gems')).toBe(before);
  });

  it('the dry run of take gems:500 --qty 2 shows 1,000 units, and sends nothing that changes state', async () => {
    const grant = await env.run(['products', 'give', UID, 'gems', '--qty', '1000']);
    expect(grant.code, grant.stderr).toBe(0);
    const before = await held(UID, 'gems');
    const since = await lastRequestId(env.sandbox.url);
    const r = await env.run(['-o', 'table', 'products', 'take', UID, 'gems:500', '--qty', '2', '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      `Expected: gems:500 of 01e5…: ${before} → ${before - 1000} (take 2 × gems:500 = 1,000 units)`,
    );
    // The PUT as a POST with method=put: the request the change would send, 1,000 units.
    expect(r.stdout).toMatch(/Request: {2}(PUT|POST) \S*[?&]qty=1000&decrement=true&/);
    expect((await loggedSince(env.sandbox.url, since)).filter((q) => q.method !== 'GET')).toEqual([]);
    expect(await held(UID, 'gems')).toBe(before);
  });

  it('a batch take of packs takes them from every user', async () => {
    const grant = await env.run(['products', 'give', UID, 'gems', '--qty', '1000']);
    expect(grant.code, grant.stderr).toBe(0);
    const before = await held(UID, 'gems');
    const r = await env.run(['products', 'take', '@-', 'gems:500', '--qty', '2', '--yes'], { input: `${UID}\n` });
    expect(r.code, r.stderr).toBe(0);
    expect(await held(UID, 'gems')).toBe(before - 1000);
    const give = await env.run(['products', 'give', UID, 'gems:500', '--qty', '2']);
    expect(give.code, give.stderr).toBe(0);
  });

  it('packs beyond what the service takes at once: exit 2, nothing sent', async () => {
    const since = await lastRequestId(env.sandbox.url);
    const r = await env.run(['products', 'take', UID, 'gems:500', '--qty', '2000001']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'invalid --qty: 2,000,001 × gems:500 = 1,000,000,500 units, more than the 1,000,000,000',
    );
    expect(await loggedSince(env.sandbox.url, since)).toEqual([]);
  });
});
