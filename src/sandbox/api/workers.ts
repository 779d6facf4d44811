/**
 * `sandbox.worker(id)` and `connectSandbox(connection).worker(id)`: a test worker's own game in a shared sandbox
 * (sandbox/workers.ts), as a handle with the credentials a test and a child `udcli` need.
 */
import type { WorkerReply } from '../../domain/sandbox-admin-replies.js';
import { workerKeys, WORKER_ID_PATTERN, type WorkerKeys } from '../workers.js';
import { redact } from '../../redact.js';
import { control } from './control.js';
import type { SandboxConnection, SandboxUser, SandboxWorker } from './public.js';

/** The UDCLI_* variables for a child `udcli` against `url` with these credentials. */
export function credentialsEnv(
  connection: Pick<SandboxConnection, 'url' | 'gameId' | 'apiKey' | 'signingSecret' | 'signingScheme'>,
): Record<string, string> {
  return {
    UDCLI_BASE_URL: connection.url,
    UDCLI_SITE_URL: connection.url,
    UDCLI_API_KEY: connection.apiKey,
    UDCLI_SIGNING_SECRET: connection.signingSecret,
    UDCLI_SIGNING_SCHEME: connection.signingScheme,
    UDCLI_GAME_ID: connection.gameId,
    // The built-in profile under the variables above, as `sandbox exec` gives its command: no key of another
    // (maybe production) profile applies.
    UDCLI_PROFILE: 'sandbox',
  };
}

export function workerIdOf(id: unknown): string {
  const text = typeof id === 'number' && Number.isInteger(id) && id >= 0 ? String(id) : id;
  if (typeof text !== 'string' || !WORKER_ID_PATTERN.test(text))
    throw new TypeError('sandbox.worker(): the id must be 1 to 32 letters, digits, - or _ (or a whole number)');
  return text;
}

/** A worker handle over what made its game (`fresh`), in this process or over HTTP. */
export function workerHandle(
  connection: SandboxConnection,
  id: string,
  keys: WorkerKeys,
  users: () => readonly SandboxUser[],
  fresh: () => Promise<void>,
): SandboxWorker {
  const own = { ...connection, gameId: keys.gameId, apiKey: keys.apiKey, signingSecret: keys.signingSecret };
  return {
    id,
    url: connection.url,
    gameUrl: connection.gameUrl,
    gameId: keys.gameId,
    apiKey: keys.apiKey,
    signingSecret: keys.signingSecret,
    get users() {
      return users();
    },
    env: () => credentialsEnv(own),
    reset: fresh,
  };
}

/** A worker of a sandbox in another process: its game made by `POST /_sandbox/workers/<id>`. */
export async function remoteWorker(connection: SandboxConnection, given: unknown): Promise<SandboxWorker> {
  const id = workerIdOf(given);
  const keys = workerKeys(connection.gameId, connection.signingSecret, id);
  let users: readonly SandboxUser[] = [];
  const fresh = async (): Promise<void> => {
    const reply = await control<WorkerReply>(connection.url, 'POST', `/workers/${id}`);
    // Derived on both sides from the same game and secret: a mismatch means the connection is of another sandbox.
    if (reply.game_id !== keys.gameId || reply.api_key !== redact(keys.apiKey))
      throw new Error(
        `sandbox.worker(${id}): the sandbox at ${connection.url} is not the one this connection describes`,
      );
    users = reply.users;
  };
  await fresh();
  return workerHandle(connection, id, keys, () => users, fresh);
}
