/**
 * The first hour's smaller screens: `achievements defs` shows where a quest starts, every table
 * writes dates one way (ISO 8601, UTC) while JSON keeps the service's values, and a game folder
 * that is refused says which rule refuses it and which flag takes a folder. In-process through
 * `main`, against a real sandbox.
 */
import { homedir } from 'node:os';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import type { TestEnv } from './harness.js';

let env: TestEnv;
beforeAll(({ sandbox }) => {
  env = sandbox;
});

const ISO = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z\b/;
const SERVICE_DATE = /\b\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\b/;

describe('the first hour, on screen', () => {
  it('achievements defs shows START beside TARGET, so 4/10 (33%) of a quest starting at 1 reads right', async () => {
    const r = await env.run(['achievements', 'defs', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    const [header, ...rows] = r.stdout.trim().split('\n');
    expect(header).toMatch(/\bSTART +TARGET\b/);
    const defs = JSON.parse((await env.run(['achievements', 'defs', '-o', 'json'])).stdout) as Array<{
      developer_id: string;
      start_value: number;
      target_value: number;
    }>;
    for (const def of defs) {
      const row = rows.find((line) => line.split(/\s{2,}/)[1] === def.developer_id);
      expect(row, def.developer_id).toBeDefined();
      expect(row).toMatch(new RegExp(`\\s${def.start_value}\\s+${def.target_value}\\s`));
    }
  });

  it("the user table and the achievements table write dates the same way (ISO 8601); JSON keeps the service's", async () => {
    const user = await env.run(['user', DEMO.user.username, '-o', 'table']);
    expect(user.code, user.stderr).toBe(0);
    expect(user.stdout).toMatch(ISO);
    const list = await env.run(['achievements', 'list', DEMO.user.username, '-o', 'table']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(ISO);
    expect(list.stdout).not.toMatch(SERVICE_DATE);
    const json = await env.run(['achievements', 'list', DEMO.user.username, '-o', 'json']);
    expect(json.stdout).toMatch(SERVICE_DATE);
  });

  it('a refused game folder names the rule that refuses it and the flag that takes a folder', async () => {
    const r = await env.run(['sandbox', 'start', '--port', '0', '--db', ':memory:', '--game-dir', homedir()]);
    expect(r.code).toBe(2);
    const [line, hint] = r.stderr.trim().split('\n');
    expect(line).toBe(`udcli: cannot serve games from ${homedir()}: it is your home folder`);
    expect(hint).toContain(
      "a game is never served from the file system's root, a home folder (yours or another user's)",
    );
    expect(hint).toContain('--game-dir DIR');
    expect(hint).toContain('--allow-game-dir DIR');
  });
});
