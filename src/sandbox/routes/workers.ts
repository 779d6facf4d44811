/**
 * `POST /_sandbox/workers/<id>`: gives a test worker a fresh copy of the sandbox's game (workers.ts), for
 * `connectSandbox(...).worker(id)` in another process. The reply names the game and shows its key redacted only:
 * the caller derives the key and secret from the sandbox's credentials it already holds.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WorkerReply } from '../../domain/sandbox-admin-replies.js';
import { redact } from '../../redact.js';
import type { SandboxDatabase } from '../database.js';
import { handleUsers } from '../loaded.js';
import { registerAdminRoute } from '../http/admin.js';
import type { VirtualClock } from '../virtual-clock.js';
import { freshWorkerGame } from '../workers.js';

export const WORKERS_PATH = '/workers';

export function registerWorkerRoutes(app: FastifyInstance, db: SandboxDatabase, clock: VirtualClock): void {
  registerAdminRoute(app, {
    method: 'POST',
    path: `${WORKERS_PATH}/:worker`,
    handler: (request: FastifyRequest): WorkerReply => {
      const worker = (request.params as { worker: string }).worker;
      const keys = freshWorkerGame(db, worker, Math.floor(clock.now() / 1000));
      return {
        worker,
        game_id: keys.gameId,
        api_key: redact(keys.apiKey),
        users: handleUsers(db),
      };
    },
  });
}
