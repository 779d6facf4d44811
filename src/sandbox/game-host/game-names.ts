/**
 * One origin per game (issue 40): the game host serves each game under a host name of its own,
 * `g1001.sandbox.localhost:<game port>`, so that no game can read another's storage, host-only
 * cookies or pages, nor register a service worker over another's (a worker's scope never leaves
 * its origin). Browsers resolve every `*.localhost` name to loopback themselves (RFC 6761;
 * Chromium and Firefox do), so no DNS or hosts file is needed, and no page elsewhere can be made
 * to carry such a Host (DNS rebinding needs a name the attacker controls).
 *
 * The play page is served to a browser at `sandbox.localhost` (PLAY_HOST_NAME), the games' parent
 * name: a browser counts `localhost` as a top-level domain, so `sandbox.localhost` is the site of
 * the play page and of every game, as the platform's game page and its games are one site. A game
 * in the play page's frame is then not a third-party frame, where browsers that block third-party
 * cookies deny it localStorage and its cookies. One site has a cost, said in docs/SANDBOX-DESIGN.md:
 * a game's script may set a cookie for the whole site (`Domain=sandbox.localhost`), which the
 * others' scripts see; the proxy never passes such a cookie on (proxy.ts, CookieSpace).
 *
 * A label must be a DNS label (letters, digits, `-`; case-folded), a game id may hold `_`, `.` and
 * capitals: an id of lowercase letters and digits reads as itself (`g1001`), any other is named by
 * its hash (`x-` and 20 hex digits), so that two ids never share a label.
 */
import { createHash } from 'node:crypto';

/** The play page's name for a browser on this machine, and the parent of every game's name. */
export const PLAY_HOST_NAME = 'sandbox.localhost';

const READABLE_ID = /^[a-z0-9]{1,62}$/;
const LABEL = /^(?:g[a-z0-9]{1,62}|x-[0-9a-f]{20})$/;

/** The DNS label of a game's host name. */
export function gameLabel(gameId: string): string {
  if (READABLE_ID.test(gameId)) return `g${gameId}`;
  return `x-${createHash('sha256').update(gameId, 'utf8').digest('hex').slice(0, 20)}`;
}

/** `g1001.sandbox.localhost`: the name a game is served under. */
export function gameHostName(gameId: string): string {
  return `${gameLabel(gameId)}.${PLAY_HOST_NAME}`;
}

/** The label of a game's name (`g1001.sandbox.localhost`, any case), or null when the name is not one. */
export function labelOfName(name: string): string | null {
  const lower = name.toLowerCase();
  const suffix = `.${PLAY_HOST_NAME}`;
  if (!lower.endsWith(suffix)) return null;
  const label = lower.slice(0, -suffix.length);
  return LABEL.test(label) ? label : null;
}

/** The names that reach this machine's loopback from a browser (the first three from any tool too). */
export function isLoopbackName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === 'localhost' || lower === '127.0.0.1' || lower === '[::1]' || lower === PLAY_HOST_NAME;
}

/**
 * The game id a label names, among `ids` (the sandbox's games); null when none. A readable label
 * is its id; a hashed one is looked up (games are few).
 */
export function gameOfLabel(label: string, ids: () => Iterable<string>, has: (id: string) => boolean): string | null {
  if (label.startsWith('g')) {
    const id = label.slice(1);
    return has(id) ? id : null;
  }
  for (const id of ids()) if (gameLabel(id) === label) return id;
  return null;
}
