/**
 * `udcli sandbox clock now | advance DURATION | set ISO|now | reset`: the running sandbox's virtual clock,
 * through `/_sandbox/clock`. Which sandbox: --port, else the one `sandbox exec` runs the command
 * against, else the one the pid file names (as `status` and `stop` find it), else where the
 * built-in profile looks (UDCLI_SANDBOX_PORT or 8787).
 */
import { UsageError } from '../../../errors.js';
import { builtInSandboxUrl } from '../../../config/resolve.js';
import { ClockInputError, parseAdvance, parseSetTime } from '../../../sandbox/clock-input.js';
import type { Factory } from '../../../ops/factory.js';
import { sandboxClock } from '../../../client/sandbox-admin.js';
import { wantsJson } from './json.js';
import { parsePort } from './options.js';
import { execSandbox, reachableUrl, sandboxState } from './pidfile.js';
import { jsonText, printable } from '../../../printable.js';

export interface ClockOptions {
  port?: string;
  json?: boolean;
}

export type ClockAction =
  | { action: 'now' }
  | { action: 'advance'; value: string }
  | { action: 'set'; value: string }
  | { action: 'reset' };

/** The form field to send, checked here first so bad input sends nothing. */
function instruction(action: ClockAction): string | null {
  try {
    if (action.action === 'reset') return 'reset=1';
    if (action.action === 'advance') return `advance=${parseAdvance(action.value)}`;
    // `now` is the real time: the same as reset, so the offset is exactly 0.
    if (action.action === 'set' && action.value.trim().toLowerCase() === 'now') return 'reset=1';
    if (action.action === 'set') return `set=${encodeURIComponent(new Date(parseSetTime(action.value)).toISOString())}`;
    return null;
  } catch (error) {
    if (error instanceof ClockInputError) throw new UsageError(error.message);
    throw error;
  }
}

async function sandboxUrl(raw: ClockOptions, env: NodeJS.ProcessEnv, note: (line: string) => void): Promise<string> {
  if (raw.port !== undefined) {
    const port = parsePort(raw.port);
    if (port === 0) throw new UsageError('--port must name the port the sandbox listens on (1-65535)');
    return `http://127.0.0.1:${port}`;
  }
  // Inside `sandbox exec`: the command's own sandbox.
  const exec = execSandbox(env);
  if (exec !== undefined) return exec.url;
  const current = await sandboxState(env, note);
  if (current.state === 'running') return reachableUrl(current.record.url);
  return builtInSandboxUrl(env);
}

function offsetText(seconds: number): string {
  return `${seconds >= 0 ? '+' : '-'}${Math.abs(seconds)} s`;
}

export async function clockCommand(factory: Factory, action: ClockAction, raw: ClockOptions): Promise<void> {
  const field = instruction(action);
  const { stdout, stderr, env } = factory.io;
  const url = await sandboxUrl(raw, env, (line) => stderr.write(line));
  const reply = await sandboxClock(url, field);
  if (wantsJson(factory, raw.json)) stdout.write(`${jsonText(reply, 2)}\n`);
  else stdout.write(`${printable(String(reply.now))} (offset ${offsetText(reply.offset_seconds)})\n`);
  if (reply.note !== undefined) stderr.write(`udcli: ${printable(String(reply.note))}\n`);
}
