/** A client for tests that never sleeps: it keeps what it would have slept, and its trace lines. */
import { afterAll } from 'vitest';
import { createClient } from '../../src/client/client.js';
import type { ApiClient, ClientOptions } from '../../src/client/types.js';

export interface TracedClient {
  client: ApiClient;
  sleeps: number[];
  trace: string[];
}

/** A client made with `options` (they may bring their own trace or sleep), added to `clients` for the file to close. */
export function tracedClient(options: ClientOptions, clients: ApiClient[]): TracedClient {
  const sleeps: number[] = [];
  const trace: string[] = [];
  const client = createClient({
    trace: (line) => trace.push(line),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
  clients.push(client);
  return { client, sleeps, trace };
}

/** The clients a test file makes, closed after its last test. */
export function fileClients(): ApiClient[] {
  const clients: ApiClient[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });
  return clients;
}
