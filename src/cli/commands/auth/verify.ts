import type { Factory } from '../../../ops/factory.js';
import { NotAuthenticatedError, UsageError } from '../../../errors.js';
import type { Column } from '../../../output/types.js';
import type { AuthenticatedUser } from '../../../domain/types.js';
import { cellText, parseHex32 } from '../../../ops/args.js';
import { printable } from '../../../printable.js';

const COLUMNS: ReadonlyArray<Column<AuthenticatedUser>> = [
  { key: 'uid', header: 'UID', cell: (u) => cellText(u.uid) },
  { key: 'username', header: 'USERNAME', cell: (u) => cellText(u.username) },
];

const TOKEN_HINT = 'get a fresh one with `udcli auth token <game_id> --as <username>`';

export async function run(factory: Factory, args: { userId?: string; authToken?: string }): Promise<void> {
  const env = factory.io.env;
  const userIdText = nonEmpty(args.userId) ?? nonEmpty(env.UDCLI_USER_ID);
  const tokenText = nonEmpty(args.authToken) ?? nonEmpty(env.UDCLI_AUTH_TOKEN);
  if (userIdText === undefined) {
    throw new UsageError('missing user_id: pass it or set UDCLI_USER_ID', {
      hint: 'eval "$(udcli auth token <game_id> --as <username> --export)" sets both',
    });
  }
  if (tokenText === undefined) {
    throw new UsageError('missing auth_token: pass it or set UDCLI_AUTH_TOKEN', { hint: TOKEN_HINT });
  }
  const userId = parseHex32(userIdText, 'user_id');
  const authToken = parseHex32(tokenText, 'auth_token');

  const client = await factory.client();
  const out = await factory.output();
  const reply = await out.spin('Authenticating', () => client.authenticate(userId, authToken));
  const raw = factory.globals().raw;
  if (raw) out.raw(reply.bodyText);
  if (reply.payload === null || reply.payload === undefined) {
    const reason = printable(reply.envelope?.message?.trim() ?? '') || 'the service returned no user';
    throw new NotAuthenticatedError(`not authenticated: ${reason}`, { hint: await otherGameHint(factory, reason) });
  }
  if (!raw) out.item(reply.payload, COLUMNS);
}

/**
 * A token of another game: both games named, and the profile's game with why it is that one
 * (the built-in profile follows what the sandbox holds), so the way on is plain.
 */
async function otherGameHint(factory: Factory, reason: string): Promise<string> {
  const games = /issued for another game \((\S+); this api_key is of game (\S+)\)/.exec(reason);
  if (games === null) return TOKEN_HINT;
  const [, tokenGame, keyGame] = games;
  const settings = await factory.settings();
  const why = settings.followed ?? `game ${keyGame}, the profile's game_id`;
  return `the token is for game ${tokenGame}; this profile uses ${why}: verify with that game's key (UDCLI_GAME_ID=${tokenGame} udcli auth verify …), or ${TOKEN_HINT.replace('<game_id>', keyGame!)}`;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
