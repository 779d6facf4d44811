/**
 * WebSocket upgrades, proxied to the game's dev server: Vite's and webpack's live reload connect
 * to the page's origin, which is now the game host's. Fastify does not see upgrades; the HTTP
 * server's `upgrade` event does (game-host/app.ts checks them first, as every request). The two
 * sockets are tied together byte for byte once the upstream agrees (101); anything else it
 * answers is passed back as it came. `told` hears how the handshake ended, for the request log.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import { untrustedCertificate, upstreamHeaders, upstreamOptions, type ProxyTarget } from './proxy.js';

function statusHead(status: number, message: string, rawHeaders: string[]): string {
  const lines = [`HTTP/1.1 ${status} ${message}`];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) lines.push(`${rawHeaders[i]}: ${rawHeaders[i + 1]}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

export function refuseUpgrade(socket: Duplex, status: number, message: string): void {
  if (socket.writable) socket.end(`HTTP/1.1 ${status} ${message}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  else socket.destroy();
}

/** Proxies one upgrade request; `track` is told of each socket so that closing the sandbox ends them. */
export function proxyUpgrade(
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  target: ProxyTarget,
  timeoutMs: number,
  track: (s: Duplex) => void,
  told: (status: number, reason: string | null) => void,
): void {
  const url = new URL(target.url);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers = upstreamHeaders(request.headers, { ...target, connect: false }, request.headers.host);
  // The two hop-by-hop headers an upgrade is made of.
  headers.connection = 'Upgrade';
  if (request.headers.upgrade !== undefined) headers.upgrade = request.headers.upgrade;
  const upstream = send(url, { method: request.method ?? 'GET', headers, ...upstreamOptions(url, target) });
  track(socket);
  const timer = setTimeout(() => {
    upstream.destroy();
    told(504, `game server sent no headers within ${Math.round(timeoutMs / 100) / 10} s`);
    refuseUpgrade(socket, 504, 'Gateway Timeout');
  }, timeoutMs);
  socket.on('error', () => upstream.destroy());
  upstream.on('error', (error: NodeJS.ErrnoException) => {
    clearTimeout(timer);
    if (socket.destroyed) return;
    told(
      502,
      `game server unreachable: ${error.code ?? error.message}${untrustedCertificate(error) ? ' (--insecure-game-host accepts it)' : ''}`,
    );
    refuseUpgrade(socket, 502, 'Bad Gateway');
  });
  upstream.on('upgrade', (response, upstreamSocket, upstreamHead) => {
    clearTimeout(timer);
    told(101, null);
    track(upstreamSocket);
    socket.write(statusHead(101, 'Switching Protocols', response.rawHeaders));
    if (upstreamHead.length > 0) socket.write(upstreamHead);
    if (head.length > 0) upstreamSocket.write(head);
    upstreamSocket.on('error', () => socket.destroy());
    socket.on('error', () => upstreamSocket.destroy());
    // HTTP sockets allow half-open connections; a tunnel ends whole when either side ends.
    for (const event of ['end', 'close']) {
      upstreamSocket.on(event, () => socket.destroy());
      socket.on(event, () => upstreamSocket.destroy());
    }
    upstreamSocket.pipe(socket);
    socket.pipe(upstreamSocket);
  });
  upstream.on('response', (response) => {
    clearTimeout(timer);
    told(response.statusCode ?? 502, 'game server refused the upgrade');
    // The body goes on decoded and ends with the connection.
    const raw = response.rawHeaders;
    const kept: string[] = [];
    for (let i = 0; i + 1 < raw.length; i += 2) {
      if (!/^(connection|transfer-encoding|keep-alive|content-length)$/i.test(raw[i]!)) kept.push(raw[i]!, raw[i + 1]!);
    }
    socket.write(
      statusHead(response.statusCode ?? 502, response.statusMessage ?? '', [...kept, 'Connection', 'close']),
    );
    response.pipe(socket);
  });
  upstream.end();
}
