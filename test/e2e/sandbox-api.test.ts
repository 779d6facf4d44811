/**
 * `udcli/sandbox` (docs/TESTING.md) as a studio's test file uses it: the built entry (dist/sandbox-api.mjs and
 * .cjs, `npm run build` first), two sandboxes in this one process, each on its own port and database; state changed
 * over HTTP by udcli itself, then reset(), snapshots, the clock, the request log, env() for the built `udcli`, and
 * stop() freeing the port. The installed package (the tarball) runs the recipes: pack.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/domain/demo.js';
import type * as Api from '../../src/sandbox/api/public.js';
import { json, runCli, runInProcess, type CliResult } from './harness.js';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/** A studio's data file as an object: one game, one player with a save. */
const RACERS = {
  games: [
    {
      id: '4711',
      name: 'Racers',
      signing: 'hmac-sha256-v1',
      keys: [{ api_key: '5f0e3b7c9a1d4e2f8b6c0a9d7e5f3b1c', signing_secret: 'racers-secret-1' }],
    },
  ],
  users: [{ username: 'qa_alice', plays: ['4711'], saves: { '4711': { slot1: 'lap 3' } } }],
};

let startSandbox: typeof Api.startSandbox;
let root: string;
let demo: Api.Sandbox;
let racers: Api.Sandbox;

beforeAll(async () => {
  ({ startSandbox } = (await import(pathToFileURL(join(DIST, 'sandbox-api.mjs')).href)) as typeof Api);
  root = mkdtempSync(join(tmpdir(), 'udcli-sandbox-api-'));
  [demo, racers] = await Promise.all([startSandbox(), startSandbox({ data: RACERS })]);
});

afterAll(async () => {
  await Promise.all([demo?.stop(), racers?.stop()]);
  rmSync(root, { recursive: true, force: true });
});

/** udcli in this process against a sandbox, with a config and data folder of the test's own. */
const udcli = (sandbox: Api.Sandbox, args: string[]): Promise<CliResult> =>
  runInProcess(args, { ...sandbox.env(), UDCLI_CONFIG_DIR: join(root, 'config'), UDCLI_DATA_DIR: join(root, 'data') });

