/**
 * `udcli sandbox play` (and --game-dir / --game-url of `sandbox start` and `exec`), the built
 * binary as a user runs it: bad input refused with exit 2 and nothing started; a detached sandbox
 * started with the game's folder; the source of a running one switched to a dev server.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer as createHttpServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, runInProcess } from './harness.js';

/** The connect tag the game host puts in: the script from the sandbox's main origin. */
const connect = () => `<script src="http://127.0.0.1:${port}/_sandbox/connect.js"></script>`;
const scratch = mkdtempSync(join(tmpdir(), 'udcli-e2e-play-'));
const gameDir = join(scratch, 'dist');
let port = 0;
let gameUrl = '';
let env: NodeJS.ProcessEnv = {};
let dev: Server;
let devUrl = '';

beforeAll(async () => {
  mkdirSync(gameDir);
  writeFileSync(
    join(gameDir, 'index.html'),
    '<!doctype html><html><head><title>built</title></head><body>built</body></html>',
  );
  port = await closedPort();
  env = {
    UDCLI_CONFIG_DIR: join(scratch, 'config'),
    UDCLI_DATA_DIR: join(scratch, 'data'),
    UDCLI_SANDBOX_PORT: String(port),
  };
  dev = createHttpServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html><head></head><body>dev server</body></html>'),
  );
  await new Promise<void>((resolve) => dev.listen(0, '127.0.0.1', resolve));
  devUrl = `http://127.0.0.1:${(dev.address() as AddressInfo).port}/game/index.html`;
});

afterAll(async () => {
  await runInProcess(['sandbox', 'stop'], env);
  await new Promise((resolve) => dev.close(resolve));
  rmSync(scratch, { recursive: true, force: true });
});

describe('sandbox play (e2e)', () => {
  it('refuses bad input with exit 2, one line, and starts nothing', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--game-dir', gameDir, '--game-url', 'http://localhost:5173/'], /cannot be used together/],
      [['--game-dir', join(scratch, 'missing')], /does not exist/],
      [['--game-url', 'ftp://localhost/'], /http/],
      [['999999', '--game-dir', gameDir], /no game "999999"/],
      [['--game-dir', '/'], /cannot serve games from \/: it is the root of the file system/],
    ];
    for (const [args, message] of cases) {
      const r = await runInProcess(['sandbox', 'play', ...args, '--no-open'], env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')[0]).toMatch(message);
    }
    const start = await runInProcess(
      ['sandbox', 'start', '--detach', '--game-dir', gameDir, '--game-url', 'http://localhost:5173/'],
      env,
    );
    expect(start.code).toBe(2);
    mkdirSync(join(scratch, 'data'), { recursive: true });
    const data = await runInProcess(['sandbox', 'start', '--detach', '--allow-game-dir', join(scratch, 'data')], env);
    expect([data.code, data.stderr.split('\n')[0]]).toEqual([
      2,
      expect.stringMatching(/cannot serve games from .*: it is udcli's own folder/),
    ]);
    // The data folder of the command's environment, not of the process it runs in.
    const execData = await runInProcess(
      ['sandbox', 'exec', '--allow-game-dir', join(scratch, 'data'), '--', 'true'],
      env,
    );
    expect([execData.code, execData.stderr.split('\n')[0]]).toEqual([
      2,
      expect.stringMatching(/cannot serve games from .*: it is udcli's own folder/),
    ]);
    const exec = await runInProcess(['sandbox', 'exec', '--game-url', 'file:///etc/passwd', '--', 'true'], env);
    expect(exec.code).toBe(2);
    expect((await runInProcess(['sandbox', 'status'], env)).code).toBe(1);
  });

  it('starts a detached sandbox serving the folder and prints the play page URL', async () => {
    const r = await runInProcess(['sandbox', 'play', '--game-dir', gameDir, '--no-open'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`http://127.0.0.1:${port}/play/1001\n`);
    // The game host (the sandbox's port + 1 when free), named by status; the main origin's game paths lead there.
    const status = JSON.parse((await runInProcess(['sandbox', 'status', '--json'], env)).stdout) as {
      game_url: string;
    };
    expect(status.game_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(status.game_url).not.toBe(`http://127.0.0.1:${port}`);
    gameUrl = status.game_url;
    const moved = await fetch(`http://127.0.0.1:${port}/play/1001/game/`, { redirect: 'manual' });
    expect([moved.status, moved.headers.get('location')]).toEqual([307, `${status.game_url}/play/1001/game/`]);
    const page = await (await fetch(`${status.game_url}/play/1001/game/`)).text();
    expect(page).toBe(`<!doctype html><html><head>${connect()}<title>built</title></head><body>built</body></html>`);
  });

  it('a running sandbox serves another folder only inside one allowed when it started', async () => {
    const other = join(scratch, 'other');
    mkdirSync(other, { recursive: true });
    const r = await runInProcess(['sandbox', 'play', '--game-dir', other, '--no-open'], env);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr.trim().split('\n')[0]).toMatch(
      /refused the game source: forbidden: dir .* is not inside a folder allowed when the sandbox started \(--game-dir or --allow-game-dir/,
    );
    const root = await runInProcess(['sandbox', 'exec', '--allow-game-dir', '/', '--', 'true'], {
      ...env,
      UDCLI_DATA_DIR: join(scratch, 'exec-root'),
    });
    expect(root.code).toBe(2);
    expect(root.stderr.trim().split('\n')[0]).toMatch(/cannot serve games from \/: it is the root of the file system/);
  });

  it('switches a running sandbox to a dev server, and prints ?as=', async () => {
    const r = await runInProcess(['sandbox', 'play', '1001', '--game-url', devUrl, '--as', 'alice', '--no-open'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`http://127.0.0.1:${port}/play/1001?as=alice\n`);
    expect(r.stderr).toContain(devUrl);
    const page = await (await fetch(`${gameUrl}/play/1001/game/index.html`)).text();
    expect(page).toBe(`<html><head>${connect()}</head><body>dev server</body></html>`);
    const unknown = await runInProcess(['sandbox', 'play', 'nope', '--no-open'], env);
    expect([unknown.code, unknown.stdout]).toEqual([2, '']);
  });

  it('sandbox exec --game-dir serves the folder to the command', async () => {
    const script =
      "fetch(process.env.UDCLI_SITE_URL + '/play/1001/game/').then((r) => r.text()).then((t) => process.exit(t.includes('connect.js') && t.includes('built') ? 0 : 3))";
    const r = await runInProcess(['sandbox', 'exec', '--game-dir', gameDir, '--', process.execPath, '-e', script], {
      ...env,
      UDCLI_DATA_DIR: join(scratch, 'exec-data'),
    });
    expect(r.code, r.stderr).toBe(0);
  });
});
