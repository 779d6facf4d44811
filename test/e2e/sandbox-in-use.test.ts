/**
 * No command replaces or deletes a database a running sandbox has open, and a start that cannot
 * start changes nothing. A sandbox runs in this process on the default database of its data
 * folder, with the pid file naming it, as `sandbox start --detach` leaves it; the commands run
 * in-process through main. After each refusal, the sandbox's data is byte-for-byte as before.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/domain/demo.js';
import { defaultDatabasePath } from '../../src/sandbox/paths.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runInProcess, writeDetachedPidFile, type CliResult } from './harness.js';

let scratch: string;
let env: NodeJS.ProcessEnv;
let sandbox: RunningSandbox;
let caseFile: string;

/** The database files as bytes, and the data as `sandbox export` reads it. */
async function state(): Promise<{ files: string; export: string }> {
  const db = defaultDatabasePath(env);
  const hash = createHash('sha256');
  for (const suffix of ['', '-wal'])
    hash.update(existsSync(`${db}${suffix}`) ? readFileSync(`${db}${suffix}`) : Buffer.alloc(0));
  const exported = await runInProcess(['sandbox', 'export', '--format', 'json'], env);
  expect(exported.code, exported.stderr).toBe(0);
  return { files: hash.digest('hex'), export: exported.stdout };
}

function expectRefusal(r: CliResult, what: string): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  const [line, hint] = r.stderr.trim().split('\n');
  expect(line).toContain(what);
  expect(line).toContain(`the sandbox at ${sandbox.url} (pid ${process.pid}, database ${sandbox.dbPath}`);
  expect(line).toContain('nothing was changed');
  expect(hint).toMatch(/udcli sandbox (load FILE|stop)/);
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'udcli-in-use-'));
  env = { UDCLI_DATA_DIR: join(scratch, 'data'), UDCLI_CONFIG_DIR: join(scratch, 'config') };
  mkdirSync(env.UDCLI_DATA_DIR!, { recursive: true });
  sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    dbPath: defaultDatabasePath(env),
    ownDirs: [env.UDCLI_DATA_DIR!],
  });
  env.UDCLI_SANDBOX_PORT = String(sandbox.port);
  writeDetachedPidFile(env, sandbox);
  // The developer's work: alice's xp-boost given through the sandbox.
  const given = await runInProcess(['products', 'give', 'alice', 'xp-boost', '--qty', '7', '--yes'], env);
  expect(given.code, given.stderr).toBe(0);
  caseFile = join(scratch, 'case.yaml');
  const init = await runInProcess(['sandbox', 'init', caseFile], env);
  expect(init.code, init.stderr).toBe(0);
});