async function saved(sandbox: Api.Sandbox, user: string, key: string): Promise<string | undefined> {
  const r = await udcli(sandbox, ['saves', 'get', user, key]);
  return r.code === 0 ? r.stdout.trimEnd() : undefined;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

describe('startSandbox() from the built entry', () => {
  it('starts two sandboxes in one process, each answering on its own port with its own data and credentials', async () => {
    expect(demo.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(racers.port).not.toBe(demo.port);
    expect({ gameId: demo.gameId, apiKey: demo.apiKey }).toEqual({ gameId: DEMO.game.id, apiKey: DEMO.game.apiKey });
    expect({ gameId: racers.gameId, apiKey: racers.apiKey, signingSecret: racers.signingSecret }).toEqual({
      gameId: '4711',
      apiKey: RACERS.games[0]!.keys[0]!.api_key,
      signingSecret: 'racers-secret-1',
    });
    expect(racers.games.map((g) => g.id)).toEqual(['4711']);
    expect(racers.users.map((u) => u.username)).toEqual(['qa_alice']);
    expect(demo.users.map((u) => u.username)).toContain(DEMO.user.username);
    expect(await saved(racers, 'qa_alice', 'slot1')).toBe('lap 3');
    // Each its own database: the demo's player is not in the other.
    expect((await udcli(racers, ['user', DEMO.user.username, '--json'])).code).not.toBe(0);
  });

  it('reset() puts back the data it started with, after changes made over HTTP; the other sandbox keeps its own', async () => {
    expect((await udcli(racers, ['saves', 'set', 'qa_alice', 'slot1', 'lap 9'])).code).toBe(0);
    expect((await udcli(racers, ['saves', 'set', 'qa_alice', 'slot2', 'pit stop'])).code).toBe(0);
    expect((await udcli(demo, ['saves', 'set', DEMO.user.username, 'level', '7'])).code).toBe(0);
    expect(await saved(racers, 'qa_alice', 'slot1')).toBe('lap 9');

    await racers.reset();
    expect(await saved(racers, 'qa_alice', 'slot1')).toBe('lap 3');
    expect(await saved(racers, 'qa_alice', 'slot2')).toBeUndefined();
    expect(await saved(demo, DEMO.user.username, 'level')).toBe('7');
    await demo.reset();
    expect(await saved(demo, DEMO.user.username, 'level')).toBeUndefined();
  });

  it('snapshot(name) and restore(name) save and put back what it holds; an unknown name is refused', async () => {
    await udcli(racers, ['saves', 'set', 'qa_alice', 'slot1', 'checkpoint']);
    await racers.snapshot('at-checkpoint');
    await udcli(racers, ['saves', 'set', 'qa_alice', 'slot1', 'crashed']);
    expect(await saved(racers, 'qa_alice', 'slot1')).toBe('crashed');
    await racers.restore('at-checkpoint');
    expect(await saved(racers, 'qa_alice', 'slot1')).toBe('checkpoint');
    await expect(racers.restore('never-saved')).rejects.toThrow(/no snapshot named "never-saved"/);
    await expect(racers.snapshot('../escape')).rejects.toThrow(/invalid snapshot name/);
    await racers.reset();
  });

  it('load(data) replaces what it holds, and reset() returns to that data from then on', async () => {
    await racers.load({ ...RACERS, users: [{ username: 'qa_bob', plays: ['4711'] }] });
    expect(racers.users.map((u) => u.username)).toEqual(['qa_bob']);
    await udcli(racers, ['saves', 'set', 'qa_bob', 'slot1', 'new']);
    await racers.reset();
    expect(racers.users.map((u) => u.username)).toEqual(['qa_bob']);
    expect(await saved(racers, 'qa_bob', 'slot1')).toBeUndefined();
    await racers.load(RACERS);
  });

  it('clock.set() and advance() move the time the sandbox answers with; reset() puts it back', async () => {
    const clockOf = async (sandbox: Api.Sandbox) =>
      ((await (await fetch(`${sandbox.url}/_sandbox/clock`)).json()) as { now: string }).now;
    expect((await demo.clock.set('2030-01-01T00:00:00Z')).toISOString()).toBe('2030-01-01T00:00:00.000Z');
    expect(await clockOf(demo)).toMatch(/^2030-01-01T00:00:0/);
    expect((await demo.clock.advance('1d')).toISOString()).toMatch(/^2030-01-02T00:00:0/);
    expect(await clockOf(demo)).toMatch(/^2030-01-02T/);
    // The other sandbox's clock is its own.
    expect(await clockOf(racers)).not.toMatch(/^2030-/);
    await demo.reset();
    expect(await clockOf(demo)).not.toMatch(/^2030-/);
  });

  it("requests() lists what the sandbox answered since reset(), not the other sandbox's nor its own control calls", async () => {
    await demo.reset();
    await racers.reset();
    expect(await demo.requests()).toEqual([]);
    await udcli(demo, ['user', DEMO.user.username, '--json']);
    await demo.clock.advance(1000);
    const seen = await demo.requests();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((r) => r.path.startsWith('/services/rest/v1/') && r.status === 200)).toBe(true);
    expect(JSON.stringify(seen)).not.toContain(DEMO.game.apiKey);
    expect(await racers.requests()).toEqual([]);
  });

  it('env() points the built udcli (a child process) at it', async () => {
    const r = await runCli(['user', DEMO.user.username, '--json'], {
      ...demo.env(),
      UDCLI_CONFIG_DIR: join(root, 'config'),
      UDCLI_DATA_DIR: join(root, 'data'),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(json<{ uid: string }>(r).uid).toBe(DEMO.user.uid);
    expect(demo.env()).toMatchObject({ UDCLI_BASE_URL: demo.url, UDCLI_GAME_ID: DEMO.game.id });
    // A game that takes hmac-sha256-v1 alone: udcli signs its changes so.
    expect(racers.env()).toMatchObject({ UDCLI_SIGNING_SCHEME: 'hmac-sha256-v1', UDCLI_GAME_ID: '4711' });
  });

  it('the CommonJS entry gives the same function, and a wrong option is refused naming it, before anything starts', async () => {
    const required = createRequire(import.meta.url)(join(DIST, 'sandbox-api.cjs')) as typeof Api;
    await expect(required.startSandbox({ prot: 0 } as Api.SandboxOptions)).rejects.toThrow(/unknown option "prot"/);
    await expect(startSandbox({ latency: '1h' })).rejects.toThrow(/latency/);
    await expect(startSandbox({ faults: 'explode=1' })).rejects.toThrow(/explode/);
  });

  it('stop() frees the port, as does Symbol.asyncDispose (what `await using` calls), once only', async () => {
    const sandbox = await startSandbox({ seed: 'none' });
    expect(await portFree(sandbox.port)).toBe(false);
    await sandbox.stop();
    expect(await portFree(sandbox.port)).toBe(true);
    await sandbox.stop();
    await expect(sandbox.reset()).rejects.toThrow(/stopped/);

    const disposed = await startSandbox({ seed: 'none' });
    expect(Symbol.asyncDispose).toBeDefined();
    await disposed[Symbol.asyncDispose]();
    expect(await portFree(disposed.port)).toBe(true);
  });

  it.runIf(NODE_MAJOR >= 24)('`await using` stops the sandbox at the end of its block', async () => {
    const script = join(root, 'using.mjs');
    writeFileSync(
      script,
      `import { startSandbox } from ${JSON.stringify(pathToFileURL(join(DIST, 'sandbox-api.mjs')).href)};
let port;
{
  await using sandbox = await startSandbox();
  port = sandbox.port;
}
process.stdout.write(String(port));
`,
    );
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.on('error', reject);
      child.on('close', () => resolve(stdout));
    });
    expect(await portFree(Number(out))).toBe(true);
  });
});
