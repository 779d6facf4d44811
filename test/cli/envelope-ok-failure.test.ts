/**
 * A change refused with an envelope `code` that is not the HTTP status and a message of "OK"
 * (a PHP-like backend's habit): the line on stderr names the code and the status, never a bare
 * "udcli: OK" that reads as success.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { fakeIO } from '../output/fake-io.js';

let server: Server;
let url: string;
const changes: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    const read = req.method === 'GET';
    if (!read) changes.push(`${req.method} ${req.url}`);
    // Reads succeed (the quest's definition and progress, nothing of either); every change is refused.
    const body = read
      ? '{"version":1,"code":200,"message":"OK","payload":[]}'
      : '{"version":1,"code":1001,"message":"OK","payload":null}';
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a change refused with the message "OK"', () => {
  it('exits 1 with a line naming the envelope code and the HTTP status', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'envelope-ok-'));
    const f = fakeIO({
      env: {
        NO_COLOR: '1',
        UDCLI_CONFIG_DIR: join(dir, 'config'),
        UDCLI_DATA_DIR: join(dir, 'data'),
        UDCLI_BASE_URL: url,
        UDCLI_API_KEY: '0123456789abcdef0123456789abcdef',
        UDCLI_GAME_ID: '1001',
      },
    });
    const code = await main(['achievements', 'inc', 'c3323c76c063636c91d2e8cb8f4dfcaf', 'FIRST_WIN'], f.io);
    expect(changes.length).toBeGreaterThan(0);
    expect(code).toBe(1);
    const first = f.stderr().split('\n')[0]!;
    expect(first).not.toBe('udcli: OK');
    expect(first).toMatch(/^udcli: .*\b1001\b.*HTTP 200/);
    expect(first).toContain('"OK"');
  });
});
