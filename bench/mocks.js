/**
 * The sandbox beside the mock servers a studio would otherwise run (the `mock-*` rows): Prism's
 * mock (@stoplight/prism-cli), json-server, Mockoon (@mockoon/cli) and WireMock, each given an
 * equivalent route, measured the same way as the sandbox:
 *
 * - start-up to first reply: from spawning the server's process to the first 200 reply to the
 *   GET below (polled every 20 ms over node:http);
 * - GET req/s: bench/loadgen.js, the load generator of the sandbox rows (an undici Pool, 16
 *   connections, one request in flight on each), for the same time as those rows;
 * - peak RSS: the sum of VmHWM over the server's process and its descendants (/proc), read
 *   after the load, before the server is stopped.
 *
 * The request: GET /services/rest/v1/users/{uid}.json?api_key=... of the sandbox's demo user.
 * Every mock answers it with the sandbox's own reply (the same envelope and payload), so all
 * send the same bytes but for their headers (json-server: plus an `id` key, see below), except
 * a second Prism row, which mocks the sandbox's own /openapi.json as a studio would point Prism
 * at the platform's document: its replies are generated from the schemas (the same keys,
 * placeholder values), and it validates each request and reply against the document. The
 * sandbox looks the user and the key up in SQLite, checks the key and logs the request; a mock
 * only matches the path. The rows are reported, not judged.
 *
 * The servers are installed at bench time from the npm registry into a temporary folder
 * (`npm install --prefix`), never into the project; WireMock runs its bundled jar with the
 * `java` on PATH (the npm package's launcher does the same, but does not pass signals on), and
 * its row says "skipped: needs Java" without one. Versions are pinned so runs compare.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { freePort } from './lib/free-port.js';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv, nodeJson, npmInstallArgs } from './lib/proc.js';

const BENCH = fileURLToPath(new URL('.', import.meta.url));
const BIN = join(BENCH, '..', 'bin', 'udcli.js');

/** The packages, pinned: the versions measured in bench/CHANGES.md. */
export const MOCK_PACKAGES = {
  prism: '@stoplight/prism-cli@5.14.2',
  'json-server': 'json-server@0.17.4',
  mockoon: '@mockoon/cli@9.9.0',
  wiremock: 'wiremock@3.13.2',
};

/** The rows' ids (`mock-<id>`): Prism twice, from a one-path document and from the sandbox's own. */
export const MOCK_IDS = ['prism', 'prism-openapi', 'json-server', 'mockoon', 'wiremock'];

/** @param {string} msg */
const say = (msg) => process.stderr.write(`bench: ${msg}\n`);

/** One GET over a fresh connection. @param {string} url @returns {Promise<{ status: number, text: string }>} */
function get(url) {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { accept: 'application/json' } }, (res) => {
      const chunks = /** @type {Buffer[]} */ ([]);
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(5000, () => req.destroy(new Error('no reply within 5 s')));
    req.on('error', reject);
    req.end();
  });
}

/** Peak RSS (KB, VmHWM) of a process and its descendants, or NaN without /proc. @param {number} root */
function treePeakRssKB(root) {
  try {
    /** @type {Map<number, number[]>} */
    const kids = new Map();
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        kids.set(ppid, [...(kids.get(ppid) ?? []), Number(name)]);
      } catch {
        // gone
      }
    }
    let total = 0;
    const stack = [root];
    while (stack.length > 0) {
      const pid = /** @type {number} */ (stack.pop());
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
        if (m) total += Number(m[1]);
      } catch {
        // gone
      }
      stack.push(...(kids.get(pid) ?? []));
    }
    return total;
  } catch {
    return NaN;
  }
}

/** @type {Set<import('node:child_process').ChildProcess>} */
const running = new Set();
/** Every server started here runs in its own process group: stopping it stops what it spawned. */
function killGroup(
  /** @type {import('node:child_process').ChildProcess} */ child,
  /** @type {NodeJS.Signals} */ signal,
) {
  try {
    process.kill(-(/** @type {number} */ (child.pid)), signal);
  } catch {
    // already gone
  }
}
process.on('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL');
});

