/**
 * Issue 52, point 7: `udcli audit undo --ticket REF | --run ID` writes the inverse batch of the
 * changes made for a ticket (files of users, mode 0600, never over an existing file) and prints
 * the commands that run it, each after its dry run; it sends nothing itself. Run as printed (sh
 * parses each line), the dry runs send nothing that changes state (the sandbox's request log),
 * and the commands bring every player back to the state before.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, fileSandbox } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { json, lastRequestId, loggedSince, runPrinted } from './harness.js';
import { fileScratch } from '../scratch.js';

const env = fileSandbox();
const scratch = fileScratch('udcli-e2e-audit-undo-');

const USERS = ['alice', 'bob', 'carol'].map((u) => uidForUsername(u));
const PLAYERS = [...USERS, DEMO.user.uid];

/** What a player holds and how far each quest is: what the undo must restore. */
async function state(uid: string): Promise<unknown> {
  const products = await env.read(['products', 'list', uid, '--json']);
  expect(products.code, products.stderr).toBe(0);
  const quests = await env.read(['achievements', 'list', uid, '--json']);
  expect(quests.code, quests.stderr).toBe(0);
  return {
    products: json<Array<{ product: { sku: string }; purchase: { data: unknown } }>>(products).map((p) => [
      p.product.sku,
      p.purchase.data,
    ]),
    quests: json<Array<{ developer_id: string; current_value: unknown; state: string }>>(quests).map((q) => [
      q.developer_id,
      Number(q.current_value),
      q.state,
    ]),
  };
}

async function ok(args: string[], input?: string): Promise<void> {
  const r = await env.run(args, input === undefined ? {} : { input });
  expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(0);
}

interface Plan {
  undone: number;
  steps: Array<{ file: string; users: number; commands: Array<{ dry_run: string; run: string }> }>;
  left_out: Array<{ uid: string; why: string; change: string | null }>;
}

const WHY = ['--ticket', 'SUP-5300', '--reason', 'wrong compensation'];

