// The floor of a one-shot command: node:http (built into Node, nothing to load), one keep-alive
// connection, the headers udcli sends (accept, user-agent, the form content type of agi's POSTs).
// Used by floor-user.js (the reported `user-floor` row): the like-for-like references are ref/like-cli.js.
import { createRequire } from 'node:module';

// node:http by require, as udcli's built file takes it: an ES `import` of it on Node 22+ also
// evaluates its lazy WebSocket exports, loading undici's http2, tls, zlib and assert (about 2 ms),
// work udcli does not do, so the reference would be slower for a reason that is not udcli's.
/** @type {typeof import('node:http')} */
const { Agent, request } = createRequire(import.meta.url)('node:http');

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const USER_AGENT = `udcli (node ${process.version})`;

/**
 * One exchange; resolves with the status and the parsed envelope.
 * @param {string} base  scheme://host:port
 * @param {'GET' | 'POST'} method
 * @param {string} pathAndQuery
 * @returns {Promise<{ status: number, envelope: any }>}
 */
export function exchange(base, method, pathAndQuery) {
  const headers = { accept: 'application/json', 'user-agent': USER_AGENT };
  if (method === 'POST') headers['content-type'] = 'application/x-www-form-urlencoded';
  return new Promise((resolve, reject) => {
    const req = request(base + pathAndQuery, { method, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, envelope: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        } catch (e) {
          reject(e);
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Closes the keep-alive connection so the process ends at once, as udcli's client.close() does. */
export function done() {
  agent.destroy();
}

/** @param {{ status: number, envelope: any }} r @param {string} what */
export function payloadOf(r, what) {
  if (r.status !== 200) {
    process.stderr.write(`${what}: HTTP ${r.status}\n`);
    process.exit(1);
  }
  return r.envelope.payload;
}
