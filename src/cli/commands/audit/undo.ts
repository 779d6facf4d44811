/**
 * `udcli audit undo --run ID | --ticket REF [--out DIR]`: writes the inverse batch of a run or a
 * ticket (one file of users for each undo command, src/audit/undo-plan.ts) and prints the commands
 * that run it, each after its dry run. It sends nothing itself: the operator reads, dry-runs and
 * runs each step, under the same confirmation, policy and trail as any change.
 */
import { closeSync, constants, fsyncSync, lstatSync, rmSync, statSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AuditEntry } from '../../../audit/log.js';
import { shellCommand } from '../../../audit/shell.js';
import { openTrail } from '../../../audit/trail.js';
import { stepArgv, undoPlan, type UndoPlan } from '../../../audit/undo-plan.js';
import { UsageError } from '../../../errors.js';
import type { Factory } from '../../../ops/factory.js';
import { hasControl, printable } from '../../../printable.js';
import { openNoFollow } from '../../../write-whole.js';

export interface AuditUndoOptions {
  run?: string;
  ticket?: string;
  out?: string;
}

/** A run id or a ticket as given: one short line. */
function filterValue(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (v === '' || v.length > 100 || hasControl(v))
    throw new UsageError(
      `invalid ${flag}: expected a short value such as ${flag === '--run' ? '20261127T1008-3f9a2c' : 'SUP-1234'}`,
    );
  return v;
}

/** `undo-SUP-1234-1.txt`: the run or ticket in the name, anything a file name should not hold as `_`. */
function fileName(label: string, n: number): string {
  return `undo-${label.replace(/[^\w.-]/g, '_').replace(/^\.+/, '_')}-${n}.txt`;
}

/** The step files, created only where nothing is (no file, no link): all of them, or none. */
function writeFiles(files: ReadonlyArray<{ path: string; uids: string[] }>): void {
  for (const { path } of files) {
    let there = true;
    try {
      lstatSync(path);
    } catch {
      there = false;
    }
    if (there) throw new UsageError(`${path} already exists: not overwritten; nothing was written`);
  }
  const written: string[] = [];
  try {
    for (const { path, uids } of files) {
      // O_EXCL: a file or link made there since the check above is refused, never written through.
      const fd = openNoFollow(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
      written.push(path);
      try {
        writeSync(fd, `${uids.join('\n')}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
  } catch (error) {
    for (const path of written) rmSync(path, { force: true });
    throw new UsageError(`cannot write the undo files: ${(error as Error).message}; nothing was written`);
  }
}

function outDir(out: string | undefined): string {
  const dir = resolve(out ?? '.');
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new UsageError(`invalid --out: ${dir} is not a directory`);
  return dir;
}

function leftOutLine({ entry, why }: UndoPlan['leftOut'][number]): string {
  const what = entry.change ?? entry.command;
  const tail =
    why === 'outcome unknown'
      ? 'outcome unknown: settle it first (udcli audit resolve), then undo it by hand if it was applied'
      : why === 'no undo'
        ? 'no undo'
        : `undo not in a form udcli writes, not batched: ${entry.undo ?? ''}`;
  return printable(`  ${entry.id ?? entry.time} ${entry.uid}: ${what}: ${tail}`);
}

export async function auditUndo(factory: Factory, opts: AuditUndoOptions): Promise<void> {
  const run = filterValue(opts.run, '--run');
  const ticket = filterValue(opts.ticket, '--ticket');
  if ((run === undefined) === (ticket === undefined))
    throw new UsageError('audit undo needs one of --run ID or --ticket REF');
  const dir = outDir(opts.out);
  const settings = await factory.settings();
  const trail = await openTrail(factory.io.env, settings);
  const entries: AuditEntry[] = [];
  try {
    for await (const e of trail.read(run !== undefined ? { run } : { ticket: ticket! })) entries.push(e);
  } finally {
    await trail.close();
  }
  const what = run !== undefined ? `run ${run}` : `ticket ${ticket}`;
  if (entries.length === 0) throw new UsageError(`no line of the trail (${trail.where}) is of ${what}`);
  const plan = undoPlan(entries);
  const label = (run ?? ticket)!;
  const files = plan.steps.map((step) => ({ step, path: join(dir, fileName(label, step.n)), uids: step.uids }));
  writeFiles(files);

  const steps = files.map(({ step, path }) => ({
    file: path,
    users: step.uids.length,
    commands: step.commands.map((c) => ({
      dry_run: shellCommand([...stepArgv(c, path), '--dry-run']),
      run: shellCommand(stepArgv(c, path)),
    })),
  }));
  const out = await factory.output();
  if (out.format !== 'table') {
    out.text(
      JSON.stringify(
        {
          of: run !== undefined ? { run } : { ticket },
          undone: plan.undone,
          steps,
          left_out: plan.leftOut.map(({ entry, why }) => ({
            id: entry.id ?? null,
            uid: entry.uid,
            change: entry.change ?? null,
            command: entry.command,
            undo: entry.undo ?? null,
            why,
          })),
        },
        null,
        2,
      ),
    );
    return;
  }
  const lines: string[] = [];
  if (steps.length === 0) lines.push(`Nothing of ${what} can be undone by udcli: no file written.`);
  else {
    lines.push(
      `Undo of ${what}: ${plan.undone} ${plan.undone === 1 ? 'change' : 'changes'} in ${steps.length} ${steps.length === 1 ? 'step' : 'steps'}, nothing sent.`,
      `Run the steps in order; each command's dry run first (it sends nothing), check it, then the command:`,
    );
    for (const [i, s] of steps.entries()) {
      lines.push('', `${i + 1}. ${s.users} ${s.users === 1 ? 'user' : 'users'} in ${s.file}`);
      for (const c of s.commands) lines.push(`   ${c.dry_run}`, `   ${c.run}`);
    }
  }
  if (plan.leftOut.length > 0) {
    lines.push('', `Not in the steps (${plan.leftOut.length}):`);
    for (const l of plan.leftOut) lines.push(leftOutLine(l));
  }
  for (const line of lines) out.text(printable(line));
}
