/**
 * `udcli sandbox play [GAME] [--game-dir DIR | --game-url URL] [--as USER] [--no-open] [--no-connect]`:
 * the play page of a game, with the game served under the sandbox's own origin. A running
 * sandbox gets the game source through `/_sandbox/game-sources`; without one, a detached sandbox
 * is started with it (as `sandbox start --detach`). The page's URL goes to stdout, and into a
 * browser when stdout is a terminal.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { UsageError } from '../../../errors.js';
import { gameSources, setGameSource } from '../../../client/sandbox-admin.js';
import { PLAY_PATH } from '../../../sandbox/constants.js';
import { defaultDatabasePath } from '../../../sandbox/paths.js';
import { DEMO_FACTS } from '../../../sandbox/seed/demo-data.js';
import type { Factory } from '../../../ops/factory.js';
import { parseSandboxGameId } from '../../../ops/args.js';
import { parseGameSourceOptions, parseLatency, type GameSourceOptions, type RawGameSourceOptions } from './options.js';
import { parseStartOptions } from './start-options.js';
import { commandFor, reachableUrl, sandboxState } from './pidfile.js';
import { launchDetached, refuseForbiddenGameDirs, type StartDeps } from './start.js';
import { printable } from '../../../printable.js';
import { redactUrl } from '../../../redact.js';

export interface PlayOptions extends Omit<RawGameSourceOptions, 'game'> {
  as?: string;
  latency?: string;
  /** Commander's --no-open: false when given. */
  open?: boolean;
  insecureGameHost?: boolean;
}

const reachable = (url: string): string => reachableUrl(url).replace(/\/+$/, '');

async function profileGame(factory: Factory): Promise<string | undefined> {
  try {
    return (await factory.settings()).gameId;
  } catch {
    return undefined;
  }
}

/** GAME, else the profile's game when the sandbox has it, else its first game. */
async function pickGame(
  factory: Factory,
  named: string | undefined,
  ids: readonly string[],
  where: string,
): Promise<string> {
  if (named !== undefined) {
    if (ids.includes(named)) return named;
    throw new UsageError(
      `no game ${JSON.stringify(named)} in ${where}`,
      ids.length > 0 ? { hint: `its games: ${ids.slice(0, 20).join(', ')}` } : {},
    );
  }
  const profile = await profileGame(factory);
  if (profile !== undefined && ids.includes(profile)) return profile;
  if (ids[0] === undefined)
    throw new UsageError(`${where} has no games`, { hint: 'seed the demo data with udcli sandbox reset' });
  return ids[0];
}

/** The games of the database a new sandbox would start on (the demo's, when it is still to be made). */
async function databaseGames(dbPath: string): Promise<string[]> {
  if (!existsSync(dbPath)) return DEMO_FACTS.games.map((g) => g.id);
  const { openDatabase } = await import('../../../sandbox/database.js');
  const db = openDatabase(dbPath);
  try {
    const ids = db.repos.games.list().map((g) => g.id);
    return ids.length > 0 || !db.isEmpty() ? ids : DEMO_FACTS.games.map((g) => g.id);
  } finally {
    db.close();
  }
}

function sourceBody(source: GameSourceOptions): Record<string, unknown> {
  const { setting } = source;
  if (setting.kind === 'dir') return { dir: setting.root, connect: setting.connect };
  if (setting.kind === 'url') return { url: setting.base, connect: setting.connect };
  return { connect: setting.connect };
}

/** Opens `url` in the desktop's browser, detached; nothing happens where there is none. */
export function openInBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command, args as string[], { detached: true, stdio: 'ignore', windowsHide: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No browser opener: the URL on stdout is enough.
  }
}

