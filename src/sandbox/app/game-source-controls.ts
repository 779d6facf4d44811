/**
 * `/_sandbox/game-sources` on the main listener, within the folders a game may be served from
 * (game-host/allowed-dirs.ts): the ones given at start, never udcli's own.
 */
import type { FastifyInstance } from 'fastify';
import { createAllowedDirs } from '../game-host/allowed-dirs.js';
import { registerGameSourceRoutes } from '../game-host/game-source-routes.js';
import type { AppParts } from './parts.js';

export function registerGameSourceControls(app: FastifyInstance, parts: AppParts): void {
  const { options } = parts;
  registerGameSourceRoutes(app, {
    repos: parts.db.repos,
    sources: parts.gameSources,
    allowed: createAllowedDirs({
      allowed:
        options.gameDirs?.allowed ??
        (options.gameSources ?? []).flatMap(([, setting]) => (setting.kind === 'dir' ? [setting.root] : [])),
      own: options.gameDirs?.own ?? [],
      ...(options.gameDirs?.home === undefined ? {} : { home: options.gameDirs.home }),
    }),
  });
}
