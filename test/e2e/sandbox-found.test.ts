/**
 * Issue 33, "the running sandbox is the one you talk to", with the processes a user has: `udcli
 * sandbox start --detach --port N` (a process of its own, found through its pid file), then
 * `udcli user demo_player` in another process. The command must reach that sandbox (its request
 * log has it), not start or embed a second one on the built-in profile's port. The built binary,
 * since the processes and the pid file between them are the subject. Needs `npm run build`.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/domain/demo.js';
import { closedPort, connectionsTo, nowhere, runCli } from './harness.js';

const root = mkdtempSync(join(tmpdir(), 'udcli-sandbox-found-'));
let env: NodeJS.ProcessEnv;
let port: string;
let profilePort: NodeJS.ProcessEnv;
const cli = (args: string[]) => runCli(args, env, { timeoutMs: 40_000 });

beforeAll(async () => {
  // The built-in profile's own port answers nothing (a listener held open that cuts every
  // connection; never 8787, which another sandbox may use). The detached sandbox binds its port
  // itself, so that one is free: found by listening and closing.
  profilePort = await nowhere();
  const closed = new URL(profilePort.UDCLI_BASE_URL!).port;
  port = String(await closedPort());
  env = { UDCLI_DATA_DIR: join(root, 'data'), UDCLI_CONFIG_DIR: join(root, 'config'), UDCLI_SANDBOX_PORT: closed };
});

afterAll(async () => {
  await cli(['sandbox', 'stop']);
  rmSync(root, { recursive: true, force: true });
});

describe('a detached sandbox on a port of its own', () => {
  it('receives the next command of the built-in profile; nothing else is started', async () => {
    const started = await cli(['sandbox', 'start', '--detach', '--port', port]);
    expect(started.code, started.stderr).toBe(0);
    const url = started.stdout.trim();
    expect(url).toBe(`http://127.0.0.1:${port}`);
    // `sandbox start --detach` made the data directory: its owner's only, as the README says (issue 40, 8).
    expect(statSync(join(root, 'data')).mode & 0o777).toBe(0o700);

    const user = await cli(['user', DEMO.user.username, '-o', 'json']);
    expect(user.code, user.stderr).toBe(0);
    expect(user.stderr).not.toMatch(/no sandbox on|embedded|in the background/);
    expect(JSON.parse(user.stdout)).toMatchObject({ uid: DEMO.user.uid });

    // In its request log, as `sandbox logs` shows it.
    const logs = await cli(['sandbox', 'logs', '-n', 'all', '--path', '/users/', '--json']);
    expect(logs.code, logs.stderr).toBe(0);
    const lines = logs.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { method: string; path: string; status: number });
    expect(lines).toContainEqual(
      expect.objectContaining({
        method: 'GET',
        path: `/services/rest/v1/users/${DEMO.user.username}.json`,
        status: 200,
      }),
    );

    // Still the one sandbox: status names it, and nothing ever tried the profile's own port.
    const status = await cli(['sandbox', 'status', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ running: true, url });
    expect(connectionsTo(profilePort)).toBe(0);
  }, 90_000);
});
