/** What the play page (src/sandbox/routes/play.ts) is given besides the site's own. */
import type { FastifyRequest } from 'fastify';
import type { GameRecord } from '../repositories/games.js';
import type { SiteDeps } from '../routes/site.js';

export interface PlayDeps extends SiteDeps {
  /** The database file (or ':memory:'), for the "how to set the content URI" hint. */
  dbPath: string;
  /** The database `udcli sandbox game set-uri` uses without --db; null when unknown. */
  defaultDbPath: string | null;
  /**
   * Where the iframe loads the game from when the sandbox's game host serves it (a game directory
   * or a proxied URL, on the game host's origin, user_id and auth_token appended); null: it does
   * not, and the page iframes the content URI itself.
   */
  frameSrc?: (request: FastifyRequest, game: GameRecord, userId: string, authToken: string) => string | null;
  /**
   * The origin a browser is sent to for the play page (`http://sandbox.localhost:PORT`, the site
   * the games served by the game host share: game-host/game-names.ts), or null: it stays.
   */
  playOrigin?: (request: FastifyRequest) => string | null;
}
