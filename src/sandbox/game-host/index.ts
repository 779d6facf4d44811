/**
 * The game host: serves a studio's game under the sandbox's own origin, at `/play/{game_id}/game/`,
 * so that the game in the play page's iframe can reach `parent` (see platform.md, "The game page
 * around the game"). The play page takes its iframe URL from `GameSources.frameSrc`.
 */
export { registerGameHost, isSandboxPath, type GameHostDeps } from './routes.js';
export { createGameSources, checkDir, checkUrl, gamePath, GameSourceError, type GameSources, type GameSourceSetting } from './sources.js';
export { DEFAULT_UPSTREAM_TIMEOUT_MS } from './proxy.js';
export { CONNECT_PATH, CONNECT_TAG } from './inject.js';
