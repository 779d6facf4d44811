// The reference server: bare node:http answering every request with one fixed JSON reply
// (the sandbox's own reply for the same request, passed in a file). With a second file, it
// plays the agi exchange the same way: a request without `sig` in its query gets that file
// (the sandbox's own 401 challenge) with HTTP 401, a signed one the first file; nothing is
// checked. Prints {"url": ...} when it listens; stops on SIGTERM or when its stdin closes (the
// bench went away). Not a like-for-like server but the floor of the sandbox rows: what node:http
// and the loopback cost for the same replies, with no lookup, check or log; the ratio says how
// much of that the sandbox's work leaves (its targets are set with that in mind). The outside
// comparison with servers that do a mock's work is the mock rows (bench/mocks.js).
//   node bench/bare-server.js BODY_FILE [CHALLENGE_FILE]
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [bodyFile, challengeFile] = process.argv.slice(2);
const body = bodyFile ? readFileSync(bodyFile) : Buffer.from('{"code":200,"message":"OK","payload":{}}');
const challenge = challengeFile ? readFileSync(challengeFile) : null;
const headersOf = (/** @type {Buffer} */ bytes) => ({
  'content-type': 'application/json; charset=utf-8',
  'content-length': String(bytes.length),
});
const headers = headersOf(body);
const challengeHeaders = challenge ? headersOf(challenge) : headers;

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (challenge && !/[?&]sig=/.test(req.url ?? '')) {
      res.writeHead(401, challengeHeaders);
      res.end(challenge);
      return;
    }
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
