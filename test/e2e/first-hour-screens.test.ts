/**
 * The first hour's smaller screens: `achievements defs` shows where a quest starts, every table
 * writes dates one way (ISO 8601, UTC) while JSON keeps the service's values, and a game folder
 * that is refused says which rule refuses it and which flag takes a folder. In-process through
 * `main`, against a real sandbox.
 */
import { homedir } from 'node:os';
import { describe, expect, it, fileSandbox } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';

const env = fileSandbox();

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

  it("achievements list shows a quest's start beside its progress (1 → 4/10 (33%)), and --help says what PROGRESS counts", async () => {
    const defs = JSON.parse((await env.run(['achievements', 'defs', '-o', 'json'])).stdout) as Array<{
      developer_id: string;
      start_value: number;
    }>;
    const records = JSON.parse(
      (await env.run(['achievements', 'list', DEMO.user.username, '--started', '-o', 'json'])).stdout,
    ) as Array<{
      developer_id: string;
      current_value: number;
      target_value: number;
      percent_complete: number;
    }>;
    const level = records.find((r) => r.developer_id === 'LEVEL_10')!;
    const start = defs.find((d) => d.developer_id === 'LEVEL_10')!.start_value;
    expect(start).toBeGreaterThan(0);
    // The platform's percentage, counted from the start (contract.md), not current / target.
    expect(level.percent_complete).toBe(
      Math.floor((100 * (level.current_value - start)) / (level.target_value - start)),
    );
    const table = await env.run(['achievements', 'list', DEMO.user.username, '-o', 'table']);
    expect(table.code, table.stderr).toBe(0);
    const row = table.stdout.split('\n').find((line) => line.startsWith('LEVEL_10 '));
    expect(row).toContain(`${start} → ${level.current_value}/${level.target_value} (${level.percent_complete}%)`);
    // A quest starting at 0 shows no start.
    const gems = table.stdout.split('\n').find((line) => line.startsWith('COLLECT_1000_GEMS '));
    expect(gems).toMatch(/\s\d+\/1000 \(\d+%\)/);
    const help = await env.run(['achievements', 'list', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(`\`1 → 4/10 (33%)\` is 3 of its 9 steps done`);
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
