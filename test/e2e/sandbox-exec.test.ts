/**
 * `udcli sandbox exec -- <command ...>` through the built binary (`npm run build` first), as the
 * process whose stdio, exit code and signals the command shares (usage errors in-process): a
 * fresh sandbox for one command, the UDCLI_* environment, the exit code passed through,
 * signals passed on, and everything cleaned up afterwards. Also `sandbox game set-uri`'s exit codes.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/domain/demo.js';
import { fakeIO } from '../output/fake-io.js';
import { BIN, runCli, runInProcess, type CliResult } from './harness.js';
import { until } from '../until.js';

let root: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'udcli-exec-e2e-'));
  env = { UDCLI_CONFIG_DIR: join(root, 'config'), UDCLI_DATA_DIR: join(root, 'data') };
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const exec = (args: string[], options: { timeoutMs?: number } = {}): Promise<CliResult> =>
  runCli(['sandbox', 'exec', ...args], env, options);

/** A Node script file in the temp dir (its source gets `OUT` as the path of a JSON result file). */
function script(name: string, source: string): { path: string; out: string } {
  const path = join(root, `${name}.mjs`);
  const out = join(root, `${name}.json`);
  writeFileSync(path, `const OUT = ${JSON.stringify(out)};\n${source}`);
  return { path, out };
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/** The lines udcli itself wrote on stderr, without the "sandbox at ..." status line. */
const ownLines = (stderr: string) => stderr.split('\n').filter((l) => l !== '' && !/^udcli: sandbox at /.test(l));

async function refused(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(3000) });
    return false;
  } catch {
    return true;
  }
}

