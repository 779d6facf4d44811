/** Fixed paths and names of the sandbox site, shared with the CLI without loading the server. */
/**
 * The login cookie: a `__Host-` name, which a browser takes only from the very name it is sent to
 * (no Domain, Path=/, Secure), so no game's page can set one the play page gets (routes/session-cookie.ts).
 */
export const SESSION_COOKIE = '__Host-udcli_sandbox_session';
/** The login cookie on a name where a browser takes no `Secure` cookie (plain http, not loopback: a LAN name). */
export const PLAIN_SESSION_COOKIE = 'udcli_sandbox_session';
/** A site login lasts a day (the cookie's Max-Age and the session's life in the database). */
export const SESSION_TTL_SECONDS = 86_400;
// The site's paths are the contract's, which the client reads too.
export { LOGIN_PATH, TOKEN_GENERATOR_PATH } from '../domain/contract.js';
/** Answers `{status, service: 'udcli-sandbox', pid, started_on}`: proves which process listens. */
export const STATUS_PATH = '/_sandbox/status';
/** `GET /play/{game_id}`: the play page, which iframes the game's content URI (spec 1.1). */
export const PLAY_PATH = '/play';
