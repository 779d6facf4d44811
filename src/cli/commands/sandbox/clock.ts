/**
 * `udcli sandbox clock now | advance DURATION | set ISO|now | reset`: the running sandbox's virtual clock,
 * through `/_sandbox/clock`. Which sandbox: --port, else the one `sandbox exec` runs the command
 * against, else the one the pid file names (as `status` and `stop` find it), else where the
 * built-in profile looks (UDCLI_SANDBOX_PORT or 8787).
 */
import { UdcliError, UsageError } from '../../../errors.js';
import { builtInSandboxUrl } from '../../../config/resolve.js';
import { ClockInputError, parseAdvance, parseSetTime } from '../../../sandbox/clock-input.js';
import type { Factory } from '../../../ops/factory.js';
import { wantsJson } from './json.js';
import { parsePort } from './options.js';
import { reachableUrl, sandboxState } from './pidfile.js';
import { jsonText, printable } from '../../../printable.js';

export interface ClockOptions {
  port?: string;
  json?: boolean;
}

export type ClockAction = { action: 'now' } | { action: 'advance'; value: string } | { action: 'set'; value: string } | { action: 'reset' };

interface ClockReply {
  now: string;
  unix: number;
  offset_seconds: number;
  moved_seconds?: number;
  note?: string;
}

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

async function sandboxUrl(raw: ClockOptions, env: NodeJS.ProcessEnv): Promise<string> {
  if (raw.port !== undefined) {
    const port = parsePort(raw.port);
    if (port === 0) throw new UsageError('--port must name the port the sandbox listens on (1-65535)');
    return `http://127.0.0.1:${port}`;
  }
  // Inside `sandbox exec`: the command's own sandbox.
  if (env.UDCLI_SANDBOX_DB && env.UDCLI_BASE_URL) return env.UDCLI_BASE_URL.replace(/\/+$/, '');
  const current = await sandboxState(env);
  if (current.state === 'running') return reachableUrl(current.record.url);
  return builtInSandboxUrl(env);
}

function offsetText(seconds: number): string {
  return `${seconds >= 0 ? '+' : '-'}${Math.abs(seconds)} s`;
}

export async function clockCommand(factory: Factory, action: ClockAction, raw: ClockOptions): Promise<void> {
  const field = instruction(action);
  const { stdout, stderr, env } = factory.io;
  const url = await sandboxUrl(raw, env);
  let response: Response;
  try {
    response = await fetch(`${url}/_sandbox/clock`, {
      method: field === null ? 'GET' : 'POST',
      ...(field === null ? {} : { body: field, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      signal: AbortSignal.timeout(5_000),
    });
  } catch (error) {
    throw new UdcliError(`no sandbox answers at ${url}`, {
      hint: 'start one with `udcli sandbox start --detach`, or name its port with --port',
      cause: error,
    });
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  if (!response.ok || typeof (body as ClockReply | undefined)?.now !== 'string') {
    const message = (body as { message?: unknown } | undefined)?.message;
    throw new UdcliError(
      typeof message === 'string' ? `the sandbox at ${url} refused: ${message}` : `${url} did not answer as a sandbox with a clock (HTTP ${response.status})`,
    );
  }
  const reply = body as ClockReply;
  if (wantsJson(factory, raw.json)) stdout.write(`${jsonText(reply, 2)}\n`);
  else stdout.write(`${printable(String(reply.now))} (offset ${offsetText(reply.offset_seconds)})\n`);
  if (reply.note !== undefined) stderr.write(`udcli: ${printable(String(reply.note))}\n`);
}
