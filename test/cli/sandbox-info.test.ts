/**
 * Issue 31 (leftover): `sandbox info` of a studio's data suggests the commands for that data's
 * game, never the demo's 1001. In-process through `main`, on a database loaded from a data file.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { fakeIO } from '../output/fake-io.js';
import { writeDetachedPidFile } from '../e2e/harness.js';
import { pidFilePath } from '../../src/sandbox/paths.js';
import { startSandbox } from '../../src/sandbox/server.js';

let root: string;
let env: NodeJS.ProcessEnv;

async function udcli(args: string[]) {
  const f = fakeIO({ env });
  const code = await main(args, f.io);
  return { code, stdout: f.stdout(), stderr: f.stderr() };
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'udcli-sandbox-info-'));
  env = { UDCLI_CONFIG_DIR: join(root, 'config'), UDCLI_DATA_DIR: join(root, 'data'), NO_COLOR: '1' };
  const file = join(root, 'studio.yaml');
  writeFileSync(
    file,
    'games:\n  - id: "4711"\n    name: Orbit Miner\n    keys:\n      - api_key: 5f0e3b7c9a1d4e2f8b6c0a9d7e5f3b1c\nusers:\n  - username: qa_alice\n',
  );
  const loaded = await udcli(['sandbox', 'load', file]);
  expect(loaded.code, loaded.stderr).toBe(0);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('sandbox info of a loaded game', () => {
  it('names that game in its play page, token generator and set-uri suggestion', async () => {
    const r = await udcli(['sandbox', 'info']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('/play/4711');
    expect(r.stdout).toContain('udcli sandbox game set-uri 4711 <url>');
    expect(r.stdout).toMatch(/token generator\s+GET \S+\/4711/);
    expect(r.stdout).not.toContain('1001');
  });

  it('--json says which game the suggestions are for', async () => {
    const r = await udcli(['sandbox', 'info', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      game_id: '4711',
      play_page: expect.stringMatching(/\/play\/4711$/) as unknown,
    });
  });
});

describe('what the running sandbox serves each game from', () => {
  it('a folder given with --game-dir is named as the folder, a content URI as the content URI, a game with neither as nothing yet: in text and JSON', async () => {
    const gameDir = join(root, 'dist');
    mkdirSync(gameDir, { recursive: true });
    writeFileSync(join(gameDir, 'index.html'), '<!doctype html><title>Orbit</title>');
    const sandbox = await startSandbox({
      port: 0,
      host: '127.0.0.1',
      dbPath: join(root, 'served.db'),
      gameSource: { gameId: '1001', setting: { kind: 'dir', root: gameDir, connect: true } },
      ownDirs: [join(root, 'data'), join(root, 'config')],
    });
    try {
      writeDetachedPidFile(env, sandbox);
      const before = await udcli(['sandbox', 'info']);
      expect(before.code, before.stderr).toBe(0);
      expect(before.stdout).toContain(`play page        ${sandbox.url}/play/1001   (serves the folder ${gameDir})`);
      expect(before.stdout).not.toContain('iframes the content URI');
      expect(before.stdout).toMatch(/ {2}1001 {2}Demo Quest[^\n]*\n {8}play page from {2}the folder \S+dist\n/);
      expect(before.stdout).toMatch(
        / {2}1002 {2}[^\n]*\n {8}play page from {2}nothing yet: udcli sandbox game set-uri 1002 <url>/,
      );
      const set = await udcli([
        'sandbox',
        'game',
        'set-uri',
        '1002',
        'http://localhost:3000/game',
        '--db',
        sandbox.dbPath,
      ]);
      expect(set.code, set.stderr).toBe(0);
      const after = await udcli(['sandbox', 'info']);
      expect(after.stdout).toMatch(
        / {2}1002 {2}[^\n]*\n {8}play page from {2}http:\/\/localhost:3000\/game \(its content URI\)\n/,
      );
      const json = JSON.parse((await udcli(['sandbox', 'info', '--json'])).stdout) as {
        games: Array<{ id: string; served_from?: unknown }>;
      };
      expect(json.games.find((g) => g.id === '1001')?.served_from).toEqual({ kind: 'folder', path: gameDir });
      expect(json.games.find((g) => g.id === '1002')?.served_from).toEqual({
        kind: 'url',
        url: 'http://localhost:3000/game',
        from_content_uri: true,
      });
    } finally {
      await sandbox.close();
      rmSync(pidFilePath(env), { force: true });
    }
  });
});
