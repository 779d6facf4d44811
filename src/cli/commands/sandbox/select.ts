/**
 * `--port N` or `--name NAME` of `status`, `stop` and `logs`: which of the sandboxes on this
 * machine (issue 53) the command is about.
 */
import { UsageError } from '../../../errors.js';
import { parsePort, parseSandboxName } from './options.js';
import { isAlive, nameOf, reachableUrl, sandboxRecords, type PidRecord } from './pidfile.js';

export interface RawSelection {
  port?: string;
  name?: string;
}

export interface Selection {
  /** How the user named it: "on port 9090", "named qa". */
  what: string;
  matches: (record: PidRecord) => boolean;
}

export function parseSelection(raw: RawSelection): Selection | undefined {
  if (raw.port !== undefined && raw.name !== undefined)
    throw new UsageError('--port and --name cannot both be given: one names the sandbox');
  if (raw.name !== undefined) {
    const name = parseSandboxName(raw.name);
    return { what: `named ${name}`, matches: (r) => nameOf(r) === name };
  }
  if (raw.port !== undefined) {
    const port = parsePort(raw.port);
    return { what: `on port ${port}`, matches: (r) => r.port === port };
  }
  return undefined;
}

/** The record the selection names: a live one first (a stale record may share its port). */
export function selectedRecord(env: NodeJS.ProcessEnv, selection: Selection): PidRecord | undefined {
  const records = sandboxRecords(env).filter(selection.matches);
  return records.find((r) => isAlive(r.pid)) ?? records[0];
}

/** "default at http://127.0.0.1:8787 (pid 4242)": one sandbox in a list. */
export function listedText(record: PidRecord): string {
  return `${nameOf(record)} at ${reachableUrl(record.url)} (pid ${record.pid}, database ${record.db})`;
}
