// The reference server: bare node:http answering every request with one fixed JSON reply
// (the sandbox's own reply for the same request, passed in a file). Prints {"url": ...} when it
// listens; stops on SIGTERM or when its stdin closes (the bench went away).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const bodyFile = process.argv[2];
const body = bodyFile ? readFileSync(bodyFile) : Buffer.from('{"code":200,"message":"OK","payload":{}}');
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, headers);
    res.end(body);
  });
});
server.keepAliveTimeout = 30_000;

const stop = () => {
  server.close();
  server.closeAllConnections();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop).on('error', stop).resume();

server.listen(0, '127.0.0.1', () => {
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