describe('audit undo --ticket', () => {
  it('writes the inverse batch; its printed dry runs send nothing, its commands restore every player', async () => {
    // Another ticket's change, before: the undo of SUP-5300 must leave it.
    await ok(['products', 'give', USERS[0]!, 'gems', '--qty', '7', '--ticket', 'SUP-OTHER']);
    const before = await Promise.all(PLAYERS.map(state));

    await ok(['products', 'give', '@-', 'xp-boost', '--qty', '2', ...WHY], `${USERS.join('\n')}\n`);
    await ok(['products', 'give', USERS[0]!, 'gems:500', '--qty', '2', ...WHY]);
    await ok(['achievements', 'set', USERS[1]!, 'LEVEL_10', '90%', ...WHY]);
    // The same user and quest twice: undone newest first.
    await ok(['achievements', 'set', USERS[1]!, 'LEVEL_10', '95%', ...WHY]);
    // Completed: undone by reset && set.
    await ok(['achievements', 'set', USERS[2]!, 'LEVEL_10', '100%', ...WHY]);
    await ok(['products', 'take', DEMO.user.uid, 'gems', '--qty', '5', ...WHY]);
    // A reset that makes the record, then one that changes nothing: it has no undo (listed, not batched).
    await ok(['achievements', 'reset', DEMO.user.uid, 'SPEED RUN/100%', ...WHY]);
    await ok(['achievements', 'reset', DEMO.user.uid, 'SPEED RUN/100%', ...WHY]);
    const changed = await Promise.all(PLAYERS.map(state));
    expect(changed).not.toEqual(before);

    const out = join(scratch, 'out');
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out);
    const since = await lastRequestId(env.sandbox.url);
    const r = await env.run(['audit', 'undo', '--ticket', 'SUP-5300', '--out', out, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    // Writing the plan sent nothing.
    expect(await loggedSince(env.sandbox.url, since)).toEqual([]);
    const plan = json<Plan>(r);
    expect(plan.undone).toBe(9);
    expect(plan.left_out).toEqual([expect.objectContaining({ uid: DEMO.user.uid, why: 'no undo' })]);
    for (const step of plan.steps) {
      expect(lstatSync(step.file).mode & 0o777).toBe(0o600);
      expect(readFileSync(step.file, 'utf8').trim().split('\n')).toHaveLength(step.users);
    }
    // The three xp-boost grants are one step, one file of three users.
    expect(plan.steps.some((s) => s.users === 3 && s.commands[0]!.run.includes('products take @'))).toBe(true);
    // Every command carries the change's reason and ticket.
    for (const c of plan.steps.flatMap((s) => s.commands)) {
      expect(c.run).toContain("--reason 'undo: wrong compensation' --ticket SUP-5300");
      expect(c.dry_run).toBe(`${c.run} --dry-run`);
    }

    // Each dry run, as printed: nothing that changes state is sent, and nothing changes.
    const dry = await lastRequestId(env.sandbox.url);
    for (const c of plan.steps.flatMap((s) => s.commands)) {
      const d = await runPrinted(c.dry_run, env.env);
      expect(d.code, `${c.dry_run}\n${d.stderr}`).toBe(0);
    }
    expect((await loggedSince(env.sandbox.url, dry)).filter((q) => q.method !== 'GET')).toEqual([]);
    expect(await Promise.all(PLAYERS.map(state))).toEqual(changed);

    // Then each command, in order: every player is back where they were. (Off a terminal a
    // delete needs --yes where an operator at one would answer its question.)
    for (const c of plan.steps.flatMap((s) => s.commands)) {
      const done = await runPrinted(`${c.run} --yes`, env.env);
      expect(done.code, `${c.run}\n${done.stderr}`).toBe(0);
    }
    expect(await Promise.all(PLAYERS.map(state))).toEqual(before);
  });

  it('the table form prints each dry run before its command', async () => {
    await ok(['products', 'give', USERS[0]!, 'xp-boost', '--ticket', 'SUP-5301']);
    const out = mkdtempSync(join(scratch, 'table-'));
    const r = await env.run(['-o', 'table', 'audit', 'undo', '--ticket', 'SUP-5301', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const file = join(out, 'undo-SUP-5301-1.txt');
    expect(r.stdout).toContain(`1. 1 user in ${file}\n`);
    const take = `udcli products take @${file} xp-boost --qty 1 --profile sandbox --base-url ${env.sandbox.url} --ticket SUP-5301`;
    expect(r.stdout).toContain(`   ${take} --dry-run\n   ${take}\n`);
  });

  it('never writes over a file or through a link: exit 2, nothing written', async () => {
    await ok(['products', 'give', USERS[0]!, 'xp-boost', '--ticket', 'SUP-5302']);
    const out = mkdtempSync(join(scratch, 'taken-'));
    writeFileSync(join(out, 'undo-SUP-5302-1.txt'), 'mine\n');
    const r = await env.run(['audit', 'undo', '--ticket', 'SUP-5302', '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('undo-SUP-5302-1.txt already exists: not overwritten; nothing was written');
    expect(readFileSync(join(out, 'undo-SUP-5302-1.txt'), 'utf8')).toBe('mine\n');

    const linked = mkdtempSync(join(scratch, 'linked-'));
    const target = join(scratch, 'link-target');
    symlinkSync(target, join(linked, 'undo-SUP-5302-1.txt'));
    const l = await env.run(['audit', 'undo', '--ticket', 'SUP-5302', '--out', linked]);
    expect(l.code).toBe(2);
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(linked)).toEqual(['undo-SUP-5302-1.txt']);
  });

  it('needs one of --run or --ticket; a ticket with no line is exit 2', async () => {
    expect((await env.run(['audit', 'undo'])).code).toBe(2);
    expect((await env.run(['audit', 'undo', '--run', 'x', '--ticket', 'y'])).code).toBe(2);
    const none = await env.run(['audit', 'undo', '--ticket', 'SUP-NONE', '--out', scratch]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('is of ticket SUP-NONE');
  });
});
