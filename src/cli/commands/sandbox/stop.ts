/**
 * `udcli sandbox stop [--port N | --name NAME | --all]`: stops a sandbox named by its record
 * (SIGTERM, then SIGKILL). Without a choice, the one that runs; when several run, none: it lists
 * them, each with the command that stops it.
 */
import { UdcliError, UsageError } from '../../../errors.js';
import type { Factory } from '../../../ops/factory.js';
import { printable } from '../../../printable.js';
import { recordPath } from '../../../sandbox/paths.js';
import {
  commandFor,
  liveSandboxes,
  nameOf,
  namedSandboxState,
  removePidFile,
  sandboxRecords,
  waitForExit,
  type PidRecord,
  type SandboxState,
} from './pidfile.js';
import { listedText, parseSelection, selectedRecord, type RawSelection } from './select.js';

export interface StopOptions extends RawSelection {
  all?: boolean;
}

export async function stopCommand(factory: Factory, raw: StopOptions = {}): Promise<void> {
  const { stderr, env } = factory.io;
  const selection = parseSelection(raw);
  if (selection !== undefined && raw.all === true)
    throw new UsageError('--all stops every sandbox: it cannot be given with --port or --name');
  if (selection !== undefined) {
    const record = selectedRecord(env, selection);
    if (record === undefined) {
      stderr.write(`no sandbox ${selection.what} is running\n`);
      return;
    }
    await stopOne(factory, await namedSandboxState(env, nameOf(record)));
    return;
  }
  const live = await liveSandboxes(env);
  if (live.length > 1 && raw.all !== true) {
    const records = live.map((s) => (s as { record: PidRecord }).record);
    throw new UsageError(
      printable(
        `${records.length} sandboxes are running; say which one to stop: ${records.map(listedText).join('; ')}`,
      ),
      {
        hint: printable(
          `${records.map((r) => commandFor(env, 'stop', r)).join(', or ')}; or all of them: udcli sandbox stop --all`,
        ),
      },
    );
  }
  if (live.length > 0) {
    for (const state of live) await stopOne(factory, state);
    return;
  }
  // None runs: the records of those that died are removed, as a stop would have.
  const stale = sandboxRecords(env);
  for (const record of stale) removePidFile(recordPath(env, nameOf(record)), record.pid);
  stderr.write(
    stale.length === 0
      ? 'no sandbox is running\n'
      : `no sandbox is running (removed the stale pid file of pid ${stale.map((r) => r.pid).join(', ')})\n`,
  );
}

async function stopOne(factory: Factory, current: SandboxState): Promise<void> {
  const { stderr, env } = factory.io;
  switch (current.state) {
    case 'none':
      stderr.write('no sandbox is running\n');
      return;
    case 'stale': {
      const pidPath = recordPath(env, nameOf(current.record));
      removePidFile(pidPath, current.record.pid);
      stderr.write(
        `the sandbox ${nameOf(current.record)} is not running (removed the stale pid file of pid ${current.record.pid})\n`,
      );
      return;
    }
    case 'unresponsive': {
      const pidPath = recordPath(env, nameOf(current.record));
      // The pid may have been reused by another program: do not signal it blindly.
      throw new UdcliError(
        `process ${current.record.pid} from ${pidPath} does not answer as the sandbox at ${current.record.url}`,
        {
          hint: `if it is a hung sandbox, kill ${current.record.pid}; if it is another program, delete ${pidPath}`,
        },
      );
    }
    case 'running': {
      const { pid, url } = current.record;
      process.kill(pid, 'SIGTERM');
      if (!(await waitForExit(pid, 10_000))) {
        process.kill(pid, 'SIGKILL');
        await waitForExit(pid, 5_000);
      }
      removePidFile(recordPath(env, nameOf(current.record)), pid);
      stderr.write(`stopped the sandbox at ${url} (pid ${pid})\n`);
      return;
    }
  }
}
