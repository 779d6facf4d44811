/**
 * Maps a failed exchange (undici and socket errors) to the typed errors of src/errors.ts:
 * unreachable (nothing sent), timeout and reset (the request may have reached the server).
 */
import { NetworkError, UsageError, type NetworkFailure } from '../errors.js';
import type { TransportFailure } from './transport.js';

const UNREACHABLE_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EADDRNOTAVAIL: 'address not available',
  UND_ERR_CONNECT_TIMEOUT: 'connect timeout',
  ETIMEDOUT: 'connect timeout',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate not trusted',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not match the host',
};

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export interface FailureContext {
  method: string;
  /** Origin and path, no query (never a secret). */
  target: string;
  timeoutMs: number;
  /** Whether the request is safe to repeat; shapes the hint for a lost reply. */
  idempotent: boolean;
  /**
   * Known to change nothing even if it arrived (agi's unsigned first request, answered by a
   * challenge): reported as not sent, so it is retried and never counted as `unknown`.
   */
  harmless?: boolean;
}

/** A short description of the failure for --verbose traces. */
export function describeFailure(failure: TransportFailure): string {
  if (failure.deadline) return 'timed out';
  const code = errorCode(failure.cause);
  return (code && UNREACHABLE_CODES[code]) ?? (code ? `${code}: ${failure.message}` : failure.message);
}

export function toNetworkError(failure: TransportFailure, ctx: FailureContext): NetworkError | UsageError {
  const code = errorCode(failure.cause);
  const request = `${ctx.method} ${ctx.target}`;
  const options = { cause: failure.cause };

  if (code === 'UND_ERR_INVALID_ARG') {
    return new UsageError(`invalid request ${request}: ${failure.message}`, options);
  }

  if (!failure.sent) {
    const why = failure.deadline
      ? `no connection within ${ctx.timeoutMs} ms`
      : ((code && UNREACHABLE_CODES[code]) ?? failure.message);
    return new NetworkError(`cannot reach ${origin(ctx.target)} (${why})`, 'unreachable', false, {
      ...options,
      hint: 'is the service running and base_url right? `udcli doctor` checks both',
    });
  }

  if (ctx.harmless) {
    const why =
      failure.deadline || (code !== undefined && TIMEOUT_CODES.has(code))
        ? `no reply within ${ctx.timeoutMs} ms`
        : `connection lost: ${code ?? failure.message}`;
    return new NetworkError(
      `${request} failed (${why}) before signing; nothing was changed`,
      failure.deadline ? 'timeout' : 'reset',
      false,
      {
        ...options,
        hint: 'the request is safe to repeat',
      },
    );
  }

  const hint = ctx.idempotent
    ? 'the request is safe to repeat'
    : 'the outcome is unknown: check the current state before repeating it';
  let failureKind: NetworkFailure;
  let message: string;
  if (failure.deadline || (code !== undefined && TIMEOUT_CODES.has(code))) {
    failureKind = 'timeout';
    message = `no reply to ${request} within ${ctx.timeoutMs} ms (the request may have been processed)`;
  } else {
    failureKind = 'reset';
    message = `connection lost during ${request} (${code ?? failure.message}; the request may have been processed)`;
  }
  return new NetworkError(message, failureKind, true, { ...options, hint });
}

/** The error code of an error or of the first error in its cause chain / aggregate. */
function errorCode(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== 'object' || depth > 4) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && code !== 'UND_ERR_SOCKET' && code !== 'UND_ERR_CONNECT') {
    return code;
  }
  const nested = errorCode(cause, depth + 1) ?? (Array.isArray(errors) ? errorCode(errors[0], depth + 1) : undefined);
  return nested ?? (typeof code === 'string' ? code : undefined);
}

function origin(target: string): string {
  try {
    return new URL(target).origin;
  } catch {
    return target;
  }
}
