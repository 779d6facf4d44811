/**
 * One HTTP exchange on an undici dispatcher, with a deadline for the whole exchange and an exact
 * record of whether the request was handed to a connected socket (`sent`). Knowing `sent` is what
 * lets the client retry a mutation that never left, and report one that may have arrived as
 * unknown. Only a type is imported from undici; client.ts owns the Agent.
 */
import { STATUS_CODES } from 'node:http';
import type { Dispatcher } from 'undici';
import type { HttpMethod } from './types.js';

export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** What came back, before any interpretation. */
export interface HttpResult {
  status: number;
  statusText: string;
  headers: ResponseHeaders;
  bodyText: string;
  bytes: number;
}

export interface Exchange {
  origin: string;
  pathAndQuery: string;
  method: HttpMethod;
  headers: Record<string, string>;
  /** A request body (a form), sent with its length. */
  body?: string;
  timeoutMs: number;
}

/** The exchange did not complete; `cause` is the underlying (undici/socket) error. */
export class TransportFailure extends Error {
  constructor(
    override readonly cause: unknown,
    /** The request was written to a connected socket, so the server may have acted on it. */
    readonly sent: boolean,
    /** Our whole-exchange deadline expired. */
    readonly deadline: boolean,
    /** The reply's status when its head arrived before the failure; 0 when none did. */
    readonly status = 0,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'TransportFailure';
  }
}

class DeadlineExpired extends Error {
  constructor(ms: number) {
    super(`no reply within ${ms} ms`);
    this.name = 'DeadlineExpired';
  }
}

export function exchange(dispatcher: Dispatcher, request: Exchange): Promise<HttpResult> {
  return new Promise<HttpResult>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let sent = false;
    let expired = false;
    let settled = false;
    let status = 0;
    let statusText = '';
    let headers: ResponseHeaders = {};
    const chunks: Buffer[] = [];

    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };

    const timer = setTimeout(() => {
      expired = true;
      const reason = new DeadlineExpired(request.timeoutMs);
      if (sent && controller) {
        controller.abort(reason);
      }
      // Still queued or connecting: nothing was written. Fail now; if a socket turns up later,
      // onRequestStart aborts before the request is written.
      settle(() => reject(new TransportFailure(reason, sent, true)));
    }, request.timeoutMs);

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(ctrl) {
        controller = ctrl;
        if (expired || settled) {
          ctrl.abort(new DeadlineExpired(request.timeoutMs));
          return;
        }
        sent = true;
      },
      onResponseStart(_ctrl, statusCode, responseHeaders, statusMessage) {
        status = statusCode;
        statusText = statusMessage || STATUS_CODES[statusCode] || '';
        headers = responseHeaders as ResponseHeaders;
      },
      onResponseData(_ctrl, chunk) {
        chunks.push(chunk);
      },
      onResponseEnd() {
        const body = Buffer.concat(chunks);
        settle(() => resolve({ status, statusText, headers, bodyText: body.toString('utf8'), bytes: body.length }));
      },
      onResponseError(_ctrl, error) {
        settle(() => reject(new TransportFailure(error, sent, expired, status)));
      },
    };

    try {
      dispatcher.dispatch(
        {
          origin: request.origin,
          path: request.pathAndQuery,
          method: request.method,
          headers: request.headers,
          ...(request.body !== undefined ? { body: request.body } : {}),
        },
        handler,
      );
    } catch (error) {
      settle(() => reject(new TransportFailure(error, false, false)));
    }
  });
}
