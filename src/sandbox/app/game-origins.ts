/**
 * Where the main listener points a browser for a game's content: the game host's listener
 * (game-host/app.ts), at the game's own origin, once it listens on its port.
 */
import { gameOrigin as ownGameOrigin } from '../game-host/addressing.js';
import { isLoopbackName } from '../game-host/game-names.js';
import { hostName } from '../http/host-check.js';

export interface GameOrigins {
  /**
   * A game's own origin (game-host/game-names.ts) for a browser that reached a loopback name; on
   * any other name (a bound --host, from another machine) `*.localhost` would be that machine, and a
   * tool may not resolve it (game-host/addressing.ts, fromBrowser): the one shared origin there.
   * Null before the game host listens.
   */
  of(host: string | undefined, gameId: string, browser: boolean): string | null;
  /** The game host's port once it listens, else null. */
  port(): number | null;
  listening(port: number): void;
}

export function createGameOrigins(): GameOrigins {
  let gamePort: number | null = null;
  return {
    of(host, gameId, browser) {
      if (host === undefined || gamePort === null) return null;
      return browser && isLoopbackName(hostName(host))
        ? ownGameOrigin(gameId, gamePort)
        : `http://${hostName(host)}:${gamePort}`;
    },
    port: () => gamePort,
    listening(port) {
      gamePort = port;
    },
  };
}
