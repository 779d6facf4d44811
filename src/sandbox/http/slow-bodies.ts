/**
 * A request body must keep coming. Node's request timeout bounds only the whole request (30 s),
 * so a client that sends its head at once and then a byte every few seconds holds its connection,
 * and the partly read body, that long, and starts again. Here a body that has been arriving for
 * the grace period at less than the minimum rate, on average since it was first seen, is cut: 408
 * through the server's own client-error answer (client-error.ts), then the connection is left to
 * close (the cap sheds it first, the request timeout ends it).
 *
 * A sweep over the connections with a body in progress, like Node's own timeout checks: a request
 * pays nothing; only one still arriving at a sweep gets an entry (when and at which byte count it
 * was first seen).
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface SlowBodyBounds {
  /** How long a body may take before its rate is judged. */
  graceMs: number;
  /** The average rate (bytes/s) below which a body past the grace is cut. */
  minBytesPerSecond: number;
}

/** The code clientErrorResponse answers with 408 and the error's own message. */
export const BODY_TOO_SLOW = 'UDCLI_BODY_TOO_SLOW';

/** A connection whose request's body is still arriving, and that request. */
export interface Arriving {
  socket: Socket;
  request: object;
}

/** Node's own answer to a request timeout, for a server without a client-error handler. */
const BARE_408 = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';

export function cutSlowBodies(server: Server, arriving: () => Iterable<Arriving>, bounds: SlowBodyBounds): void {
  const { graceMs, minBytesPerSecond } = bounds;
  const seen = new WeakMap<object, { since: number; bytes: number; cut: boolean }>();

  const cut = (socket: Socket): void => {
    const error = Object.assign(new Error(`request timeout: the body came slower than ${minBytesPerSecond} bytes/s`), {
      code: BODY_TOO_SLOW,
    });
    if (!server.emit('clientError', error, socket)) socket.end(BARE_408);
  };

  const sweep = (): void => {
    const now = performance.now();
    for (const { socket, request } of arriving()) {
      const first = seen.get(request);
      if (first === undefined) {
        seen.set(request, { since: now, bytes: socket.bytesRead, cut: false });
        continue;
      }
      const elapsed = now - first.since;
      if (first.cut || elapsed < graceMs) continue;
      if (((socket.bytesRead - first.bytes) * 1000) / elapsed >= minBytesPerSecond) continue;
      // Once: a second answer would reset the connection, and the client could lose the first.
      first.cut = true;
      cut(socket);
    }
  };

  // A few sweeps per grace period (as Node checks its timeouts), at most one a second.
  const every = Math.max(20, Math.min(1000, Math.floor(graceMs / 4)));
  let timer: NodeJS.Timeout | undefined;
  const begin = (): void => {
    timer ??= setInterval(sweep, every).unref();
  };
  if (server.listening) begin();
  server.on('listening', begin);
  server.on('close', () => {
    clearInterval(timer);
    timer = undefined;
  });
}
