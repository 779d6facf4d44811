/**
 * The transport of a one-shot command: node:http (or node:https) behind the one method of
 * undici's dispatcher that transport.ts calls, `dispatch(options, handler)`, and `close()`.
 *
 * Why not undici here (issue 34): loading undici's Agent costs ~25 ms, and its HTTP parser is
 * WebAssembly, which V8 keeps optimising on background threads that the process then waits for
 * at exit, ~65 ms on a 2-core machine, for a parser a single request barely uses. node:http's
 * parser is native and already loaded. Batches keep undici (createClient with `connections`),
 * where the optimised parser pays for itself over thousands of requests.
 *
 * What transport.ts relies on is kept: onRequestStart comes once the socket is connected (TLS:
 * after the handshake), so a request is `sent` only when it can have reached the server, and
 * nothing is written before it returns: a handler that aborts there sends nothing.
 */
import * as http from 'node:http';
import type * as Https from 'node:https';
import type { Socket } from 'node:net';
import type { Dispatcher } from 'undici';

let https: typeof Https | undefined;

/** node:https (and node:tls) only for an https origin: most one-shot commands talk to a local sandbox. */
function httpsModule(): typeof Https {
  return (https ??= process.getBuiltinModule('node:https') as typeof Https);
}

interface Agents {
  http?: http.Agent;
  https?: http.Agent;
}

export function createHttpDispatcher(): Dispatcher {
  const agents: Agents = {};
  let closed = false;

  function agentFor(secure: boolean): http.Agent {
    if (secure) return (agents.https ??= new (httpsModule().Agent)({ keepAlive: true }));
    return (agents.http ??= new http.Agent({ keepAlive: true }));
  }

  function dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    if (closed) throw new Error('the HTTP dispatcher is closed');
    const url = new URL(String(options.origin));
    const secure = url.protocol === 'https:';
    const body = typeof options.body === 'string' ? options.body : undefined;
    const headers: Record<string, string> = { ...(options.headers as Record<string, string> | undefined) };
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));

    let finished = false;
    let aborted: Error | null = null;
    // The response and its listeners stay reachable after the exchange (its 'end' is still on the
    // stack while the caller's microtasks work on the reply): they must not hold the handler, nor
    // through it the reply. Otherwise every page of `friends --all` lived through its printing,
    // reached the old generation, and peak memory grew with the list (bench row friends-rss).
    let current: Dispatcher.DispatchHandler | undefined = handler;
    const finish = (): Dispatcher.DispatchHandler | undefined => {
      finished = true;
      const last = current;
      current = undefined;
      return last;
    };
    const controller: Dispatcher.DispatchController = {
      get aborted() {
        return aborted !== null;
      },
      get paused() {
        return false;
      },
      get reason() {
        return aborted;
      },
      abort(reason: Error) {
        if (aborted !== null || finished) return;
        aborted = reason;
        // Only ever called from the handler's callbacks, after `req` exists.
        req.destroy(reason);
      },
      pause() {},
      resume() {},
    };
    const fail = (error: Error): void => {
      if (finished) return;
      finish()?.onResponseError?.(controller, aborted ?? error);
    };

    const request = secure ? httpsModule().request : http.request;
    const req = request({
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || (secure ? 443 : 80),
      path: options.path,
      method: options.method,
      headers,
      agent: agentFor(secure),
    });
    req.on('socket', (socket: Socket) => {
      const start = (): void => {
        if (finished || aborted !== null) return;
        current?.onRequestStart?.(controller, {});
        // Written only now: a handler that aborted in onRequestStart (its deadline passed while
        // connecting) has sent nothing.
        if (aborted === null) req.end(body);
      };
      // A kept-alive socket is connected already; a new one is once it connects (TLS: handshakes).
      // (The 'socket' event comes a tick after a new socket is made: it is still connecting.)
      if (socket.connecting) socket.once(secure ? 'secureConnect' : 'connect', start);
      else start();
    });
    req.on('response', (res) => {
      if (finished) return res.resume();
      // node:http hands the reason phrase over byte for byte (latin1); undici reads it as UTF-8,
      // and so must this client, or one reply would read two ways.
      const statusText = Buffer.from(res.statusMessage ?? '', 'latin1').toString('utf8');
      current?.onResponseStart?.(controller, res.statusCode ?? 0, res.headers, statusText);
      res.on('data', (chunk: Buffer) => {
        if (!finished) current?.onResponseData?.(controller, chunk);
      });
      res.on('end', () => {
        if (finished) return;
        // A body cut short ends with `aborted` set rather than an error on Node 20.
        if (!res.complete) return fail(Object.assign(new Error('other side closed'), { code: 'ECONNRESET' }));
        finish()?.onResponseEnd?.(controller, res.trailers);
      });
      res.on('error', fail);
    });
    req.on('error', fail);
    return true;
  }

  function close(): Promise<void> {
    closed = true;
    agents.http?.destroy();
    agents.https?.destroy();
    return Promise.resolve();
  }

  // transport.ts and client.ts call dispatch() and close() only; the rest of undici's Dispatcher
  // (request, stream, pipeline, connect, upgrade, compose, events) is not used on this path.
  return { dispatch, close } as unknown as Dispatcher;
}
