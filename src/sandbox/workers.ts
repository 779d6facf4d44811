/**
 * A test worker's own game in a shared sandbox (`sandbox.worker(id)`, docs/TESTING.md): a copy of the sandbox's
 * game under `<game>.w-<id>`, with an api key and signing secret of its own, so that test files running side by side
 * against one sandbox never see each other's changes, and one worker's reset() leaves the others alone.
 *
 * The key and secret are derived from the game's own signing secret: whoever holds the sandbox's credentials (the
 * test process that started it, a worker it handed them to) computes them, and `POST /_sandbox/workers/<id>`, which
 * anyone on the machine can call like every control route, never answers a secret.
 */
import { createHmac } from 'node:crypto';
import type { SandboxDatabase } from './database.js';
import { primaryCredentials } from './loaded.js';
import { copyGame } from './repositories/game-copies.js';
import { ApiFailure } from './http/failure.js';

/** A worker's id: what test runners give (VITEST_POOL_ID, JEST_WORKER_ID, a name). */
export const WORKER_ID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

export interface WorkerKeys {
  gameId: string;
  apiKey: string;
  signingSecret: string;
}

/** The worker's game id and credentials, from the sandbox's game and signing secret. */
export function workerKeys(gameId: string, signingSecret: string, worker: string): WorkerKeys {
  const derive = (what: string) =>
    createHmac('sha256', signingSecret).update(`udcli worker ${what} ${worker}`).digest('hex');
  return {
    gameId: `${gameId}.w-${worker}`,
    apiKey: derive('api_key').slice(0, 32),
    signingSecret: derive('signing_secret').slice(0, 40),
  };
}

export function checkWorkerId(worker: string): string {
  if (!WORKER_ID_PATTERN.test(worker))
    throw new ApiFailure(400, 'invalid parameter: worker (1 to 32 letters, digits, - or _)');
  return worker;
}

/**
 * Gives the worker a fresh copy of the sandbox's game (a copy it had is replaced): its state is then the game's
 * as it is now. Fails when the sandbox has no game with a key to copy.
 */
export function freshWorkerGame(db: SandboxDatabase, worker: string, nowSeconds: number): WorkerKeys {
  checkWorkerId(worker);
  const primary = primaryCredentials(db);
  if (primary === null)
    throw new ApiFailure(409, 'conflict: this sandbox has no game with an api key to copy for a worker');
  const keys = workerKeys(primary.game_id, primary.signing_secret, worker);
  const game = db.repos.games.list().find((g) => g.id === primary.game_id);
  db.transaction(() =>
    copyGame(db.sqlite, primary.game_id, {
      id: keys.gameId,
      name: `${game?.name ?? primary.game_id} (worker ${worker})`,
      apiKey: keys.apiKey,
      signingSecret: keys.signingSecret,
      label: `worker ${worker}`,
      createdOn: nowSeconds,
    }),
  );
  return keys;
}
