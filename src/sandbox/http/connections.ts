/**
 * A cap on open connections that idle or slow clients cannot fill. Node's own `maxConnections`
 * refuses the newcomer once the cap is reached, so 256 sockets opened and left silent (or a
 * browser's spare ones) lock every client out until the request timeout closes them. Here the
 * newcomer is let in and another connection is closed instead: the one idle the longest (it has
 * not sent a whole head yet, or sits between requests: a client reconnects to send its next one),
 * else the one whose request body has been arriving the longest (256 POSTs trickling their bodies
 * a byte at a time held every slot while their heads were being answered). Only when every open
 * connection has a whole request being answered, which the app bounds, is the newcomer closed.
 *
 * With bounds for slow bodies, a body arriving too slowly is also cut (slow-bodies.ts).
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { cutSlowBodies, type Arriving, type SlowBodyBounds } from './slow-bodies.js';

/** What the limiter reads of a reply: whether it is over (sent whole, or its connection gone), and its request. */
interface Reply {
  readonly writableFinished: boolean;
  readonly destroyed: boolean;
  /** `complete` once the whole body has been read off the connection. */
  readonly req: { readonly complete: boolean };
}

export function limitConnections(server: Server, max: number, slowBodies?: SlowBodyBounds): void {
  // Oldest first: a socket moves to the end each time a request arrives on it.
  const open = new Set<Socket>();
  // Each socket's latest reply: replies on a connection go out in order, so once its latest is over, it is
  // idle. Read only when the cap is reached (or by a sweep), so that no request pays for a listener of its own.
  const latest = new WeakMap<Socket, Reply>();

  const isIdle = (socket: Socket): boolean => {
    const reply = latest.get(socket);
    // A socket the server has ended (a 408, `Connection: close`) takes no further request either.
    return reply === undefined || reply.writableFinished || reply.destroyed || socket.writableEnded;
  };
  const bodyArriving = (socket: Socket): boolean => !isIdle(socket) && latest.get(socket)?.req.complete === false;
  const first = (test: (socket: Socket) => boolean): Socket | undefined => {
    for (const socket of open) if (test(socket)) return socket;
    return undefined;
  };

  server.on('connection', (socket: Socket) => {
    if (open.size >= max) {
      const shed = first(isIdle) ?? first(bodyArriving);
      if (shed === undefined) return void socket.destroy();
      open.delete(shed);
      shed.destroy();
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });

  if (slowBodies !== undefined) {
    const arriving = function* (): Iterable<Arriving> {
      for (const socket of open) if (bodyArriving(socket)) yield { socket, request: latest.get(socket)!.req };
    };
    cutSlowBodies(server, arriving, slowBodies);
  }

  // Runs before the server's own listeners (the app's), in the same call: an event with more than
  // one listener copies its list at every emit, and this one is emitted for every request.
  const answer = server.listeners('request') as Array<(this: Server, request: unknown, response: unknown) => void>;
  server.removeAllListeners('request');
  server.on('request', function (this: Server, request: { socket: Socket }, response: Reply) {
    const socket = request.socket;
    latest.set(socket, response);
    if (open.delete(socket)) open.add(socket);
    for (const listener of answer) listener.call(this, request, response);
  });
}
