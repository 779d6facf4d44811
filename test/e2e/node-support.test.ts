/**
 * Starting on a Node that udcli does not support, or with no SQLite driver for this Node (issue
 * 39): one line naming the Node version, what is supported and what to do; exit 2, no stack
 * trace, nothing written. The process is the subject (bin/udcli.js checks before dist/ loads),
 * so the built binary; needs `npm run build` first, like every e2e test.
 *
 * The version a process reports comes from a preload that redefines process.versions.node, the
 * property udcli reads: there is no older Node on the machine to run. The missing driver is a
 * real one: a process claiming the other side of the Node 22 line asks for the driver npm did not
 * install under this Node (better-sqlite3 13 is never installed on Node 20, the Node 20 package
 * never on 22 and later).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, commandEnv, type CliResult } from './harness.js';
import { run } from './pack-helpers.js';

let scratch: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'udcli-node-'));
  env = commandEnv({ UDCLI_DATA_DIR: join(scratch, 'data'), UDCLI_CONFIG_DIR: join(scratch, 'config') });
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function asNode(version: string, args: string[]): Promise<CliResult & { signal: NodeJS.Signals | null }> {
  const preload = `data:text/javascript,${encodeURIComponent(`Object.defineProperty(process.versions, 'node', { value: ${JSON.stringify(version)} });`)}`;
  const r = await run(process.execPath, ['--import', preload, BIN, ...args], { cwd: scratch, env, timeoutMs: 30_000 });
  return { ...r, code: r.code ?? -1 };
}

function expectOneLine(r: CliResult & { signal: NodeJS.Signals | null }): string {
  expect(r.signal).toBeNull();
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.split('\n').filter((line) => line !== '');
  expect(lines, r.stderr).toHaveLength(1);
  expect(r.stderr).not.toMatch(/^\s+at /m);
  return lines[0]!;
}

describe('an unsupported Node', () => {
  it.each(['20.18.0', '18.20.8'])(
    'Node %s: one line with the version, what is supported and what to do; exit 2',
    async (version) => {
      const line = expectOneLine(await asNode(version, ['user', 'demo_player']));
      expect(line).toBe(
        `udcli: Node ${version} is not supported: udcli runs on Node 20 (from 20.18.1), 22, 24 or 26; install one of those and run udcli with it`,
      );
      // Refused before anything ran: no configuration or data directory was made.
      expect(readdirSync(scratch)).toEqual([]);
    },
  );

  it('Node 20.18.1, the oldest supported, runs', async () => {
    const r = await asNode('20.18.1', ['--version']);
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('no SQLite driver for this Node', () => {
  it('a command that opens the database says so in one line, exit 2, and writes no database', async () => {
    const real = Number(process.versions.node.split('.')[0]);
    // The other side of the Node 22 line: its driver is the one npm did not install here.
    const claimed = real >= 22 ? '20.20.2' : '22.23.3';
    const missing = real >= 22 ? 'udcli-sqlite-node20' : 'better-sqlite3';
    const db = join(scratch, 'never.db');
    const line = expectOneLine(await asNode(claimed, ['sandbox', 'seed', '--db', db]));
    expect(line).toBe(
      `udcli: the SQLite driver for Node ${claimed} (${missing}) is not installed: udcli's sandbox runs on Node 20 (from 20.18.1), 22, 24 or 26; ` +
        'install udcli again under this Node (npm ci in a clone, or npm install -g)',
    );
    expect(existsSync(db)).toBe(false);
  });
});
