/**
 * The game host: serves a studio's game at `/play/{game_id}/game/` on a listener of its own
 * (app.ts), an origin apart from the sandbox's, so that game content can reach nothing of the
 * sandbox's but what a game reaches on the platform (see docs/SANDBOX-DESIGN.md). The play page
 * takes its iframe path from `GameSources.framePath`.
 */
export { registerGameSourceRoutes } from './game-source-routes.js';
export type { GameHostDeps } from './serving.js';
export {
  createGameSources,
  checkUrl,
  gamePath,
  GameSourceError,
  type GameSources,
  type GameSourceSetting,
} from './sources.js';
export { DEFAULT_UPSTREAM_TIMEOUT_MS } from './proxy.js';
export { CONNECT_PATH, CONNECT_TAG, connectTag } from './inject.js';
export { createAllowedDirs, forbiddenDirProblem, type AllowedDirs } from './allowed-dirs.js';
