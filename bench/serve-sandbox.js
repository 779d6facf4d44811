// The sandbox under test, as its own process: startSandbox from the BUILT code (dist/) on
// 127.0.0.1, port 0, the database given. Prints {"url": ...} when it listens; stops (closing
// the database) on SIGTERM or when its stdin closes (the bench went away).
//   node bench/serve-sandbox.js DB_FILE
const dbPath = process.argv[2];
if (!dbPath) {
  process.stderr.write('usage: node bench/serve-sandbox.js DB_FILE\n');
  process.exit(2);
}
const { startSandbox } = await import('../dist/sandbox/server.js');
const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', dbPath, seed: 'none' });

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  sandbox.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop).on('error', stop).resume();
process.stdout.write(`${JSON.stringify({ url: sandbox.url })}\n`);
