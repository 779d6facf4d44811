/**
 * Where the game host sends a WebSocket upgrade: as the same path's request would go (a game's
 * own name, its own source alone), forwarded by upgrade.ts to a dev server.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { hostAnswered } from '../http/host-check.js';
import { splitTarget } from '../http/query.js';
import type { RequestLogging } from '../http/request-log.js';
import type { GameRecord } from '../repositories/games.js';
import { addresseeOf, sameOrigin, splitGamePath } from './addressing.js';
import { lastSource, ownSource, proxyTarget, type GameHostDeps } from './serving.js';
import type { ResolvedSource } from './sources.js';
import { proxyUpgrade, refuseUpgrade } from './upgrade.js';

/** An Origin as the request log may show it: bounded, printable ASCII only. */
function shownOrigin(origin: string): string {
  const text = origin.replace(/[^\x21-\x7e]/g, '?');
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** How an upgrade ended, for the request log. */
export type UpgradeTold = (request: IncomingMessage, status: number, reason: string | null) => void;

/**
 * Upgrades go where the same path's request would: its game's source, else the one used last.
 * Each passes the Host check as every request does and is logged; only a WebSocket handshake
 * (GET, `Upgrade: websocket`, an origin-form target) to a dev server is forwarded.
 */
export function registerUpgrades(
  app: FastifyInstance,
  deps: GameHostDeps,
  logging: Pick<RequestLogging, 'recordRaw'>,
): void {
  const open = new Set<Duplex>();
  const track = (socket: Duplex) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  };
  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const started = performance.now();
    let logged = false;
    const told = (status: number, reason: string | null) => {
      if (logged) return;
      logged = true;
      logging.recordRaw({
        method: request.method ?? 'GET',
        url: request.url ?? '/',
        status,
        ms: performance.now() - started,
        reason,
      });
    };
    const refuse = (status: number, message: string, reason: string) => {
      told(status, reason);
      refuseUpgrade(socket, status, message);
    };
    socket.on('error', () => socket.destroy());
    if (!hostAnswered(app.server, request.headers.host, request.socket))
      return refuse(403, 'Forbidden', 'Host is not the sandbox (upgrade refused)');
    const target = request.url ?? '/';
    if (!target.startsWith('/'))
      return refuse(400, 'Bad Request', 'invalid parameter: request (not an origin-form target)');
    if (
      request.method !== 'GET' ||
      String(request.headers.upgrade ?? '')
        .trim()
        .toLowerCase() !== 'websocket'
    ) {
      return refuse(400, 'Bad Request', 'only WebSocket upgrades are forwarded');
    }
    // A page of another origin (another game's, another site's) may not open a socket here, as
    // cross-site requests cannot reach /_sandbox: a dev server's socket is the page's own.
    const origin = request.headers.origin;
    if (origin !== undefined && !sameOrigin(origin, request.headers.host)) {
      return refuse(
        403,
        'Forbidden',
        `forbidden: a WebSocket upgrade from another origin (${shownOrigin(origin)}) refused`,
      );
    }
    const { path, query } = splitTarget(target);
    const split = splitGamePath(path);
    const addressee = addresseeOf(deps, request.headers);
    if (addressee.kind === 'loopback') return refuse(404, 'Not Found', 'no game at this host name');
    let found: { game: GameRecord; source: ResolvedSource } | null = null;
    if (addressee.kind === 'game') {
      // A game's own name: its own source alone, whatever the path names.
      if (split !== null && split.gameId !== addressee.gameId)
        return refuse(404, 'Not Found', "another game's path at this host name");
      found = ownSource(deps, addressee.gameId);
    } else if (split !== null) {
      const game = deps.repos.games.find(split.gameId);
      const source = game === undefined ? null : deps.sources.resolve(game);
      if (game !== undefined && source !== null) found = { game, source };
    } else {
      // `/` too: Vite's client opens its socket at the root of the page's origin.
      found = lastSource(deps);
    }
    if (found === null || found.source.kind !== 'url')
      return refuse(404, 'Not Found', 'no dev server to forward the upgrade to');
    const { game, source } = found;
    const url =
      split === null
        ? `${source.origin}${target}`
        : `${source.prefix}${split.rest}${target.includes('?') ? `?${query}` : ''}`;
    proxyUpgrade(
      request,
      socket,
      head,
      proxyTarget(deps, request, game, source, url),
      deps.upstreamTimeoutMs,
      track,
      told,
    );
  });
  app.addHook('onClose', (_app, done) => {
    for (const socket of open) socket.destroy();
    done();
  });
}
