/** `udcli sandbox play [game]`; the handler is play.ts. */
import type { PlayOptions } from './play.js';
import type { Verb } from '../../verb.js';
import { INSECURE_HELP, LATENCY_HELP, NO_CONNECT_HELP } from './verb-options.js';

export const PLAY: Verb = {
  name: 'play',
  description:
    "Open a game's play page, the game served by the sandbox's game host (starts a detached sandbox if none runs)",
  arguments: [['[game]', "the game, e.g. 1001 (default: the profile's game, else the first)"]],
  options: [
    ['--game-dir <dir>', 'serve the game from this folder (e.g. your build output)'],
    ['--game-url <url>', 'serve the game from this dev server, e.g. http://localhost:5173/'],
    ['--as <user>', 'play as this username (the page asks to confirm)'],
    ['--no-open', 'only print the URL, open no browser'],
    ['--no-connect', NO_CONNECT_HELP],
    ['--insecure-game-host', `${INSECURE_HELP}; for a sandbox play starts (a running one keeps its own)`],
    ['--latency <duration>', `${LATENCY_HELP}; for a sandbox play starts (a running one keeps its own)`],
  ],
  after: `
The play page's URL is printed on stdout, and opened in a browser when stdout is a terminal.
The game is served by the sandbox's game host, an origin of its own (the sandbox's port + 1),
which the play page iframes. The game's pages get <script src="http://HOST:PORT/_sandbox/connect.js">
first in their head (not with --no-connect). Other paths of the game host (a dev server's
/@vite/client, /assets/...) and websockets go to the game source used last. A running sandbox
serves a --game-dir only inside a folder allowed when it started (its --game-dir, --allow-game-dir).

Examples:
  $ udcli sandbox play
  $ udcli sandbox play 1001 --game-url http://localhost:5173/
  $ udcli sandbox play --game-dir ./dist --as alice --no-open`,
  run: async (factory, gameId: string | undefined, opts: PlayOptions) =>
    (await import('./play.js')).playCommand(factory, gameId, opts),
};
