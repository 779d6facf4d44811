/**
 * Whom a request to the game host (app.ts) is addressed to, by the name in its Host (see
 * game-names.ts), which decides what it gets:
 *
 * - a game's own name, `g1001.sandbox.localhost:PORT`: `/play/1001/game/*` (the game's files, from its
 *   source), any other path (a dev server's root-absolute `/@vite/client`, `/assets/x.js`) from
 *   the same source, and WebSocket upgrades likewise; another game's path is redirected to that
 *   game's own name, so no game's content ever runs on another's origin;
 * - a bare loopback name asked by a browser (`localhost`, `127.0.0.1`, `[::1]`: the one origin all
 *   games shared before issue 40; `sandbox.localhost`): a game's path is redirected to the game's
 *   own name, and nothing else is served; every reply clears what a game left on that origin
 *   (`Clear-Site-Data: "storage"`), and a service worker's update check gets a worker that
 *   unregisters itself. A tool there gets the shared origin below (fromBrowser);
 * - any other name the host check answers (a bound `--host`, reached from another machine, where
 *   `*.localhost` would name that machine): the shared origin as before, root-absolute paths to
 *   the game source used last. Games are not isolated from each other there (docs/SANDBOX-DESIGN.md).
 */
import { hostName } from '../http/host-check.js';
import type { Repositories } from '../repositories/index.js';
import { gameHostName, gameOfLabel, isLoopbackName, labelOfName } from './game-names.js';

/** `/play/ID/game/REST`: the game id (decoded) and REST exactly as sent; null for other paths. */
export function splitGamePath(path: string): { gameId: string; rest: string } | null {
  const m = /^\/play\/([^/]+)\/game\/(.*)$/s.exec(path);
  if (!m) return null;
  try {
    return { gameId: decodeURIComponent(m[1]!), rest: m[2]! };
  } catch {
    return null;
  }
}

/**
 * Whom a request is addressed to, by its Host (already answered by the host check): a game's own
 * name (`gameId` null: no game has that label), a bare loopback name asked by a browser, or the
 * shared origin (another name; or a bare loopback name asked by a tool, see fromBrowser).
 */
export type Addressee =
  | { kind: 'game'; label: string; gameId: string | null }
  | { kind: 'loopback' }
  | { kind: 'shared' };

export type AddressHeaders = {
  host?: string | undefined;
  origin?: string | undefined;
  'sec-fetch-site'?: string | string[] | undefined;
};

/**
 * A browser's request: browsers send `Sec-Fetch-Site` on every request to a loopback name (a
 * secure context), and `Origin` on every WebSocket handshake. A tool (curl, a script run by
 * `sandbox exec`) sends neither and may not resolve `*.localhost` (Node does not), so it keeps
 * the shared origin: storage and service workers, what one game could turn on another, are a
 * browser's alone.
 */
export function fromBrowser(headers: AddressHeaders): boolean {
  return headers['sec-fetch-site'] !== undefined || headers.origin !== undefined;
}

export function addresseeOf(deps: { repos: Repositories }, headers: AddressHeaders): Addressee {
  const host = headers.host;
  const name = hostName(host ?? '');
  const label = labelOfName(name);
  if (label !== null) {
    const games = deps.repos.games;
    return {
      kind: 'game',
      label,
      gameId: gameOfLabel(
        label,
        () => games.list().map((g) => g.id),
        (id) => games.find(id) !== undefined,
      ),
    };
  }
  return isLoopbackName(name) && fromBrowser(headers) ? { kind: 'loopback' } : { kind: 'shared' };
}

/** The port of a Host header already answered (`g1001.sandbox.localhost:8788` → `8788`). */
export function hostPort(host: string | undefined): string {
  const value = host ?? '';
  return value.slice(hostName(value).length + 1);
}

/** `http://g1001.sandbox.localhost:PORT`: a game's own origin on this game host. */
export function gameOrigin(gameId: string, port: string | number): string {
  return `http://${gameHostName(gameId)}:${port}`;
}

/** Is `origin` (an Origin header) the origin of the Host the request came to? */
export function sameOrigin(origin: string, host: string | undefined): boolean {
  return host !== undefined && origin.toLowerCase() === `http://${host.toLowerCase()}`;
}
