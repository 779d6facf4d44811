/**
 * A game's content URI: what the play page iframes (spec 1.1). Pure functions, shared by the
 * play page and `udcli sandbox game set-uri`, so the CLI checks a URI without loading the server.
 */
import { hasControl } from '../printable.js';

export const CONTENT_URI_MAX_LENGTH = 2048;

/** The two parameters the platform appends to the content URI (spec 1.1). */
export const IFRAME_PARAMETERS = ['user_id', 'auth_token'] as const;

/** Why `text` cannot be a content URI, or null when it can: an absolute http(s) URL. */
export function contentUriProblem(text: string): string | null {
  if (text.length === 0) return 'it is empty';
  if (text.length > CONTENT_URI_MAX_LENGTH) return `it is longer than ${CONTENT_URI_MAX_LENGTH} characters`;
  if (/\s/.test(text) || hasControl(text)) return 'it contains spaces or control characters';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'it is not an absolute URL (like http://localhost:3000/game)';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `it must start with http:// or https://, not ${url.protocol}`;
  if (url.hostname === '') return 'it has no host';
  return null;
}

function parameterName(pair: string): string {
  const raw = pair.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return raw;
  }
}

/**
 * The iframe URL: `uri` with `user_id` and `auth_token` appended to its query. The rest of the
 * query and the fragment are kept exactly as written; a `user_id` or `auth_token` already in the
 * URI is dropped, so the game never sees two of them.
 */
export function iframeUrl(uri: string, userId: string, authToken: string): string {
  const hashAt = uri.indexOf('#');
  const fragment = hashAt === -1 ? '' : uri.slice(hashAt);
  const beforeFragment = hashAt === -1 ? uri : uri.slice(0, hashAt);
  const queryAt = beforeFragment.indexOf('?');
  const base = queryAt === -1 ? beforeFragment : beforeFragment.slice(0, queryAt);
  const kept =
    queryAt === -1
      ? []
      : beforeFragment
          .slice(queryAt + 1)
          .split('&')
          .filter((pair) => pair !== '' && !(IFRAME_PARAMETERS as readonly string[]).includes(parameterName(pair)));
  const query = [...kept, `user_id=${encodeURIComponent(userId)}`, `auth_token=${encodeURIComponent(authToken)}`].join(
    '&',
  );
  return `${base}?${query}${fragment}`;
}
