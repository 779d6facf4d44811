/**
 * One origin per game (issue 40): the game host serves each game under a host name of its own,
 * `g1001.localhost:<game port>`, so that no game can read another's storage, cookies or pages, nor
 * register a service worker over another's (a worker's scope never leaves its origin). Browsers
 * resolve every `*.localhost` name to loopback themselves (RFC 6761; Chromium and Firefox do), so
 * no DNS or hosts file is needed, and no page elsewhere can be made to carry such a Host (DNS
 * rebinding needs a name the attacker controls). Each such name is a site of its own to a browser
 * (`localhost` counts as a top-level domain), so games are cross-site to each other and to the
 * sandbox's pages.
 *
 * A label must be a DNS label (letters, digits, `-`; case-folded), a game id may hold `_`, `.` and
 * capitals: an id of lowercase letters and digits reads as itself (`g1001`), any other is named by
 * its hash (`x-` and 20 hex digits), so that two ids never share a label.
 */
import { createHash } from 'node:crypto';

export const GAME_HOST_DOMAIN = 'localhost';

const READABLE_ID = /^[a-z0-9]{1,62}$/;
const LABEL = /^(?:g[a-z0-9]{1,62}|x-[0-9a-f]{20})$/;

/** The DNS label of a game's host name. */
export function gameLabel(gameId: string): string {
  if (READABLE_ID.test(gameId)) return `g${gameId}`;
  return `x-${createHash('sha256').update(gameId, 'utf8').digest('hex').slice(0, 20)}`;
}

/** `g1001.localhost`: the name a game is served under. */
export function gameHostName(gameId: string): string {
  return `${gameLabel(gameId)}.${GAME_HOST_DOMAIN}`;
}

/** The label of a game host name (`g1001.localhost`, any case), or null when the name is not one. */
export function labelOfName(name: string): string | null {
  const lower = name.toLowerCase();
  const suffix = `.${GAME_HOST_DOMAIN}`;
  if (!lower.endsWith(suffix)) return null;
  const label = lower.slice(0, -suffix.length);
  return LABEL.test(label) ? label : null;
}

/** The names every browser and tool resolves to this machine's loopback. */
export function isLoopbackName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === 'localhost' || lower === '127.0.0.1' || lower === '[::1]';
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
