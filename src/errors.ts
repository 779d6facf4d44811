/**
 * Typed errors. Code anywhere throws these; src/cli/exit-codes.ts is the one place that turns
 * them into exit codes, and src/cli/main.ts the one place that prints them.
 * Messages must never contain a secret in full (use redact() from src/redact.ts).
 */

export class UdcliError extends Error {
  /** A second line printed under the message: what to try next. */
  hint?: string;
  constructor(message: string, options?: { hint?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    if (options?.hint) this.hint = options.hint;
  }
}

/** Bad arguments, malformed id, missing configuration. Nothing was sent. */
export class UsageError extends UdcliError {}

/** The user declined a confirmation prompt. Nothing was sent. */
export class CancelledError extends UdcliError {}

/**
 * The service answered with an error envelope (or an error HTTP status with no usable envelope).
 * `code` is the envelope code when there was one, else the HTTP status.
 */
export class ApiError extends UdcliError {
  readonly code: number;
  readonly httpStatus: number;
  /** Seconds from a Retry-After header, when the server sent one. */
  readonly retryAfter?: number;
  /** The error reply's body exactly as received, when there was one (`udcli api` prints it). */
  readonly bodyText?: string;
  /**
   * The reply carried no service envelope (HTML from a proxy or a web server, an empty body):
   * its HTTP status says nothing about the resource, e.g. a 404 there means a wrong base_url.
   */
  readonly withoutEnvelope: boolean;
  constructor(
    message: string,
    code: number,
    httpStatus: number,
    options?: { hint?: string; retryAfter?: number; cause?: unknown; bodyText?: string; withoutEnvelope?: boolean },
  ) {
    super(message, options);
    this.code = code;
    this.httpStatus = httpStatus;
    this.withoutEnvelope = options?.withoutEnvelope === true;
    if (options?.retryAfter !== undefined) this.retryAfter = options.retryAfter;
    if (options?.bodyText !== undefined) this.bodyText = options.bodyText;
  }
}

/** authenticate answered with a null payload: the user is not logged in or the token expired. */
export class NotAuthenticatedError extends UdcliError {}

/** The reply could not be understood (HTML, truncated JSON, wrong shape) and carried no status to go on. */
export class MalformedReplyError extends UdcliError {}

export type NetworkFailure = 'unreachable' | 'timeout' | 'reset';

/**
 * The request did not complete. `sent` tells whether the request may have reached the server:
 * for a non-idempotent mutation that means the outcome is unknown and it must not be retried.
 */
export class NetworkError extends UdcliError {
  readonly failure: NetworkFailure;
  readonly sent: boolean;
  constructor(message: string, failure: NetworkFailure, sent: boolean, options?: { hint?: string; cause?: unknown }) {
    super(message, options);
    this.failure = failure;
    this.sent = sent;
  }
}

/**
 * The team's trail (a profile's `audit_url`) could not be reached: no change is sent without its
 * line, so nothing was. Exit 5 as any unreachable server; never the sandbox's hint.
 */
export class TrailUnreachableError extends NetworkError {}

const unchanged = new WeakMap<object, { sent: boolean }>();

/**
 * Marks an error after which the change is known to have changed nothing: its read before
 * failed, or agi's unsigned first request did (`sent: false`); or a first attempt was sent, the
 * state read back showed it not applied, and the attempt sent again never got through (`sent:
 * true`). A batch reports it `failed`, never `unknown`, and a rerun with the journal sends it.
 */
export function markUnchanged<E>(error: E, sent = false): E {
  if (typeof error === 'object' && error !== null) unchanged.set(error, { sent });
  return error;
}

/** What markUnchanged said of the error, or null. */
export function knownUnchanged(error: unknown): { sent: boolean } | null {
  return typeof error === 'object' && error !== null ? (unchanged.get(error) ?? null) : null;
}

/** Nothing reached the server as a change: marked so, a usage error, or a network failure before sending. */
export function wasNotSent(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const known = unchanged.get(error);
  if (known) return !known.sent;
  return error instanceof UsageError || (error instanceof NetworkError && !error.sent);
}

/**
 * The user interrupted the run (Ctrl-C) and udcli stopped cleanly: exit 130, as shells report
 * SIGINT, so a script never mistakes a half-done batch for a finished one.
 */
/**
 * The one answer to "may this change have been applied?" (the audit line's "outcome unknown",
 * a batch item's `unknown`): it was sent, and the error does not say the server refused it
 * (a timeout or reset after sending, a reply that could not be read, a gateway's 502/504).
 */
export function outcomeUnknown(err: unknown): boolean {
  if (knownUnchanged(err) || wasNotSent(err)) return false;
  return (
    (err instanceof NetworkError && err.sent) ||
    err instanceof MalformedReplyError ||
    (err instanceof ApiError && (err.httpStatus === 502 || err.httpStatus === 504))
  );
}

export class InterruptedError extends UdcliError {}

/** A batch finished with some items failed or unknown; the items were already reported. */
export class BatchIncompleteError extends UdcliError {
  readonly failed: number;
  readonly unknown: number;
  constructor(failed: number, unknown: number) {
    super(`batch finished with ${failed} failed and ${unknown} unknown`);
    this.failed = failed;
    this.unknown = unknown;
  }
}

/**
 * A command run by udcli (`udcli sandbox exec -- CMD`) did not succeed: udcli exits with
 * `exitCode` (the command's exit code, 128+n when a signal ended it, 127 when it could not be
 * found, 126 when it could not be run) and prints nothing more; the command has spoken for
 * itself, and udcli already printed any line of its own.
 */
export class ChildExitError extends UdcliError {
  readonly exitCode: number;
  constructor(exitCode: number, message: string) {
    super(message);
    this.exitCode = exitCode;
  }
}
