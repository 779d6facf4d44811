/**
 * Issue 31 (leftover): `sandbox info` of a studio's data suggests the commands for that data's
 * game, never the demo's 1001. In-process through `main`, on a database loaded from a data file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { fakeIO } from '../output/fake-io.js';

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
  writeFileSync(file, 'games:\n  - id: "4711"\n    name: Orbit Miner\n    keys:\n      - api_key: 5f0e3b7c9a1d4e2f8b6c0a9d7e5f3b1c\nusers:\n  - username: qa_alice\n');
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
    expect(JSON.parse(r.stdout)).toMatchObject({ game_id: '4711', play_page: expect.stringMatching(/\/play\/4711$/) as unknown });
  });
});