export async function playCommand(
  factory: Factory,
  game: string | undefined,
  raw: PlayOptions,
  deps: StartDeps = {},
): Promise<void> {
  const named = game === undefined ? undefined : parseSandboxGameId(game);
  const source = parseGameSourceOptions(raw, process.cwd(), true);
  const as = raw.as;
  if (as !== undefined && (as.trim() === '' || as.length > 64))
    throw new UsageError('--as must be a username (1-64 characters)');
  const latencyMs = parseLatency(raw.latency);
  const { stdout, stderr, env } = factory.io;

  const current = await sandboxState(env, (line) => stderr.write(line));
  let url: string;
  let gameId: string;
  if (current.state === 'running') {
    url = reachable(current.record.url);
    // A running sandbox keeps the latency it started with: asking for another one is refused.
    const running = current.record.latencyMs ?? 0;
    if (raw.latency !== undefined && latencyMs !== running) {
      throw new UsageError(
        `the sandbox at ${url} runs with --latency ${running}ms, not ${latencyMs}ms; a running sandbox keeps its latency`,
        {
          hint: `stop it first (udcli sandbox stop), then: udcli sandbox play --latency ${latencyMs}ms`,
        },
      );
    }
    const list = await gameSources(url);
    gameId = await pickGame(
      factory,
      named,
      (list?.games ?? []).map((g) => g.game_id),
      `the sandbox at ${url}`,
    );
    if (source !== undefined) {
      await setGameSource(url, gameId, sourceBody(source)).catch((error: unknown) => {
        throw outsideAllowed(error, source, gameId);
      });
      stderr.write(`udcli: the sandbox at ${url} now serves game ${gameId} from ${describe(source)}\n`);
    }
  } else {
    const options = {
      ...parseStartOptions({ detach: true, insecureGameHost: raw.insecureGameHost === true }, env),
      latencyMs,
    };
    const dbPath = defaultDatabasePath(env);
    gameId = await pickGame(factory, named, await databaseGames(dbPath), `the sandbox database ${dbPath}`);
    const gameSource = source === undefined ? undefined : { ...source, gameId };
    refuseForbiddenGameDirs({ gameSource, allowGameDirs: [] }, env);
    const started = await launchDetached(factory, { ...options, gameSource }, deps);
    url = reachable(started.url);
    stderr.write(
      `udcli: sandbox started in the background at ${url} (pid ${started.pid}); stop it with: ${commandFor(env, 'stop', started)}\n`,
    );
  }
  const page = `${url}${PLAY_PATH}/${encodeURIComponent(gameId)}${as === undefined ? '' : `?as=${encodeURIComponent(as)}`}`;
  stdout.write(`${page}\n`);
  if (factory.io.stdoutIsTTY && raw.open !== false) openInBrowser(page);
}

function describe(source: GameSourceOptions): string {
  const { setting } = source;
  const how = setting.connect ? '' : ' (no connect tag)';
  if (setting.kind === 'dir') return `${printable(setting.root)}${how}`;
  if (setting.kind === 'url') return `${printable(redactUrl(setting.base))}${how}`;
  return `its content URI${how}`;
}

/**
 * The running sandbox serves games only from the folders it was started with (a request never
 * widens them: docs/SANDBOX-DESIGN.md): a folder outside them is refused with the one command
 * that serves it, a sandbox of its own beside this one (issue 53).
 */
function outsideAllowed(error: unknown, source: GameSourceOptions, gameId: string): unknown {
  if (!(error instanceof UsageError) || source.setting.kind !== 'dir' || !error.message.includes('not inside a folder'))
    return error;
  const dir = source.setting.root;
  const arg = /^[\w@%+=:,./-]+$/.test(dir) ? dir : `'${dir.replace(/'/g, "'\\''")}'`;
  return new UsageError(error.message, {
    hint: printable(
      `serve it from a sandbox of its own beside this one: udcli sandbox start --detach --name play-${gameId.toLowerCase().replace(/[^a-z0-9._-]/g, '-')} --port 0 --game-dir ${arg} --game ${gameId}, then open its /play/${gameId}`,
    ),
  });
}
