#!/usr/bin/env node
/**
 * Like-for-like reference for `udcli user <uid> --json` (the `user` row).
 *
 * The work: the same argv parsed by commander (`user <uid>` and `--json`, the program's version
 * read from package.json, as udcli's program does), the profile taken from the same UDCLI_*
 * variables and the config file looked for where udcli looks (UDCLI_CONFIG_DIR, else the
 * platform's config directory: node:os, node:path), whether stdout is a terminal asked of
 * node:tty, then the same GET over node:http with the same headers on one keep-alive connection,
 * and the payload printed as pretty JSON.
 *
 * The dependencies: what udcli's one-shot path loads and no more: commander (required, as
 * src/cli/commander.ts does), node:http, node:os, node:path, node:tty and node:crypto. udcli
 * loads node:crypto for its request signers on every command; this script signs nothing and
 * loads it all the same, since loading it is part of the cost of the path measured. The bench
 * checks before the row that both load the same packages and built-ins (lib/modules.js) and
 * reports any difference with the row.
 *
 * Why it is the fair floor: a CLI that must parse its arguments with the same library, find the
 * same configuration and make the same request cannot do less than this; what udcli takes above
 * it is its own structure (its 40-odd modules: config resolution, output policies, the client's
 * retry and trace layers). The node:http-only floor (ref/floor-user.js, the `user-floor` row,
 * reported) also leaves out the dependencies.
 *
 *   node bench/ref/user.js user UID --json     (UDCLI_BASE_URL, UDCLI_API_KEY in the environment)
 */
import 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isatty } from 'node:tty';

const require = createRequire(import.meta.url);
const { Command } = require('commander');
const { version } = require('../../package.json');

/** @param {string} url @param {Record<string, string>} headers @param {Agent} agent */
function get(url, headers, agent) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const program = new Command('udcli').version(version);
program
  .command('user')
  .argument('<uid>')
  .option('--json')
  .action(async (/** @type {string} */ uid, /** @type {{ json?: boolean }} */ options) => {
    const env = process.env;
    const dir = env.UDCLI_CONFIG_DIR || join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'udcli');
    const file = join(dir, 'config.json');
    const config = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
    const base = env.UDCLI_BASE_URL ?? config.profiles?.default?.base_url;
    const apiKey = env.UDCLI_API_KEY ?? config.profiles?.default?.api_key;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const r = /** @type {{ status: number, text: string }} */ (
      await get(`${base}/services/rest/v1/users/${uid}.json?api_key=${apiKey}`, { accept: 'application/json', 'user-agent': `udcli (node ${process.version})` }, agent)
    );
    agent.destroy();
    if (r.status !== 200) {
      process.stderr.write(`user: HTTP ${r.status}\n`);
      process.exitCode = 1;
      return;
    }
    const payload = JSON.parse(r.text).payload;
    // udcli prints a table to a terminal and JSON with --json or to a pipe.
    if (options.json || !isatty(1)) process.stdout.write(`${JSON.stringify(payload, null, 2)}\n`);
    else console.table(payload);
  });
await program.parseAsync(process.argv);
