import type { Factory } from '../../../ops/factory.js';
import { MalformedReplyError, NotAuthenticatedError, UsageError } from '../../../errors.js';
import type { Column } from '../../../output/types.js';
import { isHex32 } from '../../../domain/ids.js';
import type { TokenRecord } from '../../../domain/types.js';
import { cellText, exclusive, isoFromSeconds, parseUserRef, quote, resolveGame } from '../../../ops/args.js';

export interface TokenOptions {
  as?: string;
  cookie?: string;
  export?: boolean;
}

const COLUMNS: ReadonlyArray<Column<TokenRecord>> = [
  { key: 'game_id', header: 'GAME', cell: (r) => cellText(r.game_id) },
  { key: 'uid', header: 'USER_ID', cell: (r) => cellText(r.uid) },
  { key: 'token', header: 'AUTH_TOKEN', cell: (r) => cellText(r.token) },
  { key: 'created_on', header: 'CREATED', cell: (r) => isoFromSeconds(r.created_on) },
  { key: 'expires_on', header: 'EXPIRES', cell: (r) => isoFromSeconds(r.expires_on) },
];

export async function run(factory: Factory, args: { gameId?: string }, opts: TokenOptions): Promise<void> {
  exclusive(opts as Record<string, unknown>, 'as', 'cookie');
  if (opts.export && factory.globals().raw) throw new UsageError('--export and --raw cannot be used together');
  if (opts.cookie !== undefined && opts.cookie.trim() === '') throw new UsageError('invalid --cookie: empty');
  const loginAs = opts.as === undefined ? undefined : parseUserRef(opts.as, true);
  const settings = await factory.settings();
  const gameId = resolveGame(args.gameId, settings, 'pass a game_id');
  // An explicit --as or --cookie wins over the profile's cookie (flag > profile).
  const profileCookie = settings.cookie !== undefined && settings.cookie !== '' ? settings.cookie : undefined;
  if (opts.cookie === undefined && loginAs === undefined && profileCookie === undefined) {
    throw new UsageError('no site session: the token generator needs a logged-in cookie', {
      hint: 'pass --as <username> (sandbox), --cookie <cookie>, or set cookie in the profile',
    });
  }

  const client = await factory.client();
  const out = await factory.output();
  let cookie = opts.cookie ?? profileCookie;
  if (loginAs?.kind === 'username') {
    const username = loginAs.username;
    cookie = await out.spin(`Logging in to the site as ${username}`, () => client.siteLogin(username));
  }
  const sessionCookie = cookie as string;
  const { record, bodyText } = await out.spin('Requesting a test token', () =>
    client.generateToken(gameId, sessionCookie),
  );
  if (factory.globals().raw) {
    out.raw(bodyText);
    return;
  }
  if (!record || record.status === false) {
    throw new NotAuthenticatedError('the token generator issued no token: the site session is not logged in', {
      hint: 'log in again with --as <username> or refresh the cookie',
    });
  }
  if (opts.export) {
    // The values go through a shell's eval: accept nothing but the documented 32 hex digits.
    if (!isHex32(String(record.uid)) || !isHex32(String(record.token))) {
      throw new MalformedReplyError(
        `the token generator sent a uid or token that is not 32 hex digits (uid ${quote(String(record.uid))})`,
      );
    }
    out.text(`UDCLI_USER_ID=${String(record.uid).toLowerCase()}`);
    out.text(`UDCLI_AUTH_TOKEN=${String(record.token).toLowerCase()}`);
    out.text('export UDCLI_USER_ID UDCLI_AUTH_TOKEN');
    return;
  }
  out.item(record, COLUMNS);
}
