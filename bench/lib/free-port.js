// A port for a server the bench starts as a process of its own (it must bind the port itself).
import { createServer } from 'node:net';

/** A port nothing listens on (bound once, then released). @returns {Promise<number>} */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });
}
