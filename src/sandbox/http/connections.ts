/**
 * A cap on open connections that idle clients cannot fill. Node's own `maxConnections` refuses
 * the newcomer once the cap is reached, so 256 sockets opened and left silent (or a browser's
 * spare ones) lock every client out until the request timeout closes them. Here the newcomer is
 * let in and the connection idle the longest is closed instead: one that has not sent a whole
 * request yet, or sits between requests (a client reconnects to send its next one). Only when
 * every open connection has a request in progress, which the request timeout bounds, is the
 * newcomer closed.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export function limitConnections(server: Server, max: number): void {
  // Oldest first: a socket moves to the end each time a request arrives on it.
  const open = new Set<Socket>();
  const inProgress = new WeakMap<Socket, number>();

  const oldestIdle = (): Socket | undefined => {
    for (const socket of open) if ((inProgress.get(socket) ?? 0) === 0) return socket;
    return undefined;
  };

  server.on('connection', (socket: Socket) => {
    if (open.size >= max) {
      const idle = oldestIdle();
      if (idle === undefined) return void socket.destroy();
      open.delete(idle);
      idle.destroy();
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });

  server.on(
    'request',
    (request: { socket: Socket }, response: { once(event: 'close', listener: () => void): unknown }) => {
      const socket = request.socket;
      inProgress.set(socket, (inProgress.get(socket) ?? 0) + 1);
      response.once('close', () => inProgress.set(socket, Math.max(0, (inProgress.get(socket) ?? 1) - 1)));
      if (open.delete(socket)) open.add(socket);
    },
  );
}
