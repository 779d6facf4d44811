/**
 * The raw answer to a request Node could not even parse (no Fastify request exists), shared by
 * the sandbox's two listeners (the main one and the game host's).
 */
import type { Socket } from 'node:net';
import { envelope } from './envelope.js';
import { BODY_TOO_SLOW } from './slow-bodies.js';

/**
 * May the answer to this unreadable request carry a body? Not if it asked with HEAD: a client
 * reads no body after a HEAD reply, and would take one for the start of the next reply. Node
 * hands the bytes it could not parse (rawPacket); on a timeout, the request it was reading if
 * its head was whole. A head cut off by the timeout names no method we can trust: no body.
 */
function bodyAllowed(error: { rawPacket?: unknown }, socket: Socket): boolean {
  if (Buffer.isBuffer(error.rawPacket))
    return error.rawPacket.subarray(0, 5).toString('latin1').toUpperCase() !== 'HEAD ';
  const method = (socket as { parser?: { incoming?: { method?: unknown } | null } | null }).parser?.incoming?.method;
  return typeof method === 'string' && method !== 'HEAD';
}

/**
 * Has the request whose bytes Node was parsing when it failed been answered already? A GET or
 * HEAD is answered without reading its body, and a body that turns out malformed (bad chunked
 * framing) fails only afterwards: while the reply is still going out (`_httpMessage`, what
 * Node's own clientError handler checks), or once it went out (Node then reads the rest of the
 * body only to drop it: `_dumped`). Node's internals, like `parser` in bodyAllowed; a
 * per-request listener to learn the same cost a WeakMap entry per request, which made the
 * scavenges of a busy sandbox measurably slower.
 */
function answeredAlready(socket: Socket): boolean {
  const state = socket as {
    _httpMessage?: { headersSent?: boolean } | null;
    parser?: { incoming?: { _dumped?: boolean } | null } | null;
  };
  return state._httpMessage?.headersSent === true || state.parser?.incoming?._dumped === true;
}

/**
 * A raw HTTP response for requests Node could not even parse (no Fastify request exists), or
 * that did not arrive whole in time (the request timeout, a body too slow: slow-bodies.ts). None
 * when the request already has its reply: a second one would be read as the reply to the
 * client's next request; the connection is closed instead.
 */
export function clientErrorResponse(error: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (!socket.writable || answeredAlready(socket)) {
    socket.destroy();
    return;
  }
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'request too large: headers or URL too long']
      : error.code === 'HPE_INVALID_METHOD'
        ? [405, 'Method Not Allowed', 'method not allowed: unknown HTTP method']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'request timeout']
          : error.code === BODY_TOO_SLOW
            ? [408, 'Request Timeout', error.message]
            : [400, 'Bad Request', 'invalid parameter: request (malformed HTTP)'];
  const body = bodyAllowed(error, socket) ? JSON.stringify(envelope(status, message, null)) : '';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
