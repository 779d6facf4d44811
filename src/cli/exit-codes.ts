/**
 * The one mapping from errors to exit codes and to the line(s) printed for them (docs/CLI.md
 * "Exit codes"). Only src/cli/main.ts calls it.
 */
import {
  ApiError,
  BatchIncompleteError,
  CancelledError,
  ChildExitError,
  InterruptedError,
  MalformedReplyError,
  NetworkError,
  NotAuthenticatedError,
  TrailUnreachableError,
  UdcliError,
  UsageError,
} from '../errors.js';

export const EXIT = {
  OK: 0,
  ERROR: 1,
  USAGE: 2,
  NOT_AUTHENTICATED: 3,
  NOT_FOUND: 4,
  NETWORK: 5,
  BATCH_INCOMPLETE: 6,
  RATE_LIMITED: 7,
  // 128 + SIGINT, as shells report an interrupted command.
  INTERRUPTED: 130,
} as const;

/** A CommanderError, recognised by shape so this module does not need commander. */
interface CommanderLike {
  code: string;
  exitCode: number;
  message: string;
}

export function isCommanderError(error: unknown): error is CommanderLike {
  if (!(error instanceof Error)) return false;
  const { code, exitCode } = error as Partial<CommanderLike>;
  return typeof code === 'string' && code.startsWith('commander.') && typeof exitCode === 'number';
}

/** The status an ApiError stands for: the envelope code when it is an HTTP status, else the HTTP status. */
function apiStatus(error: ApiError): number {
  return error.code >= 100 && error.code <= 599 ? error.code : error.httpStatus;
}

export function exitCodeFor(error: unknown): number {
  // `sandbox exec` passes its command's exit code on unchanged.
  if (error instanceof ChildExitError) return error.exitCode;
  if (isCommanderError(error)) return error.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
  if (error instanceof UsageError || error instanceof CancelledError) return EXIT.USAGE;
  if (error instanceof NotAuthenticatedError) return EXIT.NOT_AUTHENTICATED;
  if (error instanceof ApiError) {
    const status = apiStatus(error);
    // Without the service's envelope only authentication and rate limits keep their meaning: a
    // 404 page from a web server is a wrong base_url, not a missing user (exit 1, not 4).
    if (error.withoutEnvelope && status !== 401 && status !== 403 && status !== 429) return EXIT.ERROR;
    if (status === 401 || status === 403) return EXIT.NOT_AUTHENTICATED;
    if (status === 404) return EXIT.NOT_FOUND;
    if (status === 429) return EXIT.RATE_LIMITED;
    return EXIT.ERROR;
  }
  if (error instanceof NetworkError) return EXIT.NETWORK;
  if (error instanceof BatchIncompleteError) return EXIT.BATCH_INCOMPLETE;
  if (error instanceof InterruptedError) return EXIT.INTERRUPTED;
  if (error instanceof MalformedReplyError) return EXIT.ERROR;
  return EXIT.ERROR;
}

/** What main knows about the run when an error reaches it, for hints. */
export interface ErrorContext {
  /** The base URL requests went to, when settings were resolved. */
  baseUrl?: string;
}

export interface ErrorReport {
  code: number;
  /** The lines for stderr (without the `udcli: ` prefix on the hint); empty for help/version. */
  message?: string;
  hint?: string;
  /** Not one of udcli's typed errors: a bug (main shows its stack under --verbose). */
  internal?: true;
}

function isLocalUrl(url: string | undefined): boolean {
  if (!url) return false;
  try {
    const host = new URL(url).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
  } catch {
    return false;
  }
}

function hintFor(error: unknown, context: ErrorContext): string | undefined {
  // Nothing listening on a local URL: it is the sandbox that is not running (main knows the URL).
  if (
    error instanceof NetworkError &&
    !(error instanceof TrailUnreachableError) &&
    error.failure === 'unreachable' &&
    isLocalUrl(context.baseUrl)
  ) {
    return 'start one with: udcli sandbox start';
  }
  // The client hints at what an API error means (api_key, signing, clock); only what is
  // about this CLI's own options is added here.
  if (error instanceof UdcliError && error.hint) return error.hint;
  if (error instanceof ApiError) {
    if (apiStatus(error) === 429) {
      return error.retryAfter === undefined
        ? 'slow down, or allow more retries with --retries N'
        : `the server asks to wait ${error.retryAfter} s; allow more retries with --retries N`;
    }
    return undefined;
  }
  if (error instanceof NotAuthenticatedError) return 'get a fresh token: udcli auth token <game_id>';
  return undefined;
}

/** Commander's "error: unknown command 'x'\n(Did you mean y?)" as one line without the prefix. */
function commanderMessage(message: string): string {
  return message
    .replace(/^error:\s*/i, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) =>
      line.replace(/^\((Did you mean .*)\)$/, (_m, s: string) => `(${s.charAt(0).toLowerCase()}${s.slice(1)})`),
    )
    .join(' ');
}

export function describeError(error: unknown, context: ErrorContext = {}): ErrorReport {
  const code = exitCodeFor(error);
  // The command's own output already said what happened (exec prints its own line when it must).
  if (error instanceof ChildExitError) return { code };
  if (isCommanderError(error)) {
    // Help and version were already printed; help shown for a missing subcommand needs no line.
    if (code === EXIT.OK || error.code === 'commander.help') return { code };
    return { code, message: commanderMessage(error.message) };
  }
  const report: ErrorReport = { code };
  if (error instanceof UdcliError) {
    report.message = error.message;
  } else {
    report.message = `internal error: ${error instanceof Error ? error.message : String(error)}`;
    report.internal = true;
  }
  const hint = hintFor(error, context);
  if (hint) report.hint = hint;
  return report;
}
