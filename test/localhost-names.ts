/**
 * `*.localhost` resolved to loopback in this test process, as browsers resolve it (RFC 6761):
 * the game host serves each game at a name of its own (`g1001.localhost`, game-names.ts), and
 * the system resolver here may not know such names. Importing this module sets the global fetch
 * dispatcher; every other name is looked up as before.
 */
import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent, setGlobalDispatcher } from 'undici';

type Callback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family: number) => void;

/** A `net.connect` lookup that answers `*.localhost` with 127.0.0.1 (the game host listens there). */
export function localhostLookup(hostname: string, options: LookupOptions, callback: Callback): void {
  if (/\.localhost\.?$/i.test(hostname)) {
    if (options.all === true) return callback(null, [{ address: '127.0.0.1', family: 4 }], 4);
    return callback(null, '127.0.0.1', 4);
  }
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error !== null || options.all === true) return callback(error, addresses ?? [], 0);
    const first = addresses[0];
    return callback(null, first?.address ?? '', first?.family ?? 4);
  });
}

setGlobalDispatcher(new Agent({ connect: { lookup: localhostLookup } }));