afterAll(async () => {
  await sandbox?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('a running sandbox keeps its data', () => {
  it('start --data case.yaml --reset on its port and database: exit 2, naming it and the ways on; its data byte-for-byte as it was', async () => {
    const before = await state();
    expect(before.export).toContain('xp-boost');
    const r = await runInProcess(['sandbox', 'start', '--data', caseFile, '--reset'], env);
    expectRefusal(r, `cannot start a sandbox on 127.0.0.1:${sandbox.port}`);
    expect(await state()).toEqual(before);
    const held = await runInProcess(['products', 'list', 'alice', '-o', 'csv'], env);
    // alice held 2 in the demo data; 7 given.
    expect(held.stdout).toContain('\nxp-boost,XP Boost,consumable,9,');
  });

  it('start --data case.yaml --reset on another port but its database: refused, data unchanged', async () => {
    const before = await state();
    const r = await runInProcess(
      ['sandbox', 'start', '--data', caseFile, '--reset', '--port', '0', '--db', sandbox.dbPath],
      env,
    );
    expectRefusal(r, `cannot replace the data of ${sandbox.dbPath}`);
    expect(await state()).toEqual(before);
  });

  it('start --detach while it runs: refused before anything is spawned or changed', async () => {
    const before = await state();
    const r = await runInProcess(
      ['sandbox', 'start', '--detach', '--data', caseFile, '--reset', '--port', '0', '--name', 'default'],
      env,
    );
    expectRefusal(r, 'cannot start another sandbox');
    expect(await state()).toEqual(before);
  });

  it('reset --db through a link to its folder, import, init and export onto its database file: refused, data unchanged', async () => {
    const before = await state();
    const link = join(scratch, 'link');
    symlinkSync(env.UDCLI_DATA_DIR!, link);
    const viaLink = join(link, 'sandbox.db');
    expectRefusal(await runInProcess(['sandbox', 'reset', '--db', viaLink, '--yes'], env), `cannot delete ${viaLink}`);
    const har = join(scratch, 'empty.har');
    writeFileSync(har, JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [] } }));
    expectRefusal(
      await runInProcess(['sandbox', 'import', har, sandbox.dbPath, '--force'], env),
      `cannot write ${sandbox.dbPath}`,
    );
    expectRefusal(
      await runInProcess(['sandbox', 'init', sandbox.dbPath, '--force'], env),
      `cannot write ${sandbox.dbPath}`,
    );
    expectRefusal(
      await runInProcess(['sandbox', 'init', `${sandbox.dbPath}-wal`, '--force'], env),
      `cannot write ${sandbox.dbPath}-wal`,
    );
    expectRefusal(await runInProcess(['sandbox', 'export', sandbox.dbPath], env), `cannot write ${sandbox.dbPath}`);
    expect(await state()).toEqual(before);
  });

  it('a data file or snapshot that cannot be read changes nothing in it: one line, exit 2', async () => {
    const before = await state();
    const bad = join(scratch, 'bad.yaml');
    writeFileSync(bad, 'games: [ {id: 1001, name: ');
    for (const args of [
      ['sandbox', 'load', bad],
      ['sandbox', 'reset', '--data', bad, '--yes'],
      ['sandbox', 'load', join(scratch, 'missing.yaml')],
    ]) {
      const r = await runInProcess(args, env);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr.trim().split('\n')[0]).toMatch(/^udcli: /);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    mkdirSync(join(env.UDCLI_DATA_DIR!, 'snapshots'), { recursive: true });
    writeFileSync(join(env.UDCLI_DATA_DIR!, 'snapshots', 'broken.db'), 'not a database at all');
    const restored = await runInProcess(['sandbox', 'snapshot', 'restore', 'broken'], env);
    expect(restored.code, restored.stderr).toBe(2);
    expect(restored.stderr).not.toMatch(/\n\s+at /);
    expect(await state()).toEqual(before);
  });
});

describe('a port held by another program', () => {
  let other: Server;
  let port: number;
  beforeAll(async () => {
    other = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('File not found'));
    await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
    port = (other.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((done) => other.close(() => done())));

  it('start: named as another program, with the way to another port; no database is made', async () => {
    const dataDir = join(scratch, 'other-data');
    const r = await runInProcess(['sandbox', 'start', '--port', String(port)], {
      ...env,
      UDCLI_DATA_DIR: dataDir,
      UDCLI_SANDBOX_PORT: undefined,
    });
    expect(r.code, r.stderr).toBe(2);
    const [line, hint] = r.stderr.trim().split('\n');
    expect(line).toBe(
      `udcli: 127.0.0.1:${port} answers, but not as a sandbox: another program holds it; nothing was changed`,
    );
    expect(hint).toContain('UDCLI_SANDBOX_PORT=');
    expect(existsSync(join(dataDir, 'sandbox.db'))).toBe(false);
  });

  it('a command of the built-in profile: names the port as held by another program, not a wrong base_url', async () => {
    const r = await runInProcess(['user', DEMO.user.username], {
      ...env,
      UDCLI_DATA_DIR: join(scratch, 'other-data'),
      UDCLI_SANDBOX_PORT: String(port),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`127.0.0.1:${port} answers, but not as a sandbox: another program holds it`);
    expect(r.stderr).toContain('UDCLI_SANDBOX_PORT=');
    expect(r.stderr).not.toContain('check that base_url');
  });
});
