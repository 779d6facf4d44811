/**
 * What the like-for-like references of one-shot commands (ref/user.js, ref/list.js, ref/inc.js)
 * share: the dependencies udcli's one-shot path loads and the work every udcli command does
 * before and after its requests, and no more.
 *
 * - commander, required (as src/cli/commander.ts does: no CJS-to-ESM translation), parses argv;
 *   the program's version comes from package.json, as udcli's program reads it;
 * - the profile from the same UDCLI_* variables, else the config file where udcli looks for it
 *   (UDCLI_CONFIG_DIR, else the platform's config directory: node:os, node:path);
 * - node:tty: whether stdout is a terminal (udcli prints a table there, JSON to a pipe);
 * - requests over node:http, one keep-alive connection, the headers udcli sends (accept,
 *   user-agent, the form content type of agi's POSTs), closed at the end so the process exits at
 *   once, as udcli's client.close() does.
 *
 * The bench checks, before each of these rows, that the reference and udcli load the same
 * packages and node: built-ins (bench/lib/modules.js). What udcli takes above such a reference
 * is its own structure: its modules, config resolution, output policies, the client's retry and
 * trace layers.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isatty } from 'node:tty';

const require = createRequire(import.meta.url);
const { Command } = require('commander');
const { version } = require('../../package.json');

/** Where udcli keeps its config (and audit log) on Linux. */
export function configDirectory() {
  const env = process.env;
  return env.UDCLI_CONFIG_DIR || join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'udcli');
}

/** The base URL, api key and game id, from the environment or the config file's default profile. */
export function profile() {
  const env = process.env;
  const file = join(configDirectory(), 'config.json');
  const saved = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')).profiles?.default ?? {}) : {};
  return {
    base: /** @type {string} */ (env.UDCLI_BASE_URL ?? saved.base_url),
    apiKey: /** @type {string} */ (env.UDCLI_API_KEY ?? saved.api_key),
    gameId: /** @type {string} */ (env.UDCLI_GAME_ID ?? saved.game_id),
  };
}

// The exchange itself is the floor's (node:http, one keep-alive connection, udcli's headers).
import { done } from './floor-http.js';

export { exchange, payloadOf } from './floor-http.js';

/**
 * Prints a result as udcli does: JSON with --json or to a pipe, a table to a terminal. @param {unknown} value @param {{
 * json?: boolean }} options
 */
export function print(value, options) {
  if (options.json || !isatty(1)) process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  else console.table(value);
}

/**
 * Runs a program of one command: `words` (e.g. ['achievements', 'list']), its arguments and options.
 * @param {string[]} words
 * @param {string[]} args  e.g. ['<uid>']
 * @param {(...a: any[]) => Promise<void>} action  called with the arguments, then the options
 * @param {string[]} [options]  commander flags, e.g. ['--all', '-o, --output <format>']
 */
export async function run(words, args, action, options = ['--json']) {
  const program = new Command('udcli').version(version);
  let cmd = program;
  for (const w of words) cmd = cmd.command(w);
  for (const a of args) cmd.argument(a);
  for (const o of options) cmd.option(o);
  cmd.action(async (/** @type {any[]} */ ...a) => {
    try {
      await action(...a);
    } finally {
      done();
    }
  });
  await program.parseAsync(process.argv);
}
