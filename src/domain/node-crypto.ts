/**
 * node:crypto, loaded on first use. Loading it costs a command several ms at start-up, and a read
 * (`udcli user`, `friends`, `achievements list`) neither signs nor writes a file: only the modules
 * that do call this, when they do.
 */
import type * as Crypto from 'node:crypto';

let loaded: typeof Crypto | undefined;

export function nodeCrypto(): typeof Crypto {
  return (loaded ??= process.getBuiltinModule('node:crypto') as typeof Crypto);
}
