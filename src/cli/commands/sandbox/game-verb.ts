/** `udcli sandbox game show|set-uri`; the handlers are in game.ts. */
import type { GameOptions } from './game.js';
import type { Verb } from '../../verb.js';
import { DB, JSON_OPTION } from './verb-options.js';

export const GAME: Verb = {
  name: 'game',
  description: 'Show a sandbox game, or set its content URI (what the play page /play/{game_id} shows)',
  examples: ['udcli sandbox game show 1001', 'udcli sandbox game set-uri 1001 http://localhost:3000/game'],
  verbs: [
    {
      name: 'set-uri',
      description:
        'Set the content URI the play page iframes (an http or https URL); a running sandbox sees it at once',
      examples: ['udcli sandbox game set-uri 1001 http://localhost:3000/game'],
      arguments: [
        ['<game_id>', 'the game, e.g. 1001'],
        ['<url>', 'the http(s) URL of your game, e.g. http://localhost:3000/'],
      ],
      options: [DB, ['--json', 'print the game as JSON']],
      run: async (factory, gameId: string, url: string, opts: GameOptions) =>
        (await import('./game.js')).setUriCommand(factory, gameId, url, opts),
    },
    {
      name: 'show',
      description: 'Show a game: name, content URI, play page, api keys',
      examples: ['udcli sandbox game show 1001'],
      arguments: [['<game_id>', 'the game, e.g. 1001']],
      options: [DB, JSON_OPTION],
      run: async (factory, gameId: string, opts: GameOptions) =>
        (await import('./game.js')).showCommand(factory, gameId, opts),
    },
  ],
};
