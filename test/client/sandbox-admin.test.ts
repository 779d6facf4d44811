/**
 * The admin client (src/client/sandbox-admin.ts) trusts a `/_sandbox` reply only up to its bound
 * and in the sandbox's shape: whatever answers at a URL may be no sandbox. Shown through the
 * commands that ask, against a stand-in server that claims to be a sandbox.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { describe, expect, it } from '../fixtures.js';

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    if (request.url === '/_sandbox/status') {
      response.end(JSON.stringify({ status: 'ok', service: 'udcli-sandbox', pid: 424242, started_on: 0 }));
    } else if (request.url === '/_sandbox/contents') {
      // A description in the sandbox's shape, but past the 4 MiB one may take: its text streamed in 64 KiB pieces.
      const piece = 'x'.repeat(64 * 1024);
      response.write('{"games":[],"users":[],"user_count":0,"primary_game":null,"loaded_games":[],"choices":[],');
      response.write('"origin":{"kind":"demo","file":null,"sha256":null,"text":"');
      for (let i = 0; i < 80; i++) response.write(piece);
      response.end('"}}');
    } else if (request.url === '/_sandbox/clock') {
      response.end('<html>not a clock</html>');
    } else {
      response.statusCode = 404;
      response.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a server that answers /_sandbox as no sandbox does', () => {
  it('sandbox info does not take a description past its bound', async ({ dirs }) => {
    const r = await dirs.run(['--base-url', url, 'sandbox', 'info']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`no udcli sandbox answers at ${url}`);
  });

  it('sandbox clock names the port that did not answer as a clock', async ({ dirs }) => {
    const r = await dirs.run(['sandbox', 'clock', 'now', '--port', new URL(url).port]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`${url} did not answer as a sandbox with a clock (HTTP 200)`);
  });
});
