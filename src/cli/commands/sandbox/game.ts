/**
 * `udcli sandbox game set-uri <game_id> <url>` and `udcli sandbox game show <game_id>`: a game
 * of the sandbox database and its content URI, the page the play page iframes (spec 1.1). The
 * sandbox reads the URI on every load of the play page, so a running sandbox on the same
 * database file sees a change at once.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UdcliError, UsageError } from '../../../errors.js';
import { PLAY_PATH } from '../../../sandbox/constants.js';
import { defaultDatabasePath, ensureDataDir } from '../../../sandbox/paths.js';
import type { SandboxDatabase } from '../../../sandbox/database.js';
import type { GameRecord } from '../../../sandbox/repositories/games.js';
import { DEFAULT_SANDBOX_URL } from '../../../domain/demo.js';
import type { Factory } from '../../../ops/factory.js';
import { wantsJson } from './json.js';
import { parseContentUri, parseDbPath } from './options.js';
import { sandboxState } from './pidfile.js';
import { jsonText, printable, printableFields } from '../../../printable.js';
import { redactUrl } from '../../../redact.js';

export interface GameOptions {
  db?: string;
  json?: boolean;
}

interface GameView {
  id: string;
  name: string;
  type: string;
  launchable: boolean;
  content_uri: string | null;
  database: string;
  /** The play page on the sandbox running on this database, else on the default URL. */
  play_url: string;
  /** Whether a sandbox is running on this database (it sees changes at once). */
  sandbox_running: boolean;
  api_keys: Array<{ api_key: string; signing_secret: string; partner: boolean }>;
}

export function databasePath(factory: Factory, raw: string | undefined): string {
  const path = parseDbPath(raw) ?? defaultDatabasePath(factory.io.env);
  if (path === ':memory:') {
    throw new UsageError(
      '--db :memory: is a new, empty database in every process; a running sandbox cannot be reached through it',
      {
        hint: 'start the sandbox with a database file (udcli sandbox start --db FILE) and pass the same --db here',
      },
    );
  }
  return path;
}

export interface Running {
  url: string;
  db: string;
  /** It uses the database at hand, so it sees changes at once. */
  same: boolean;
}

/** The running sandbox, if any, and whether it uses this database file. */
export async function runningSandbox(factory: Factory, dbPath: string): Promise<Running | null> {
  const current = await sandboxState(factory.io.env, (line) => factory.io.stderr.write(line));
  if (current.state !== 'running') return null;
  const { url, db } = current.record;
  return { url, db, same: db !== ':memory:' && resolve(db) === resolve(dbPath) };
}

function findGame(db: SandboxDatabase, gameId: string, dbPath: string): GameRecord {
  const game = db.repos.games.find(gameId);
  if (game) return game;
  const ids = db.repos.games.list().map((g) => g.id);
  throw new UsageError(`no game ${JSON.stringify(gameId)} in the sandbox database ${dbPath}`, {
    hint:
      ids.length > 0 ? `its games: ${ids.join(', ')}` : 'it has no games: seed the demo data with udcli sandbox reset',
  });
}

function view(db: SandboxDatabase, game: GameRecord, dbPath: string, running: Running | null): GameView {
  return {
    id: game.id,
    name: game.name,
    type: game.type,
    launchable: game.launchable,
    // Shown, not stored: a password in it is redacted like in every URL udcli prints.
    content_uri: game.contentUri === null ? null : redactUrl(game.contentUri),
    database: dbPath,
    play_url: `${running?.same ? running.url : DEFAULT_SANDBOX_URL}${PLAY_PATH}/${encodeURIComponent(game.id)}`,
    sandbox_running: running?.same === true,
    api_keys: db.repos.games
      .apiKeysOf(game.id)
      .map((k) => ({ api_key: k.apiKey, signing_secret: k.signingSecret, partner: k.partner })),
  };
}

async function openExisting(dbPath: string): Promise<SandboxDatabase> {
  if (!existsSync(dbPath)) {
    throw new UdcliError(`there is no sandbox database at ${dbPath}`, {
      hint: 'start the sandbox once (udcli sandbox start) or pass --db FILE',
    });
  }
  const { openDatabase } = await import('../../../sandbox/database.js');
  return openDatabase(dbPath);
}

export async function setUriCommand(factory: Factory, gameId: string, url: string, raw: GameOptions): Promise<void> {
  const { stdout, stderr } = factory.io;
  const uri = parseContentUri(url);
  const dbPath = databasePath(factory, raw.db);
  const running = await runningSandbox(factory, dbPath);

  // A database that does not exist yet is created as `sandbox start` would: with the demo data.
  const isNew = !existsSync(dbPath);
  if (isNew) ensureDataDir(dirname(dbPath));
  const { openDatabase } = await import('../../../sandbox/database.js');
  const db = openDatabase(dbPath);
  try {
    if (isNew && db.isEmpty()) {
      const { seedDemo } = await import('../../../sandbox/seed/demo.js');
      seedDemo(db);
    }
    const game = findGame(db, gameId, dbPath);
    db.repos.games.setContentUri(game.id, uri);
    const result = view(db, { ...game, contentUri: uri }, dbPath, running);
    if (wantsJson(factory, raw.json)) {
      stdout.write(`${jsonText(result, 2)}\n`);
    } else {
      stdout.write(
        `set the content URI of game ${game.id} (${printable(game.name)}) to ${printable(result.content_uri ?? '')}\n`,
      );
      stderr.write(
        running?.same
          ? `the sandbox at ${running.url} uses this database: open ${result.play_url}\n`
          : `database ${dbPath}${isNew ? ' (new, with the demo data)' : ''}; start the sandbox on it (udcli sandbox start) and open ${result.play_url}\n`,
      );
    }
    if (running && !running.same) {
      stderr.write(
        running.db === ':memory:'
          ? `note: the running sandbox at ${running.url} keeps its data in memory and will not see this\n`
          : `note: the running sandbox at ${running.url} uses another database and will not see this; to change its game, pass --db ${running.db}\n`,
      );
    }
  } finally {
    db.close();
  }
}

export async function showCommand(factory: Factory, gameId: string, raw: GameOptions): Promise<void> {
  const { stdout } = factory.io;
  const dbPath = databasePath(factory, raw.db);
  const running = await runningSandbox(factory, dbPath);
  const db = await openExisting(dbPath);
  try {
    const game = findGame(db, gameId, dbPath);
    const result = view(db, game, dbPath, running);
    if (wantsJson(factory, raw.json)) {
      stdout.write(`${jsonText(result, 2)}\n`);
      return;
    }
    // A data file names the game.
    const shown = printableFields(result);
    const lines = [
      `game ${shown.id}  ${shown.name}  (${shown.type}${shown.launchable ? ', launchable' : ''})`,
      `  content URI  ${shown.content_uri ?? `(not set: udcli sandbox game set-uri ${shown.id} <url>)`}`,
      `  play page    ${shown.play_url}${shown.sandbox_running ? '' : '  (when the sandbox runs on this database)'}`,
      `  database     ${shown.database}`,
      ...shown.api_keys.map(
        (k) => `  api_key      ${k.api_key}  signing secret ${k.signing_secret}${k.partner ? '  (partner)' : ''}`,
      ),
    ];
    stdout.write(`${lines.join('\n')}\n`);
  } finally {
    db.close();
  }
}
