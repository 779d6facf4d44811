/**
 * What the test of the package as a user gets it (pack.test.ts) uses: runs of npm and the installed copy in a clean
 * environment (`run` serves other e2e tests too), and a registry on loopback serving this clone's node_modules, so an
 * install needs no network.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** npm's own environment variables (when the tests run under `npm test`) would leak into these runs. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(npm_package_|npm_lifecycle_|npm_config_(global|prefix|dry_run)$|UDCLI_)/i.test(k)) env[k] = v;
  }
  return { ...env, NO_COLOR: '1', ...extra };
}

export function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number; as?: { uid: number; gid: number } },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? REPO,
      env: options.env ?? cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      ...options.as,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
/** Where this clone's better-sqlite3 12 is (Node 20 only: drivers/sqlite-node20). */
export const NODE20_DRIVER = join(REPO, 'drivers', 'sqlite-node20', 'node_modules', 'better-sqlite3');

export interface Manifest {
  name: string;
  version: string;
  scripts?: Record<string, string>;
}

/**
 * A registry on loopback with the packages of this clone's node_modules (every copy the lockfile
 * places, at the version installed under this Node), each packed on request as npm packs it: a
 * global install asks it for what udcli depends on, with no network and no npm cache. A native
 * module is served without its build/ (as published), so its install script runs as a user's does.
 */
export async function localRegistry(work: string): Promise<{ url: string; close(): Promise<void> }> {
  const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { link?: boolean }>;
  };
  const folders = new Map<string, Map<string, string>>();
  for (const [location, entry] of Object.entries(lock.packages)) {
    if (!location.includes('node_modules/') || entry.link) continue;
    const folder = join(REPO, location);
    // Not installed under this Node (an optional dependency npm skipped).
    if (!existsSync(join(folder, 'package.json'))) continue;
    const { name, version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Manifest;
    if (!folders.has(name)) folders.set(name, new Map());
    folders.get(name)!.set(version, folder);
  }
  let base = '';
  const packed = new Map<string, Promise<Buffer>>();
  const pack = (folder: string, manifest: Manifest): Promise<Buffer> => {
    const file = join(work, `${packed.size}.tgz`);
    // Not gzipped: npm's tar reads a plain one as well (it looks for gzip's header), and
    // compressing every dependency here and unpacking it again in npm cost 2 of the test's 16 s of CPU.
    const args = ['-cf', file, '--exclude=./node_modules', '--transform', 's,^\\.,package,', '-C', folder, '.'];
    if (manifest.scripts?.install) args.splice(2, 0, '--exclude=./build');
    return run('tar', args, { timeoutMs: 60_000 }).then((r) => {
      if (r.code !== 0) throw new Error(`tar: ${r.stderr}`);
      return readFileSync(file);
    });
  };
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!.slice(1));
    const tar = /^-\/(.+)\/([^/]+)\.tgz$/.exec(path);
    const name = tar ? tar[1]! : path;
    const versions = folders.get(name);
    const folder = tar ? versions?.get(tar[2]!) : undefined;
    if (!versions || (tar && !folder)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    if (tar) {
      const key = `${name}@${tar[2]}`;
      const manifest = JSON.parse(readFileSync(join(folder!, 'package.json'), 'utf8')) as Manifest;
      if (!packed.has(key)) packed.set(key, pack(folder!, manifest));
      packed.get(key)!.then(
        (body) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body),
        (error: Error) => res.writeHead(500).end(error.message),
      );
      return;
    }
    const all: Record<string, unknown> = {};
    for (const [version, dir] of versions) {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
      all[version] = { ...manifest, dist: { tarball: `${base}/-/${encodeURIComponent(name)}/${version}.tgz` } };
    }
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ name, 'dist-tags': { latest: [...versions.keys()][0] }, versions: all }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `${base}/`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Compilers that fail and write down that they were called: on Node 22 and later nothing may call one. */
export function noCompilers(dir: string): { bin: string; calls: () => string } {
  const bin = join(dir, 'no-compilers');
  mkdirSync(bin);
  const log = join(dir, 'compiler-calls.log');
  for (const tool of ['cc', 'gcc', 'g++', 'c++', 'clang', 'make', 'python3', 'python']) {
    writeFileSync(join(bin, tool), `#!/bin/sh\necho "${tool} $*" >> '${log}'\nexit 1\n`, { mode: 0o755 });
  }
  return { bin, calls: () => (existsSync(log) ? readFileSync(log, 'utf8') : '') };
}

/**
 * Node 20 only. better-sqlite3 12's install script takes a prebuilt binary when it finds one and compiles SQLite
 * from source when it does not (a minute of CPU, and no network here to download one). Users get
 * the prebuilt one; the install is given the same binary this repository's copy runs with, packed
 * as prebuild-install names it, so the installed copy still loads a native module of its own.
 * Should the name not match (another better-sqlite3 version picked), it compiles as before.
 */
export async function localPrebuild(dir: string): Promise<string> {
  const native = NODE20_DRIVER;
  const { version } = JSON.parse(readFileSync(join(native, 'package.json'), 'utf8')) as { version: string };
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const packed = await run('tar', ['-czf', join(dir, name), '-C', native, 'build/Release/better_sqlite3.node'], {
    timeoutMs: 30_000,
  });
  expect(packed.code, packed.stderr).toBe(0);
  return dir;
}