/**
 * Starts a server and times it to its first good reply.
 * @param {{ command: string, args: string[], cwd?: string, env?: NodeJS.ProcessEnv, url: string, timeoutMs?: number }}
 * o
 */
async function startTimed(o) {
  const t0 = process.hrtime.bigint();
  const child = spawn(o.command, o.args, {
    cwd: o.cwd,
    env: o.env ?? cleanEnv(),
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  running.add(child);
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (d) => {
    if (err.length < 4096) err += d;
  });
  const exited = new Promise((r) => child.once('close', r));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      killGroup(child, 'SIGTERM');
      const t = setTimeout(() => killGroup(child, 'SIGKILL'), 5000);
      await exited;
      clearTimeout(t);
    }
    running.delete(child);
  };
  const deadline = Date.now() + (o.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      running.delete(child);
      throw new Error(
        `${o.command} ${o.args.join(' ')} exited (${child.exitCode ?? child.signalCode}) before its first reply\n${err}`,
      );
    }
    try {
      const r = await get(o.url);
      if (r.status === 200)
        return {
          startupMs: Number(process.hrtime.bigint() - t0) / 1e6,
          first: r.text,
          pid: /** @type {number} */ (child.pid),
          stop,
        };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${o.command} did not answer within ${o.timeoutMs ?? 60_000} ms\n${err}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Installs the mock servers into `dir` (once: kept when they are there). @param {string} dir */
function install(dir) {
  const marker = join(dir, 'installed.json');
  const want = JSON.stringify(MOCK_PACKAGES);
  if (existsSync(marker) && readFileSync(marker, 'utf8') === want) return;
  mkdirSync(dir, { recursive: true });
  say(`installing ${Object.values(MOCK_PACKAGES).join(' ')} into ${dir} (npm registry)`);
  const r = spawnSync('npm', npmInstallArgs(dir, Object.values(MOCK_PACKAGES)), { encoding: 'utf8', env: cleanEnv() });
  if (r.status !== 0) {
    const text = `${r.stderr ?? ''}\n${r.stdout ?? ''}`;
    const code = /npm error code (\S+)/.exec(text)?.[1] ?? (r.error ? r.error.message : `exit ${r.status}`);
    throw new Error(`npm install of the mock servers failed (${code}; is the npm registry reachable?)`);
  }
  writeFileSync(marker, want);
}

/** The shape of a reply: its keys, and its payload's. @param {string} text */
function shapeOf(text) {
  try {
    const body = JSON.parse(text);
    return { keys: Object.keys(body).sort(), payloadKeys: Object.keys(body.payload ?? {}).sort() };
  } catch {
    return { keys: ['(not JSON)'], payloadKeys: [] };
  }
}

/**
 * The servers: how each is started, and its route written from the sandbox's reply.
 * @param {string} dir     where the packages are installed
 * @param {string} work    a folder for their files
 * @param {{ reply: string, uid: string, pathAndQuery: string, openapi: string }} route
 */
function servers(dir, work, route) {
  const pkg = (/** @type {string} */ name, /** @type {string} */ file) => join(dir, 'node_modules', name, file);
  const envelope = JSON.parse(route.reply);
  return [
    {
      id: 'prism',
      name: 'Prism mock (@stoplight/prism-cli)',
      route: 'a one-path OpenAPI 3 document, the sandbox reply as the 200 example (static mode)',
      async prepare() {
        const doc = {
          openapi: '3.0.3',
          info: { title: 'User Data REST Service (bench)', version: '1' },
          paths: {
            '/services/rest/v1/users/{uid}.json': {
              get: {
                parameters: [
                  { name: 'uid', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9a-f]{32}$' } },
                  { name: 'api_key', in: 'query', required: true, schema: { type: 'string' } },
                ],
                responses: { 200: { description: 'the user', content: { 'application/json': { example: envelope } } } },
              },
            },
          },
        };
        writeFileSync(join(work, 'openapi.json'), JSON.stringify(doc));
      },
      start: (/** @type {number} */ port) => ({
        command: process.execPath,
        args: [
          pkg('@stoplight/prism-cli', 'dist/index.js'),
          'mock',
          join(work, 'openapi.json'),
          '-h',
          '127.0.0.1',
          '-p',
          String(port),
        ],
      }),
      version: () => JSON.parse(readFileSync(pkg('@stoplight/prism-cli', 'package.json'), 'utf8')).version,
    },
    {
      id: 'prism-openapi',
      name: "Prism mock of the sandbox's own OpenAPI document",
      route: "the sandbox's /openapi.json as it serves it (every path; replies generated from its schemas)",
      async prepare() {
        writeFileSync(join(work, 'sandbox-openapi.json'), route.openapi);
      },
      start: (/** @type {number} */ port) => ({
        command: process.execPath,
        args: [
          pkg('@stoplight/prism-cli', 'dist/index.js'),
          'mock',
          join(work, 'sandbox-openapi.json'),
          '-h',
          '127.0.0.1',
          '-p',
          String(port),
        ],
      }),
      version: () => JSON.parse(readFileSync(pkg('@stoplight/prism-cli', 'package.json'), 'utf8')).version,
    },
    {
      id: 'json-server',
      name: 'json-server',
      route:
        'db.json with a users collection (the sandbox reply, keyed by uid in its `id`), a routes.json rewrite of the path',
      async prepare() {
        writeFileSync(join(work, 'db.json'), JSON.stringify({ users: [{ id: route.uid, ...envelope }] }));
        writeFileSync(
          join(work, 'routes.json'),
          JSON.stringify({ '/services/rest/v1/users/:uid.json*': '/users/:uid' }),
        );
      },
      start: (/** @type {number} */ port) => ({
        command: process.execPath,
        args: [
          pkg('json-server', 'lib/cli/bin.js'),
          join(work, 'db.json'),
          '--routes',
          join(work, 'routes.json'),
          '--host',
          '127.0.0.1',
          '--port',
          String(port),
          '--quiet',
        ],
      }),
      version: () => JSON.parse(readFileSync(pkg('json-server', 'package.json'), 'utf8')).version,
    },
    {
      id: 'mockoon',
      name: 'Mockoon (@mockoon/cli)',
      route: 'an environment file (built with @mockoon/commons) with one GET route, the sandbox reply as its body',
      async prepare(/** @type {number} */ port) {
        const commons = createRequire(join(dir, 'node_modules', 'index.js'))('@mockoon/commons');
        const env = commons.BuildEnvironment({
          hasDefaultRoute: false,
          hasContentTypeHeader: true,
          hasCorsHeaders: false,
          port,
        });
        const r = commons.BuildHTTPRoute(true, { endpoint: 'services/rest/v1/users/:uid.json', body: route.reply });
        env.name = 'udcli bench';
        env.hostname = '127.0.0.1';
        env.routes.push(r);
        env.rootChildren.push({ type: 'route', uuid: r.uuid });
        writeFileSync(join(work, 'mockoon.json'), JSON.stringify(env));
      },
      start: (/** @type {number} */ port) => ({
        command: process.execPath,
        args: [
          pkg('@mockoon/cli', 'bin/run.js'),
          'start',
          '--data',
          join(work, 'mockoon.json'),
          '--port',
          String(port),
          '--hostname',
          '127.0.0.1',
          '--disable-log-to-file',
        ],
      }),
      version: () => JSON.parse(readFileSync(pkg('@mockoon/cli', 'package.json'), 'utf8')).version,
    },
    {
      id: 'wiremock',
      name: 'WireMock (standalone jar of the wiremock npm package)',
      route: 'one stub mapping (urlPathPattern of the path), the sandbox reply as its body',
      needs() {
        const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
        if (java.error || java.status !== 0) return 'needs Java';
        return null;
      },
      async prepare() {
        mkdirSync(join(work, 'wiremock', 'mappings'), { recursive: true });
        mkdirSync(join(work, 'wiremock', '__files'), { recursive: true });
        writeFileSync(
          join(work, 'wiremock', 'mappings', 'user.json'),
          JSON.stringify({
            request: { method: 'GET', urlPathPattern: '/services/rest/v1/users/[0-9a-f]{32}\\.json' },
            response: {
              status: 200,
              headers: { 'Content-Type': 'application/json; charset=utf-8' },
              body: route.reply,
            },
          }),
        );
      },
      start: (/** @type {number} */ port) => {
        const jar = readdirSync(join(dir, 'node_modules', 'wiremock', 'build')).find((f) =>
          /^wiremock-standalone-.*\.jar$/.test(f),
        );
        if (!jar) throw new Error('the wiremock package holds no standalone jar');
        return {
          command: 'java',
          args: [
            '-jar',
            join(dir, 'node_modules', 'wiremock', 'build', jar),
            '--port',
            String(port),
            '--bind-address',
            '127.0.0.1',
            '--root-dir',
            join(work, 'wiremock'),
            '--disable-banner',
          ],
        };
      },
      version: () => JSON.parse(readFileSync(pkg('wiremock', 'package.json'), 'utf8')).version,
    },
  ];
}

/**
 * Measures the sandbox and every mock server; returns one row spec a mock (for run.js's row()),
 * the sandbox's figures on the udcli side of each.
 * @param {object} o
 * @param {number} o.runs            start-ups (each followed by a load run) a server
 * @param {number} o.loadMs
 * @param {number} o.loadWarmMs      load before the measured one, each start (0: none)
 * @param {number} o.connections
 * @param {string} o.root            the bench's temp dir
 * @param {string | undefined} o.mocksDir   keep the install there (else a temp folder, removed)
 * @param {(id: string) => boolean} o.wants
 */
export async function benchMocks(o) {
  const work = mkdtempSync(join(o.root, 'mocks-'));
  const dir = o.mocksDir ?? mkdtempSync(join(tmpdir(), 'udcli-bench-mocks-'));
  /** @type {any[]} */
  const specs = [];
  try {
    /** @type {string | null} */
    let installError = null;
    try {
      install(dir);
    } catch (e) {
      installError = /** @type {Error} */ (e).message;
      say(installError);
    }

    // The sandbox as a studio starts it: `udcli sandbox start` on a database of its own, seeded
    // with the demo data by its first start (a warm-up start, not measured).
    const sandboxEnv = cleanEnv({ UDCLI_CONFIG_DIR: join(work, 'config'), UDCLI_DATA_DIR: join(work, 'data') });
    const db = join(work, 'sandbox.db');
    const { DEMO } = await import('../dist/domain/demo.js');
    const pathAndQuery = `/services/rest/v1/users/${DEMO.user.uid}.json?api_key=${DEMO.game.apiKey}`;
    const sandboxStart = (/** @type {number} */ port) => ({
      command: process.execPath,
      args: [BIN, 'sandbox', 'start', '--port', String(port), '--host', '127.0.0.1', '--db', db],
      env: sandboxEnv,
    });
    let port = await freePort();
    const first = await startTimed({ ...sandboxStart(port), url: `http://127.0.0.1:${port}${pathAndQuery}` });
    // The sandbox's own OpenAPI document, for Prism as a studio would point it at the platform's.
    const openapi = await get(`http://127.0.0.1:${port}/openapi.json`).finally(() => first.stop());
    if (openapi.status !== 200) throw new Error(`the sandbox's /openapi.json: HTTP ${openapi.status}`);
    const reply = first.first;
    const sandboxShape = shapeOf(reply);

    const all = servers(dir, work, { reply, uid: DEMO.user.uid, pathAndQuery, openapi: openapi.text });
    const chosen = all.filter((m) => o.wants(`mock-${m.id}`));
    /** @type {Map<string, string>} */
    const skipped = new Map();
    for (const m of chosen) {
      const why = installError
        ? `skipped: ${installError.slice(0, 200)}`
        : 'needs' in m && typeof m.needs === 'function'
          ? m.needs()
          : null;
      if (why) skipped.set(m.id, why.startsWith('skipped') ? why : `skipped: ${why}`);
    }

    /** One start-up, a warm load, the measured load, the peak RSS; then stop. */
    const cycle = async (
      /** @type {{ command: string, args: string[], env?: NodeJS.ProcessEnv }} */ how,
      /** @type {number} */ p,
    ) => {
      const url = `http://127.0.0.1:${p}`;
      const s = await startTimed({ ...how, url: url + pathAndQuery });
      try {
        const load = (/** @type {number} */ ms) =>
          nodeJson(
            [
              join(BENCH, 'loadgen.js'),
              JSON.stringify({ url, path: pathAndQuery, connections: o.connections, durationMs: ms }),
            ],
            { timeoutMs: ms + 60_000 },
          );
        if (o.loadWarmMs > 0) await load(o.loadWarmMs);
        const r = await load(o.loadMs);
        if (r.errors + r.non2xx > 0) throw new Error(`${r.errors} errors, ${r.non2xx} non-2xx (${r.firstError})`);
        return { startupMs: s.startupMs, rps: r.rps, rssMB: treePeakRssKB(s.pid) / 1024, first: s.first };
      } finally {
        await s.stop();
      }
    };

    /** @type {{ startupMs: number[], rps: number[], rssMB: number[] }} */
    const sandbox = { startupMs: [], rps: [], rssMB: [] };
    /**
     * @type {Map<string, { startupMs: number[], rps: number[], rssMB: number[], shape?: ReturnType<typeof shapeOf>,
     * version?: string }>}
     */
    const mocks = new Map();
    for (const m of chosen) {
      if (skipped.has(m.id)) continue;
      try {
        port = await freePort();
        await m.prepare(port);
        mocks.set(m.id, { startupMs: [], rps: [], rssMB: [], version: m.version() });
      } catch (e) {
        skipped.set(m.id, `skipped: ${/** @type {Error} */ (e).message.split('\n')[0].slice(0, 200)}`);
      }
    }
    say(
      `mock servers: ${o.runs} start-ups and ${o.loadMs} ms of GETs each (${o.connections} connections): sandbox, ${[...mocks.keys()].join(', ') || 'none'}${skipped.size ? `; ${[...skipped].map(([k, v]) => `${k} ${v}`).join('; ')}` : ''}`,
    );
    // Interleaved: each run starts the sandbox, then every mock, in turn.
    for (let i = 0; i < o.runs; i++) {
      const p = await freePort();
      const s = await cycle(sandboxStart(p), p);
      sandbox.startupMs.push(s.startupMs);
      sandbox.rps.push(s.rps);
      sandbox.rssMB.push(s.rssMB);
      for (const m of chosen) {
        const into = mocks.get(m.id);
        if (!into || skipped.has(m.id)) continue;
        try {
          const mp = await freePort();
          const r = await cycle(m.start(mp), mp);
          into.startupMs.push(r.startupMs);
          into.rps.push(r.rps);
          into.rssMB.push(r.rssMB);
          into.shape ??= shapeOf(r.first);
        } catch (e) {
          skipped.set(m.id, `failed: ${/** @type {Error} */ (e).message.split('\n')[0].slice(0, 200)}`);
          say(`mock-${m.id}: ${skipped.get(m.id)}`);
        }
      }
    }

    for (const m of chosen) {
      const got = mocks.get(m.id);
      const why = skipped.get(m.id);
      const same = got?.shape
        ? JSON.stringify(got.shape.payloadKeys) === JSON.stringify(sandboxShape.payloadKeys)
        : false;
      const extraKeys = got?.shape ? got.shape.keys.filter((k) => !sandboxShape.keys.includes(k)) : [];
      specs.push({
        id: `mock-${m.id}`,
        what: `GET users/{uid}.json: ${m.name} beside the sandbox`,
        unit: 'req/s',
        kind: 'report',
        refLabel: m.name,
        refSamples: why || !got ? [NaN] : got.rps,
        udcliSamples: sandbox.rps,
        target: null,
        targetText: 'report',
        extra: {
          mock: m.id,
          name: m.name,
          version: got?.version ?? null,
          route: m.route,
          ...(why ? { skipped: why } : {}),
          samePayloadShape: why ? null : same,
          extraKeys,
          startupMs: { mock: why || !got ? [] : got.startupMs, sandbox: sandbox.startupMs },
          peakRssMB: { mock: why || !got ? [] : got.rssMB, sandbox: sandbox.rssMB },
        },
      });
    }
    return specs;
  } finally {
    rmSync(work, { recursive: true, force: true });
    if (!o.mocksDir) rmSync(dir, { recursive: true, force: true });
  }
}
