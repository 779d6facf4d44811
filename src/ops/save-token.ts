import type { ApiClient } from '../client/types.js';
import type { Settings } from '../config/types.js';
import type { Factory } from './factory.js';
import { missingAuthToken, sandboxAuthToken, type AuthTokenSource } from './saves.js';

/**
 * The token of a save or erase when none was given (givenAuthToken() came back null). A
 * production profile is never the sandbox: no login is tried there, the usage error comes at once.
 */
export async function autoAuthToken(
  factory: Factory,
  settings: Settings,
  client: ApiClient,
  uid: string,
): Promise<AuthTokenSource> {
  if (settings.production) throw missingAuthToken(uid);
  const verbose = factory.globals().verbose;
  const out = await factory.output();
  return out.spin('Getting an auth token from the sandbox', () =>
    sandboxAuthToken(client, settings, uid, (line) => {
      if (verbose) factory.io.stderr.write(`${line}\n`);
    }),
  );
}