describe('udcli sandbox exec', () => {
  it('runs the command against a live sandbox with the UDCLI_* environment, then stops it, removes it and exits with its code', async () => {
    const child = script(
      'env-check',
      `import { writeFileSync } from 'node:fs';
const e = process.env;
const user = await (await fetch(\`\${e.UDCLI_BASE_URL}/services/rest/v1/users/demo_player.json?username=1&api_key=\${e.UDCLI_API_KEY}\`)).json();
const login = await fetch(\`\${e.UDCLI_SITE_URL}/login?username=demo_player\`, { method: 'POST' });
const cookie = login.headers.get('set-cookie').split(';')[0];
const token = await (await fetch(\`\${e.UDCLI_SITE_URL}/service/user-auth-token-generator/\${e.UDCLI_GAME_ID}\`, { headers: { cookie } })).json();
const auth = await (await fetch(\`\${e.UDCLI_BASE_URL}/services/rest/v1/authenticate/user.json?user_id=\${token.uid}&auth_token=\${token.token}&api_key=\${e.UDCLI_API_KEY}\`)).json();
const env = Object.fromEntries(Object.entries(e).filter(([k]) => k.startsWith('UDCLI_')));
writeFileSync(OUT, JSON.stringify({ env, user: user.payload, auth: auth.payload }));
console.log('hello from the command');
process.exit(7);`,
    );
    const result = await exec(['--', process.execPath, child.path]);
    expect(result.code, result.stderr).toBe(7);
    expect(result.stdout).toBe('hello from the command\n');
    // The command failed: the sandbox's last request lines follow (issue 23), keys redacted.
    const [header, ...lines] = ownLines(result.stderr);
    expect(header).toBe("udcli: the command failed (exit 7); the sandbox's last 4 request lines:");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(
      /Z GET \/services\/rest\/v1\/users\/demo_player\.json\?username=1&api_key=0123…cdef 200 [\d.]+ms$/,
    );
    expect(lines[3]).toMatch(/ GET \/services\/rest\/v1\/authenticate\/user\.json\?.* 200 /);
    for (const secret of [DEMO.game.apiKey, DEMO.game.signingSecret]) expect(result.stderr).not.toContain(secret);

    const seen = readJson<{ env: Record<string, string>; user: { uid: string }; auth: { uid: string } }>(child.out);
    expect(seen.env).toMatchObject({
      UDCLI_BASE_URL: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      UDCLI_API_KEY: DEMO.game.apiKey,
      UDCLI_SIGNING_SECRET: DEMO.game.signingSecret,
      UDCLI_GAME_ID: DEMO.game.id,
      UDCLI_PROFILE: 'sandbox',
      // What udcli was given is passed on too.
      UDCLI_CONFIG_DIR: env.UDCLI_CONFIG_DIR,
    });
    expect(seen.env.UDCLI_SITE_URL).toBe(seen.env.UDCLI_BASE_URL);
    expect(seen.env.UDCLI_BASE_URL).not.toBe('http://127.0.0.1:8787');
    expect(seen.user.uid).toBe(DEMO.user.uid);
    expect(seen.auth.uid).toBe(DEMO.user.uid);

    expect(await refused(`${seen.env.UDCLI_BASE_URL}/_sandbox/status`)).toBe(true);
    expect(existsSync(dirname(seen.env.UDCLI_SANDBOX_DB!))).toBe(false);
  });

  it('lets udcli itself, run by the command, talk to that sandbox (exit 0 passes through)', async () => {
    const result = await exec(['--', process.execPath, BIN, 'user', DEMO.user.username, '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ uid: DEMO.user.uid, username: DEMO.user.username });
  });

  it('runs no shell unless asked: arguments arrive as written, and sh -c works', async () => {
    const plain = await exec(['--', 'echo', '$UDCLI_BASE_URL', '*']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe('$UDCLI_BASE_URL *\n');
    const shell = await exec(['--', 'sh', '-c', 'echo "$UDCLI_GAME_ID"; exit 5']);
    expect(shell.code).toBe(5);
    expect(shell.stdout).toBe(`${DEMO.game.id}\n`);
  });

  it("a failed run's tail shows each signed change once: the retry's line, marked, and not the challenge before it (--log FILE keeps both)", async () => {
    const { main } = await import('../../src/cli/main.js');
    const log = join(root, 'handshake.log');
    const io = fakeIO({ env: { NO_COLOR: '1', PATH: process.env.PATH, ...env } });
    // udcli's own signed change (agi: unsigned, challenged, retried signed), then the command fails.
    const code = await main(
      [
        'sandbox',
        'exec',
        '--log',
        log,
        '--',
        'sh',
        '-c',
        '"$0" "$1" achievements inc "$2" LEVEL_10 --by 1 >/dev/null && exit 3',
        process.execPath,
        BIN,
        DEMO.user.uid,
      ],
      io.io,
    );
    expect(code, io.stderr()).toBe(3);
    const [header, ...tail] = ownLines(io.stderr());
    expect(header).toMatch(
      /^udcli: the command failed \(exit 3\); the sandbox's last \d+ request lines; all of them in /,
    );
    const changes = tail.filter((line) => / POST \/services\/rest\/v1\/achievements\//.test(line));
    expect(changes).toEqual([expect.stringMatching(/ 200 [\d.]+ms \(after signature challenge\)$/)]);
    expect(tail.join('\n')).not.toContain('signature required');
    const kept = readFileSync(log, 'utf8')
      .trimEnd()
      .split('\n')
      .filter((line) => / POST \/services\/rest\/v1\/achievements\//.test(line));
    expect(kept).toEqual([
      expect.stringMatching(/ 401 [\d.]+ms \(signature challenge, answered\) signature required$/),
      expect.stringMatching(/ 200 [\d.]+ms \(after signature challenge\)$/),
    ]);
  });

  it('takes --port and --seed none', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const child = script(
      'options',
      `import { writeFileSync } from 'node:fs';
const r = await fetch(\`\${process.env.UDCLI_BASE_URL}/services/rest/v1/users/demo_player.json?username=1\`);
writeFileSync(OUT, JSON.stringify({ url: process.env.UDCLI_BASE_URL, status: r.status }));`,
    );
    const result = await exec(['--port', String(port), '--seed', 'none', '--', process.execPath, child.path]);
    expect(result.code, result.stderr).toBe(0);
    expect(readJson(child.out)).toEqual({ url: `http://127.0.0.1:${port}`, status: 404 });
  });

  it('exits 128+n when a signal ends the command', async () => {
    const result = await exec(['--', process.execPath, '-e', "process.kill(process.pid, 'SIGKILL')"]);
    expect(result.code).toBe(128 + 9);
    expect(ownLines(result.stderr)).toEqual([]);
  });

  it('says in one line that a command does not exist, and exits 127', async () => {
    const result = await runInProcess(['--quiet', 'sandbox', 'exec', '--', 'udcli-no-such-command-xyz', '--flag'], env);
    expect(result.code).toBe(127);
    expect(result.stderr).toBe('udcli: command not found: udcli-no-such-command-xyz\n');
  });

  it('is a usage error (exit 2) without a command, or with a bad option', async () => {
    const none = await runInProcess(['sandbox', 'exec'], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/needs a command to run/);
    const badPort = await runInProcess(['sandbox', 'exec', '--port', 'x', '--', 'true'], env);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toMatch(/--port/);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'passes %s on to the command, then stops the sandbox and exits with its code',
    async (signal) => {
      const child = script(
        `signal-${signal}`,
        `import { writeFileSync } from 'node:fs';
process.on(${JSON.stringify(signal)}, () => {
  writeFileSync(OUT + '.got', ${JSON.stringify(signal)});
  process.exit(42);
});
writeFileSync(OUT, JSON.stringify({ url: process.env.UDCLI_BASE_URL, db: process.env.UDCLI_SANDBOX_DB }));
setInterval(() => {}, 1000);`,
      );
      const udcli = spawn(process.execPath, [BIN, 'sandbox', 'exec', '--', process.execPath, child.path], {
        env: { ...process.env, ...env, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      udcli.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const exited = new Promise<number | null>((resolve) => udcli.on('exit', (code) => resolve(code)));
      // The whole file: it exists from the moment the child opens it, before its JSON is written.
      const written = () => {
        try {
          readJson(child.out);
          return true;
        } catch {
          return false;
        }
      };
      await until(written, `the child's file (stderr so far: ${stderr})`, {
        timeoutMs: 15_000,
        intervalMs: 50,
      }).catch((error: unknown) => {
        udcli.kill('SIGKILL');
        throw error;
      });
      expect(existsSync(child.out), stderr).toBe(true);
      const started = readJson<{ url: string; db: string }>(child.out);

      udcli.kill(signal);
      const timer = setTimeout(() => udcli.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      expect(code, stderr).toBe(42);
      expect(readFileSync(`${child.out}.got`, 'utf8')).toBe(signal);
      expect(await refused(`${started.url}/_sandbox/status`)).toBe(true);
      expect(existsSync(dirname(started.db))).toBe(false);
    },
  );
});

describe('udcli sandbox game set-uri', () => {
  it('sets the URI (exit 0), refuses a non-http URL (exit 2) and an unknown game (exit 2)', async () => {
    const db = join(root, 'game.db');
    const ok = await runInProcess(
      ['sandbox', 'game', 'set-uri', '1001', 'http://localhost:3000/game', '--db', db],
      env,
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toBe('set the content URI of game 1001 (Demo Quest) to http://localhost:3000/game\n');
    const shown = await runInProcess(['sandbox', 'game', 'show', '1001', '--db', db, '--json'], env);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: '1001', content_uri: 'http://localhost:3000/game' });
    const bad = await runInProcess(['sandbox', 'game', 'set-uri', '1001', 'file:///etc/passwd', '--db', db], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^udcli: invalid content URI "file:\/\/\/etc\/passwd": it must start with http:\/\/ or https:\/\//,
    );
    const unknown = await runInProcess(
      ['sandbox', 'game', 'set-uri', '31337', 'http://localhost:3000/', '--db', db],
      env,
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no game "31337"/);
  });
});
