// The ladder under the sandbox's GET row: Fastify, the sandbox's own framework, answering
// `GET /services/rest/v1/users/{uid}.json` with the sandbox's own reply bytes, nothing checked,
// nothing logged. Two rungs:
//   node bench/ref/fastify-server.js bare BODY_FILE     the reply from memory (Fastify's cost)
//   node bench/ref/fastify-server.js sqlite BODY_FILE   the reply read by primary key with one
//                                                       better-sqlite3 SELECT from a database
//                                                       of its own (the floor of this design)
// The second rung is what the sandbox is judged against (issue 43): what is left between it and
// the sandbox is the sandbox's own work (the key, the Host, CORS, the request log, limits).
// Prints {"url": ...} when it listens; stops on SIGTERM or when its stdin closes.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { sqliteDriver } from '../../dist/sandbox/sqlite-driver.js';

const [rung, bodyFile] = process.argv.slice(2);
if ((rung !== 'bare' && rung !== 'sqlite') || !bodyFile) {
  process.stderr.write('usage: node bench/ref/fastify-server.js bare|sqlite BODY_FILE\n');
  process.exit(2);
}
const body = readFileSync(bodyFile, 'utf8');
const uid = /** @type {{ payload: { uid: string } }} */ (JSON.parse(body)).payload.uid;
const TYPE = 'application/json; charset=utf-8';

/** @type {(element: string) => string | undefined} */
let replyFor = (element) => (element === uid ? body : undefined);
let cleanup = () => {};
if (rung === 'sqlite') {
  const dir = mkdtempSync(join(tmpdir(), 'udcli-bench-fastify-'));
  const Database = sqliteDriver();
  const db = new Database(join(dir, 'replies.db'));
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE replies (uid TEXT PRIMARY KEY, body TEXT NOT NULL)');
  db.prepare('INSERT INTO replies (uid, body) VALUES (?, ?)').run(uid, body);
  const select = db.prepare('SELECT body FROM replies WHERE uid = ?').pluck();
  replyFor = (element) => /** @type {string | undefined} */ (select.get(element));
  cleanup = () => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  };
}

const app = Fastify({ logger: false, keepAliveTimeout: 30_000 });
app.get('/services/rest/v1/users/:file', (request, reply) => {
  const file = /** @type {{ file: string }} */ (request.params).file;
  const found = file.endsWith('.json') ? replyFor(file.slice(0, -'.json'.length)) : undefined;
  if (found === undefined) return reply.code(404).type(TYPE).send('{"code":404,"message":"not found","payload":null}');
  return reply.type(TYPE).send(found);
});

const stop = async () => {
  await app.close();
  cleanup();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop).on('error', stop).resume();

await app.listen({ port: 0, host: '127.0.0.1' });
const address = /** @type {import('node:net').AddressInfo} */ (app.server.address());
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${address.port}` })}\n`);
